import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { WikiPage } from "../../src/core/schemas";
import { cleanTitle, nameKey } from "../../src/core/unicode";
import { MemoryVault } from "../../src/vault/memory-vault";
import { applyPlan } from "../../src/write/apply";
import { planPages, type PlanContext } from "../../src/wiki/ingest/plan-pages";
import { aPage } from "../builders";
import { aWriteRun } from "../helpers/write-run";

const DATE = "2026-11-30";

function context(vault: MemoryVault, existingPaths: readonly string[], noteExists?: (name: string) => boolean): PlanContext {
  return { vault, wikiFolder: "wiki", existingPaths, sourceTitle: "Source note", sourcePath: "notes/Source note.md", date: DATE, ...(noteExists ? { noteExists } : {}) };
}

/** Plans and applies a batch the way an ingest does, and returns the path each page went to. */
async function ingestBatch(vault: MemoryVault, pages: readonly WikiPage[], noteExists?: (name: string) => boolean): Promise<string[]> {
  const existing = await vault.list("wiki");
  const planned = await planPages(pages, context(vault, existing, noteExists));
  await applyPlan(vault, planned, aWriteRun());
  return planned.map((c) => c.path);
}

/** The pages, without the index and the log every applied run maintains. */
const pagesIn = (vault: MemoryVault) => Object.keys(vault.snapshot()).filter((p) => p !== "wiki/index.md" && p !== "wiki/log.md");

const concept = (title: string, content = `About ${title}.`) => aPage().titled(title).withContent(content).build();

