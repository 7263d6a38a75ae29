/**
 * A long query over a large index reads a bounded number of postings: its rarest terms always,
 * the most common ones only while they fit. The note a rare word names still comes first, and an
 * index that saw removals answers like one built fresh.
 */
import { describe, expect, it } from "vitest";
import { POSTINGS_BUDGET, TextIndex, type ChunkTerms } from "../../src/retrieval/text-index";

const chunk = (terms: string[]): ChunkTerms => ({ heading: "", start: 0, end: 10, length: terms.length, terms, freqs: terms.map(() => 1) });

function big(index: TextIndex, notes: number): void {
  for (let i = 0; i < notes; i++) index.set(`n/${i}.md`, [chunk(["common", "usual", `own${i}`])]);
}

describe("the postings budget of a long query", () => {
  it("leaves out the most common terms once a query would read more than the budget, and still ranks by the rare ones", () => {
    const notes = Math.ceil(POSTINGS_BUDGET / 2) + 10;
    const index = new TextIndex();
    big(index, notes);
    index.set("n/zebra.md", [chunk(["zebra", "stripes", "common"])]);
    index.set("n/stripes.md", [chunk(["stripes", "usual"])]);
    const query = ["common", "usual", "zebra", "stripes", "own7"];
    const hits = index.search(query, 3, () => true);
    expect(hits[0]?.path).toBe("n/zebra.md");
    expect(hits.map((h) => h.path).sort()).toEqual(["n/7.md", "n/stripes.md", "n/zebra.md"]);
  });

  it("answers the same after removals as an index built from scratch", () => {
    const notes = Math.ceil(POSTINGS_BUDGET / 2) + 10;
    const edited = new TextIndex();
    big(edited, notes + 500);
    for (let i = notes; i < notes + 500; i++) edited.remove(`n/${i}.md`);
    const fresh = new TextIndex();
    big(fresh, notes);
    const query = ["common", "usual", "own3", "own4", "own5"];
    expect(edited.search(query, 10, () => true)).toEqual(fresh.search(query, 10, () => true));
  });
});
