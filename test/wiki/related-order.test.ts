/**
 * The related pages' order is a pure function of the set chosen: whatever order and scores
 * retrieval gives the same pages, the context sent is the same text (prompt caching, issue 28),
 * and a name's Unicode spelling (NFC or NFD) does not move it.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { RetrievalHit, Retriever } from "../../src/retrieval/types";
import { buildIngestContext } from "../../src/wiki/ingest/retrieval-context";
import { inStableOrder, titlesInStableOrder } from "../../src/wiki/ingest/related-order";

/** Titles from a few scripts, with accents that NFC and NFD spell differently, and case twins. */
const title = fc
  .array(fc.constantFrom("a", "B", "é", "É", "e\u0301", "z", "Ω", "ω", "日本", "ß", " ", "-", "1", "ñ", "n\u0303", "ö"), { minLength: 1, maxLength: 8 })
  .map((parts) => parts.join("").trim())
  .filter((t) => t.length > 0);
const folder = fc.constantFrom("wiki/concepts/", "wiki/entities/", "wiki/");
const hitsArb = fc.uniqueArray(
  fc.record({ path: fc.tuple(folder, title).map(([f, t]) => `${f}${t}.md`), heading: fc.constantFrom("", "Intro", "Uses"), text: fc.constantFrom("One line.", "Two\n\nparagraphs.", "`code`") }),
  { selector: (h) => `${h.path}\u0000${h.heading}`, minLength: 1, maxLength: 12 },
);

function retrieverOf(hits: readonly Omit<RetrievalHit, "score" | "snippet">[], scores: readonly number[]): Retriever {
  return { retrieve: async () => hits.map((h, i) => ({ ...h, score: scores[i] ?? 1, snippet: "" })).sort((a, b) => b.score - a.score) };
}

const contextOf = (retriever: Retriever) =>
  buildIngestContext({ retriever, noteText: "# A note\n\nAbout anything.", notePath: "notes/A note.md", wikiFolder: "wiki", budgetTokens: 50_000, shareable: async () => true, pageCount: 100 });

describe("the related pages' stable order", () => {
  it("is the same for any order and any scores of the same pages (all within the relevance floor)", async () => {
    await fc.assert(
      fc.asyncProperty(
        hitsArb.chain((hits) => fc.tuple(fc.constant(hits), fc.shuffledSubarray(hits, { minLength: hits.length }), fc.array(fc.double({ min: 0.5, max: 1, noNaN: true }), { minLength: hits.length, maxLength: hits.length }), fc.array(fc.double({ min: 0.5, max: 1, noNaN: true }), { minLength: hits.length, maxLength: hits.length }))),
        async ([hits, shuffled, scoresA, scoresB]) => {
          const a = await contextOf(retrieverOf(hits, scoresA));
          const b = await contextOf(retrieverOf(shuffled, scoresB));
          expect(b.vaultContext).toBe(a.vaultContext);
          expect(b.retrievalContext).toBe(a.retrievalContext);
          expect(b.packed.blocks.map((x) => x.text)).toEqual(a.packed.blocks.map((x) => x.text));
        },
      ),
      { numRuns: 150 },
    );
  });

  it("is a pure function of the set of titles and of the set of hits", () => {
    fc.assert(
      fc.property(fc.uniqueArray(title, { maxLength: 15 }).chain((titles) => fc.tuple(fc.constant(titles), fc.shuffledSubarray(titles, { minLength: titles.length }))), ([titles, shuffled]) => {
        expect(titlesInStableOrder(shuffled)).toEqual(titlesInStableOrder(titles));
      }),
    );
    fc.assert(
      fc.property(hitsArb.chain((hits) => fc.tuple(fc.constant(hits), fc.shuffledSubarray(hits, { minLength: hits.length }))), ([hits, shuffled]) => {
        expect(inStableOrder(shuffled, (h) => h)).toEqual(inStableOrder(hits, (h) => h));
      }),
    );
  });

  it("places a name spelled NFD where its NFC spelling goes, and sorts names as they compare (case-folded)", () => {
    fc.assert(
      fc.property(fc.uniqueArray(title, { minLength: 2, maxLength: 10, selector: (t) => t.normalize("NFC").toLowerCase() }), fc.nat(), (titles, pick) => {
        const i = pick % titles.length;
        const decomposed = titles.map((t, j) => (j === i ? t.normalize("NFD") : t));
        const at = (list: string[], name: string) => list.indexOf(name);
        expect(at(titlesInStableOrder(decomposed), decomposed[i]!)).toBe(at(titlesInStableOrder(titles), titles[i]!));
      }),
    );
    expect(titlesInStableOrder(["beta", "Alpha", "Éclair", "eclair", "Zeta"])).toEqual(["Alpha", "beta", "eclair", "Zeta", "Éclair"]);
  });
});
