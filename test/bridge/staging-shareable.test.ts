/** The staging copy keeps pages drawn from excluded notes away from the agent. */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createStaging, type Staging } from "../../src/bridge/staging";
import { EXISTING_PAGE_PATH, makeVault, NOTE_PATH, type TestVault } from "../helpers/bridge-fixtures";

describe("the staging copy and excluded sources", () => {
  let vault: TestVault | null = null;
  let staging: Staging | null = null;
  afterEach(async () => {
    await staging?.dispose();
    vault?.dispose();
  });

  it("leaves out a wiki page whose sources lie in an excluded folder, in any spelling", async () => {
    vault = makeVault();
    const secret = "wiki/concepts/Salary Review.md";
    mkdirSync(join(vault.root, "wiki", "concepts"), { recursive: true });
    writeFileSync(join(vault.root, ...secret.split("/")), '---\ntitle: Salary Review\nsources:\n  - "[[Prive\u0301/Diary]]"\n---\n\nConfidential salaries.\n');
    staging = await createStaging({ vaultRoot: vault.root, notePath: NOTE_PATH, wikiFolder: "wiki", excludedFolders: ["Priv\u00e9"], previousPages: [] });
    expect(existsSync(join(staging.root, ...secret.split("/")))).toBe(false);
    expect(existsSync(join(staging.root, ...EXISTING_PAGE_PATH.split("/")))).toBe(true);
  });
});
