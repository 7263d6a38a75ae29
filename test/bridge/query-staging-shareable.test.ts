/**
 * A question's staging copy never holds a wiki page drawn from an excluded note, whichever listing
 * reached it: the wiki's own, or the notes' when the disk spells the wiki folder in another case
 * (setting "wiki", folder "Wiki" on macOS or Windows). On this case-sensitive disk the two spellings
 * are two folders, which is how the notes' listing comes to hold "Wiki/…" pages here.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createQueryStaging, type QueryStaging } from "../../src/bridge/query-staging";
import { makeVault, pageMarkdown, type TestVault } from "../helpers/bridge-fixtures";

describe("the query staging copy and excluded sources", () => {
  let vault: TestVault | null = null;
  let staging: QueryStaging | null = null;
  afterEach(async () => {
    await staging?.dispose();
    vault?.dispose();
  });

  it.each<"all" | { folders: string[] }>(["all", { folders: ["Wiki"] }])("leaves out a page of the wiki folder spelled in another case (notes: %j)", async (notes) => {
    vault = makeVault();
    vault.write("Wiki/Diary plans.md", pageMarkdown("Diary plans", { sources: ["[[private/diary]]"], body: "Confidential diary plans." }));
    vault.write("Wiki/Lens.md", pageMarkdown("Lens", { sources: ["Clippings/Local-first software.md"], body: "Lenses bend light." }));
    staging = await createQueryStaging({ vaultRoot: vault.root, wikiFolder: "wiki", excludedFolders: ["Private"], notes });
    expect(staging.files).not.toContain("Wiki/Diary plans.md");
    expect(existsSync(join(staging.root, "Wiki", "Diary plans.md"))).toBe(false);
    expect(staging.files).toContain("Wiki/Lens.md");
    expect(staging.files).not.toContain("Private/diary.md");
    expect(staging.files).toContain("wiki/CRDT.md"); // the wiki itself, through its own listing
    if (notes === "all") expect(staging.files).toContain("Clippings/Local-first software.md");
  });
});
