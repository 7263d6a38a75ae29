/**
 * A note whose text the index holds already still gets the links its extractor gives now. The
 * plugin's extractor reads Obsidian's metadata cache, which can describe another version of the
 * note than the text being indexed (the sync reads notes ahead; the cache lags behind an edit):
 * the next extraction for the same text must set the links right, not be skipped by the hash.
 */
import { describe, expect, it } from "vitest";
import type { LinkExtractor, NoteLinks } from "../../src/retrieval/links";
import { VaultIndex } from "../../src/retrieval/vault-index";
import { readFrontmatter } from "../../src/retrieval/chunker";
import { aVault, prepareThenCommit } from "./index-builder";

const linksTo = (...targets: string[]): NoteLinks => ({ links: targets, embeds: [], tags: [], sources: [] });

/** An index whose extractor answers with whatever `cache.links` holds, as a metadata cache would. */
async function indexOverCache() {
  const cache = { links: linksTo() };
  const links: LinkExtractor = () => cache.links;
  const { store, reader } = aVault();
  const index = await VaultIndex.open({ frontmatter: readFrontmatter, store, reader, wikiFolder: "wiki", excludedFolders: [], links });
  return { index, cache };
}

const stat = (text: string, mtime: number) => ({ mtime, size: text.length });

describe("links of a note whose text is unchanged", () => {
  it("are replaced by the extractor's when they differ, and the commit says it changed the index", async () => {
    const { index, cache } = await indexOverCache();
    const text = "# C\n\nThe coast guard. See [[A]].\n";
    // The text of one version, the links of another (a rewrite that linked to E).
    cache.links = linksTo("E");
    expect(index.upsert("notes/C.md", text, stat(text, 1))).toBe(true);
    expect(index.graph.linksOf("notes/C.md")?.links).toEqual(["E"]);
    cache.links = linksTo("A");
    expect(index.upsert("notes/C.md", text, stat(text, 2))).toBe(true);
    expect(index.graph.linksOf("notes/C.md")?.links).toEqual(["A"]);
    expect(index.stateOf("notes/C.md")?.mtime).toBe(2);
    // Links and text as indexed: nothing to do but record the time.
    expect(index.upsert("notes/C.md", text, stat(text, 3))).toBe(false);
    expect(index.stateOf("notes/C.md")?.mtime).toBe(3);
  });

  it("are replaced for a note prepared and committed apart, as the worker updates one", async () => {
    const { index, cache } = await indexOverCache();
    const text = `# Big\n\n${"The lighthouse keeper's long log. ".repeat(2000)}\n`;
    cache.links = linksTo("E");
    expect(await prepareThenCommit(index, "notes/Big.md", text, stat(text, 1), () => Promise.resolve())).toBe("changed");
    cache.links = linksTo("A", "B");
    expect(await prepareThenCommit(index, "notes/Big.md", text, stat(text, 2), () => Promise.resolve())).toBe("changed");
    expect(index.graph.linksOf("notes/Big.md")?.links).toEqual(["A", "B"]);
    const again = index.prepare("notes/Big.md", text, stat(text, 3));
    expect(again.change).toMatchObject({ kind: "same" });
    expect(index.commit(again)).toBe("unchanged");
  });

  it("move the backlinks with them", async () => {
    const { index, cache } = await indexOverCache();
    const text = "# C\n\nSee the other note.\n";
    for (const [path, body] of [["notes/A.md", "# A\n"], ["notes/E.md", "# E\n"]] as const) index.upsert(path, body, stat(body, 1));
    cache.links = linksTo("E");
    index.upsert("notes/C.md", text, stat(text, 1));
    expect(index.graph.backlinks("notes/E.md")).toEqual(["notes/C.md"]);
    cache.links = linksTo("A");
    index.upsert("notes/C.md", text, stat(text, 2));
    expect(index.graph.backlinks("notes/E.md")).toEqual([]);
    expect(index.graph.backlinks("notes/A.md")).toEqual(["notes/C.md"]);
  });
});