describe("choosing files for pages", () => {
  it("gives two long titles sharing their first 120 bytes two files, each keeping its suffix", async () => {
    const long = "A".repeat(130);
    const vault = new MemoryVault();
    const paths = await ingestBatch(vault, [concept(`${long} one`), concept(`${long} two`), concept(`${long} three`)]);
    expect(new Set(paths.map(nameKey)).size).toBe(3);
    expect(paths[1]).toMatch(/ \(2\)\.md$/);
    expect(paths[2]).toMatch(/ \(3\)\.md$/);
  });

  it("keeps the type suffix of a page that would shadow a user's note, however long its title", async () => {
    const long = "Ada Lovelace ".repeat(12).trim();
    const vault = new MemoryVault();
    const userNote = (name: string) => nameKey(name) === nameKey(long.slice(0, 120).trim());
    const [path] = await ingestBatch(vault, [concept(long)], userNote);
    expect(path).toMatch(/ \(concept\)\.md$/);
  });

  it("finds each page again on a second ingest when two titles share a file name", async () => {
    const vault = new MemoryVault();
    const batch = [concept("../../x", "First page."), concept("...x", "Second page.")];
    const first = await ingestBatch(vault, batch);
    expect(first).toEqual(["wiki/concepts/x.md", "wiki/concepts/x (2).md"]);
    const again = await ingestBatch(vault, [concept("...x", "Second page, revised."), concept("../../x", "First page, revised.")]);
    expect(again).toEqual(["wiki/concepts/x (2).md", "wiki/concepts/x.md"]);
    const files = vault.snapshot();
    expect(files["wiki/concepts/x.md"]).toContain("First page, revised.");
    expect(files["wiki/concepts/x (2).md"]).toContain("Second page, revised.");
  });

  it("treats a title in decomposed Unicode as the same page as its composed form, in one batch and across runs", async () => {
    const vault = new MemoryVault();
    const first = await ingestBatch(vault, [concept("Caf\u00e9", "Composed."), concept("Cafe\u0301", "Decomposed.")]);
    expect(first).toEqual(["wiki/concepts/Caf\u00e9.md"]);
    const again = await ingestBatch(vault, [concept("Cafe\u0301", "Decomposed."), concept("CAF\u00c9", "Upper case.")]);
    expect(again).toEqual(["wiki/concepts/Caf\u00e9.md"]);
    expect(pagesIn(vault)).toEqual(["wiki/concepts/Caf\u00e9.md"]);
  });

  it("does not take a user's file with the same name but another title for the page", async () => {
    const vault = new MemoryVault({ "wiki/concepts/x.md": "---\ntitle: Something else\n---\n\nMine.\n" });
    const [path] = await ingestBatch(vault, [concept("x/")]);
    expect(path).toBe("wiki/concepts/x (2).md");
    expect(vault.snapshot()["wiki/concepts/x.md"]).toBe("---\ntitle: Something else\n---\n\nMine.\n");
  });

  it("still updates a user's file without a title that bears the page's name", async () => {
    const vault = new MemoryVault({ "wiki/concepts/Example concept.md": "My own words.\n" });
    const [path] = await ingestBatch(vault, [concept("Example concept")]);
    expect(path).toBe("wiki/concepts/Example concept.md");
    expect(vault.snapshot()["wiki/concepts/Example concept.md"]).toContain("My own words.");
  });

  it("folds a title with a line break to one line, so index entries never split", async () => {
    const vault = new MemoryVault();
    const planned = await planPages([concept("Two\nlines\u202E")], context(vault, []));
    expect(planned[0]).toMatchObject({ path: "wiki/concepts/Two lines.md", title: "Two lines" });
    expect(planned[0]?.create).toContain("title: Two lines\n");
  });

  it("ends with a clear error, never a hang, when every name is taken", async () => {
    const files: Record<string, string> = {};
    const other = "---\ntitle: other\n---\n\nx\n";
    files["wiki/concepts/x.md"] = other;
    for (let n = 2; n <= 99; n++) files[`wiki/concepts/x (${n}).md`] = other;
    const vault = new MemoryVault(files);
    const planned = await planPages([concept("x?")], context(vault, Object.keys(files)));
    expect(planned[0]?.path).toMatch(/^wiki\/concepts\/x \([0-9a-f]{8}\)\.md$/);
    const full = new MemoryVault({ ...files, [planned[0]?.path ?? ""]: other });
    await expect(planPages([concept("x?")], context(full, Object.keys(full.snapshot())))).rejects.toThrow(/No free file name/);
  });

  it("gives every page its own file, and finds the same file again on every later ingest (property)", async () => {
    // Titles built from pieces that collide after cleaning: separators, dots, case, composed and
    // decomposed accents, invisible characters and a long shared prefix.
    const piece = fc.constantFrom("x", "X", "../", "...", "/", "Caf\u00e9", "Cafe\u0301", "\u200B", "\u202E", " ", "A".repeat(118), "é", "NUL", ".pdf", "\n");
    // Empty titles never reach planning: the validator refuses them.
    const title = fc.array(piece, { minLength: 1, maxLength: 5 }).map((parts) => parts.join("")).filter((t) => cleanTitle(t) !== "");
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(title, { minLength: 1, maxLength: 6, selector: (t) => nameKey(cleanTitle(t)) }), async (titles) => {
        const vault = new MemoryVault();
        const first = await ingestBatch(vault, titles.map((t) => concept(t)));
        expect(new Set(first.map(nameKey)).size).toBe(first.length);
        const second = await ingestBatch(vault, [...titles].reverse().map((t) => concept(t, `Again ${t}`)));
        expect([...second].reverse()).toEqual(first);
        expect(pagesIn(vault)).toHaveLength(first.length);
      }),
      { numRuns: 100 },
    );
  });
});

describe("an existing page that cannot be read", () => {
  /** A vault on which one file is there but refuses to be read (permissions, a sync tool's lock). */
  class UnreadableVault extends MemoryVault {
    unreadable: string | null = null;
    override read(path: string): Promise<string> {
      if (path === this.unreadable) return Promise.reject(new Error(`EACCES: permission denied, open '${path}'`));
      return super.read(path);
    }
  }

  it("stops the run with an error naming it instead of writing a second page beside it", async () => {
    const vault = new UnreadableVault();
    const [path] = await ingestBatch(vault, [concept("Ada")]);
    expect(path).toBe("wiki/concepts/Ada.md");
    vault.unreadable = "wiki/concepts/Ada.md";
    await expect(ingestBatch(vault, [concept("Ada", "Revised.")])).rejects.toMatchObject({ kind: "vault", message: expect.stringContaining('"wiki/concepts/Ada.md" exists but could not be read') });
    expect(pagesIn(vault)).toEqual(["wiki/concepts/Ada.md"]);
  });
});
