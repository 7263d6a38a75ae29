/** Retrieval on the real notes of the obsidian-help corpus (test/helpers/corpus.ts); skipped where it is absent. */
import { describe, expect, it } from "vitest";
import { basenameOf } from "../../src/retrieval/chunker";
import { corpusNotes, HAS_CORPUS } from "../helpers/corpus";
import { describeWithCorpus } from "../helpers/with-corpus";
import { aVault, indexed } from "./index-builder";
import { traverse } from "../../src/retrieval/graph-traverse";

function languageVault(language: string) {
  return aVault(Object.fromEntries(corpusNotes(language).map((n) => [`${language}/${n.path}`, n.text])));
}

describe.runIf(HAS_CORPUS).each(["ja", "ru", "ar"])("the %s notes of the corpus", (language) => {
  it("are found by their own words (each note's title and first heading)", async () => {
    const vault = languageVault(language);
    const index = await indexed(vault);
    const paths = [...vault.files.keys()].sort().filter((_, i) => i % 7 === 0).slice(0, 25);
    let top3 = 0;
    for (const path of paths) {
      const hits = await index.retrieve(basenameOf(path), { scope: { kind: "all" }, limit: 3 });
      if (hits.some((h) => h.path === path)) top3 += 1;
    }
    expect(top3 / paths.length).toBeGreaterThanOrEqual(0.8);
    // And by words from inside the body, not only the title.
    const sample = vault.files.get(paths[0] ?? "") ?? "";
    const heading = /^#{1,6}\s+(.+)$/m.exec(sample)?.[1];
    if (heading) {
      const hits = await index.retrieve(heading, { scope: { kind: "all" }, limit: 10 });
      expect(hits.map((h) => h.path)).toContain(paths[0]);
    }
  });
});

describeWithCorpus("the graph over the English notes' real links", () => {
  it("links, backlinks and two-hop traversal follow the corpus's wikilinks", async () => {
    const vault = aVault(Object.fromEntries(corpusNotes("en").map((n) => [n.path, n.text])));
    const index = await indexed(vault);
    const start = "Plugins/Graph view.md";
    expect(vault.files.has(start)).toBe(true);
    const text = vault.files.get(start) ?? "";
    const firstLink = /\[\[([^\]|#]+)/.exec(text)?.[1] ?? "";
    const target = index.graph.resolve(firstLink, start);
    expect(target).not.toBeNull();
    const neighbours = index.graph.neighbours(start);
    expect(neighbours.find((n) => n.path === target)?.relation).toMatch(/link|embed/);
    expect(index.graph.neighbours(target ?? "").some((n) => n.path === start)).toBe(true);
    const one = traverse(index.graph, start, 1);
    const two = traverse(index.graph, start, 2);
    expect(one.length).toBe(neighbours.length);
    expect(two.length).toBeGreaterThan(one.length);
    expect(two.every((h, i) => i === 0 || two[i - 1]!.depth <= h.depth)).toBe(true);
    expect(Object.isFrozen(two)).toBe(true);
  });
});
