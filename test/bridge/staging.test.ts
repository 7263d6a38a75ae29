/** The staging copy: what goes in, what is found afterwards, and that the vault is never written. */
import { existsSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { collectChanges, createStaging, StagingError, type Staging } from "../../src/bridge/staging";
import { EXISTING_PAGE, EXISTING_PAGE_PATH, makeVault, NOTE_PATH, NOTE_TEXT, pageMarkdown, type TestVault } from "../helpers/bridge-fixtures";

describe("the staging copy", () => {
  let vault: TestVault;
  let staging: Staging | null = null;

  beforeEach(() => {
    vault = makeVault();
  });
  afterEach(async () => {
    await staging?.dispose();
    staging = null;
    vault.dispose();
  });

  const stage = async (previousPages: { path: string; content: string }[] = []) => {
    staging = await createStaging({ vaultRoot: vault.root, notePath: NOTE_PATH, wikiFolder: "wiki", excludedFolders: [], previousPages });
    return staging;
  };
  const put = async (s: Staging, path: string, content: string) => {
    await mkdir(join(s.root, ...path.split("/"), ".."), { recursive: true });
    await writeFile(join(s.root, ...path.split("/")), content);
  };

  it("holds the wiki's Markdown pages and the note, in the vault's layout, and nothing else", async () => {
    vault.write("wiki/image.png", "binary");
    vault.write("wiki/.hidden/x.md", "hidden");
    symlinkSync(join(vault.root, "Private"), join(vault.root, "wiki", "linked"));
    const s = await stage();
    expect([...s.baseline.keys()].sort()).toEqual([NOTE_PATH, EXISTING_PAGE_PATH]);
    expect(readdirSync(s.root).sort()).toEqual(["Clippings", "wiki"]);
    expect(readdirSync(join(s.root, "wiki"))).toEqual(["CRDT.md"]);
    expect(s.baseline.get(NOTE_PATH)).toBe(NOTE_TEXT);
  });

  it("finds the pages the agent created or changed, and reports files outside the wiki", async () => {
    const s = await stage();
    await put(s, "wiki/sources/Local-first software.md", pageMarkdown("Local-first software"));
    await put(s, EXISTING_PAGE_PATH, `${EXISTING_PAGE}\nMore.\n`);
    await put(s, "wiki/notes.txt", "not a page");
    await put(s, "Clippings/Local-first software.md", "changed source");
    await put(s, "stray.md", "stray");

    const changes = await collectChanges(s);

    expect(changes.pages.map((p) => [p.path, p.action, p.page.title])).toEqual([
      [EXISTING_PAGE_PATH, "changed", "CRDT"],
      ["wiki/sources/Local-first software.md", "created", "Local-first software"],
    ]);
    expect(changes.pages[1]?.page.frontmatter.sources).toEqual([NOTE_PATH]);
    expect(changes.ignored).toEqual(["Clippings/Local-first software.md", "stray.md", "wiki/notes.txt"]);
  });

  it("returns nothing when the agent changed nothing", async () => {
    const s = await stage();
    expect(await collectChanges(s)).toEqual({ pages: [], ignored: [] });
  });

  it("starts a repair round from the previous attempt's pages, which come back even if untouched", async () => {
    const previous = [
      { path: "wiki/sources/Local-first software.md", content: pageMarkdown("Local-first software", { lang: "english" }) },
      { path: "Clippings/evil.md", content: "outside the wiki: not placed" },
    ];
    const s = await stage(previous);
    expect(existsSync(join(s.root, "Clippings", "evil.md"))).toBe(false);
    const changes = await collectChanges(s);
    expect(changes.pages.map((p) => [p.path, p.action, p.page.frontmatter.lang])).toEqual([["wiki/sources/Local-first software.md", "created", "english"]]);
  });

  it("never writes to the vault and removes itself when disposed", async () => {
    const before = vault.snapshot();
    const s = await stage([{ path: "wiki/x.md", content: "x" }]);
    await put(s, "wiki/y.md", "y");
    await collectChanges(s);
    await s.dispose();
    expect(existsSync(s.root)).toBe(false);
    expect(vault.snapshot()).toEqual(before);
  });

  it("never stages pages in excluded folders, even inside the wiki, nor an excluded note", async () => {
    vault.write("wiki/private/Salaries.md", "# Salaries\nConfidential.\n");
    const s = await createStaging({ vaultRoot: vault.root, notePath: NOTE_PATH, wikiFolder: "wiki", excludedFolders: ["wiki/private"], previousPages: [] });
    try {
      expect(existsSync(join(s.root, "wiki", "private", "Salaries.md"))).toBe(false);
      expect(existsSync(join(s.root, ...EXISTING_PAGE_PATH.split("/")))).toBe(true);
    } finally {
      await s.dispose();
    }
    await expect(
      createStaging({ vaultRoot: vault.root, notePath: NOTE_PATH, wikiFolder: "wiki", excludedFolders: ["Clippings"], previousPages: [] }),
    ).rejects.toMatchObject({ code: "excluded" });
  });

  it("refuses a missing note, a symlinked note, and a wiki beyond its limits, in words", async () => {
    await expect(createStaging({ vaultRoot: vault.root, notePath: "Clippings/none.md", wikiFolder: "wiki", excludedFolders: [], previousPages: [] })).rejects.toMatchObject({
      code: "note_not_found",
    });
    symlinkSync(join(vault.root, "Private", "diary.md"), join(vault.root, "Clippings", "link.md"));
    await expect(createStaging({ vaultRoot: vault.root, notePath: "Clippings/link.md", wikiFolder: "wiki", excludedFolders: [], previousPages: [] })).rejects.toMatchObject({
      code: "not_a_note",
    });
    for (let i = 0; i < 4; i++) writeFileSync(join(vault.root, "wiki", `p${i}.md`), "x");
    const tooMany = createStaging(
      { vaultRoot: vault.root, notePath: NOTE_PATH, wikiFolder: "wiki", excludedFolders: [], previousPages: [] },
      { maxFiles: 3, maxBytes: 1_000_000, maxFileBytes: 100_000 },
    );
    await expect(tooMany).rejects.toBeInstanceOf(StagingError);
    await expect(tooMany).rejects.toMatchObject({ code: "too_large", message: expect.stringContaining("more than 3 notes") as unknown });
    const tooBig = createStaging(
      { vaultRoot: vault.root, notePath: NOTE_PATH, wikiFolder: "wiki", excludedFolders: [], previousPages: [] },
      { maxFiles: 100, maxBytes: 1_000_000, maxFileBytes: 100 },
    );
    await expect(tooBig).rejects.toMatchObject({ code: "too_large" });
  });
});
