/**
 * Pruned scoring (MaxScore) must return exactly what scoring every posting returns: the same
 * chunks, the same scores to the bit, the same order — on random corpora where a few words are in
 * most chunks (what pruning skips), ties are frequent (equal lengths and frequencies), some paths
 * are out of scope, and limits are small and large.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TextIndex, type ChunkTerms } from "../../src/retrieval/text-index";
import { exhaustiveTopK, prunedTopK, type ScoredSegment, type TopKQuery } from "../../src/retrieval/top-k";

const VOCABULARY = ["the", "obsidian", "note", "link", "graph", "vault", "zebra", "quark"];
/** Word i appears in a chunk with probability about 0.9 / (i + 1): "the" nearly everywhere, "quark" rarely. */
const aChunk = fc.record({
  length: fc.constantFrom(1, 5, 10, 40),
  words: fc.tuple(...VOCABULARY.map((_, i) => fc.integer({ min: 0, max: 99 }).map((roll) => (roll < 90 / (i + 1) ? 1 : 0)))),
  freq: fc.constantFrom(1, 1, 2, 7, 255),
});

interface Chunk {
  readonly path: string;
  readonly ordinal: number;
  readonly length: number;
  readonly terms: Map<string, number>;
}

function segmentOf(chunks: readonly Chunk[]): { segment: ScoredSegment; ranges: Map<string, [number, number]> } {
  const postings: number[] = [];
  const ranges = new Map<string, [number, number]>();
  for (const term of VOCABULARY) {
    const start = postings.length;
    chunks.forEach((c, local) => {
      const tf = c.terms.get(term);
      if (tf) postings.push(local * 256 + tf);
    });
    if (postings.length > start) ranges.set(term, [start, postings.length]);
  }
  const packed = Int32Array.from(postings);
  return {
    ranges,
    segment: {
      postings: () => packed,
      baseLength: Float64Array.from(chunks, (c) => c.length),
      baseMeta: chunks.map((c) => ({ heading: "", start: 0, end: 1, length: c.length })),
      pathOf: (local) => (chunks[local] as Chunk).path,
      ordinalOf: (local) => (chunks[local] as Chunk).ordinal,
    },
  };
}

const aCorpus = fc.array(fc.array(fc.array(aChunk, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 60 }), { minLength: 1, maxLength: 4 });

describe("pruned top-k scoring", () => {
  it("returns exactly what exhaustive scoring returns", () => {
    fc.assert(
      fc.property(
        aCorpus,
        fc.uniqueArray(fc.constantFrom(...VOCABULARY), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 40 }),
        fc.constantFrom(1, 2, 3),
        fc.boolean(),
        (segmentsNotes, queryTerms, limit, scopeEvery, sameIdf) => {
          // Segment s holds notes s/0 … s/n, each a few chunks; a note is in scope when its number is a multiple of scopeEvery.
          const built = segmentsNotes.map((notes, s) => {
            const chunks: Chunk[] = [];
            notes.forEach((noteChunks, n) =>
              noteChunks.forEach((c, ordinal) => {
                const terms = new Map<string, number>();
                VOCABULARY.forEach((w, i) => {
                  if (c.words[i]) terms.set(w, i === 0 ? c.freq : 1 + (c.freq % 3));
                });
                chunks.push({ path: `${s}/${n}.md`, ordinal, length: c.length, terms });
              }),
            );
            return segmentOf(chunks);
          });
          const living = built.reduce((n, b) => n + b.segment.baseLength.length, 0);
          const totalLength = built.reduce((n, b) => n + b.segment.baseLength.reduce((x, y) => x + y, 0), 0);
          const query: TopKQuery = {
            segments: built.map((b) => b.segment),
            terms: queryTerms.map((term) => {
              const ranges = built.map((b) => b.ranges.get(term) ?? null);
              const df = ranges.reduce((n, r) => n + (r ? r[1] - r[0] : 0), 0);
              return { idf: sameIdf ? 1 : Math.log(1 + (living - df + 0.5) / (df + 0.5)), ranges };
            }),
            avgLength: totalLength / living,
            limit,
            accept: (path) => Number(path.split("/")[1]?.replace(".md", "")) % scopeEvery === 0,
          };
          const exhaustive = exhaustiveTopK(query);
          expect(prunedTopK(query)).toEqual(exhaustive);
          for (let i = 1; i < exhaustive.length; i++) expect(exhaustive[i - 1]!.score).toBeGreaterThanOrEqual(exhaustive[i]!.score);
        },
      ),
      { numRuns: 400 },
    );
  });

  it("agrees with exhaustive scoring through the text index, after edits and removals", () => {
    const terms = (words: string[]): ChunkTerms => ({ heading: "", start: 0, end: 1, length: words.length, terms: [...new Set(words)], freqs: [...new Set(words)].map((w) => words.filter((x) => x === w).length) });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 300 }), fc.array(fc.array(fc.constantFrom(...VOCABULARY), { minLength: 1, maxLength: 12 }), { maxLength: 4 })), { minLength: 1, maxLength: 400 }),
        fc.uniqueArray(fc.constantFrom(...VOCABULARY), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 1, max: 30 }),
        (edits, queryTerms, limit) => {
          const index = new TextIndex();
          for (const [n, chunks] of edits) {
            if (chunks.length === 0) index.remove(`notes/${n}.md`);
            else index.set(`notes/${n}.md`, chunks.map(terms));
          }
          const all = () => true;
          expect(index.search(queryTerms, limit, all)).toEqual(index.search(queryTerms, limit, all, { exhaustive: true }));
        },
      ),
      { numRuns: 100 },
    );
  });
});
