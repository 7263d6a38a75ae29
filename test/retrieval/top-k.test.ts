/**
 * Scoring returns the best notes, each as its best chunk — as a plain reference computes them — and
 * pruned scoring (MaxScore) must return exactly what scoring every posting returns: the same
 * notes and chunks, the same scores to the bit, the same order — on random corpora where a few words are in
 * most chunks (what pruning skips), ties are frequent (equal lengths and frequencies), some paths
 * are out of scope, some chunks are dead (skipped, as a segment's base skips removed notes until it
 * is merged), and limits are small and large. Through the text index, searches between edits
 * (reading each segment's base and delta) equal both exhaustive scoring and a rebuilt index.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TextIndex, type ChunkTerms } from "../../src/retrieval/text-index";
import { B, exhaustiveTopK, K1, prunedTopK, type PlannedTerm, type ScoredSegment, type TopKQuery } from "../../src/retrieval/top-k";
import type { ChunkMeta } from "../../src/retrieval/text-index";

const VOCABULARY = ["the", "obsidian", "note", "link", "graph", "vault", "zebra", "quark"];
/** Word i appears in a chunk with probability about 0.9 / (i + 1): "the" nearly everywhere, "quark" rarely. */
const aChunk = fc.record({
  length: fc.constantFrom(1, 5, 10, 40),
  words: fc.tuple(...VOCABULARY.map((_, i) => fc.integer({ min: 0, max: 99 }).map((roll) => (roll < 90 / (i + 1) ? 1 : 0)))),
  freq: fc.constantFrom(1, 1, 2, 7, 255),
  dead: fc.integer({ min: 0, max: 9 }).map((roll) => roll === 0),
});

interface Chunk {
  readonly path: string;
  readonly ordinal: number;
  readonly length: number;
  readonly terms: Map<string, number>;
  readonly dead: boolean;
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
  const skip = chunks.some((c) => c.dead) ? Uint8Array.from(chunks, (c) => (c.dead ? 1 : 0)) : null;
  return {
    ranges,
    segment: {
      postings: () => packed,
      lengths: Float64Array.from(chunks, (c) => c.length),
      skip,
      pathOf: (local) => (chunks[local] as Chunk).path,
      ordinalOf: (local) => (chunks[local] as Chunk).ordinal,
      metaOf: (local) => ({ heading: "", start: 0, end: 1, length: (chunks[local] as Chunk).length }),
    },
  };
}

/**
 * The reference, written plainly: every living chunk scored on its own (the same expression, summed
 * in the query's order), each accepted note kept as its best chunk (the first among equals), the
 * notes sorted by score then path, the first `limit`.
 */
function naiveTopK(chunks: readonly Chunk[], queryTerms: readonly string[], query: TopKQuery): { score: number; path: string; ordinal: number }[] {
  const best = new Map<string, { score: number; path: string; ordinal: number; meta: ChunkMeta }>();
  for (const c of chunks) {
    if (c.dead || !query.accept(c.path)) continue;
    let score = 0;
    let matched = false;
    queryTerms.forEach((term, i) => {
      const tf = c.terms.get(term);
      if (!tf) return;
      matched = true;
      const scale = (query.terms[i] as PlannedTerm).idf * (K1 + 1);
      score += (scale * tf) / (tf + K1 * (1 - B) + ((K1 * B) / query.avgLength) * c.length);
    });
    const held = best.get(c.path);
    if (matched && (!held || score > held.score || (score === held.score && c.ordinal < held.ordinal))) {
      best.set(c.path, { score, path: c.path, ordinal: c.ordinal, meta: { heading: "", start: 0, end: 1, length: c.length } });
    }
  }
  return [...best.values()].sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : 1)).slice(0, query.limit);
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
          const chunksOf = segmentsNotes.map((notes, s) => {
            const chunks: Chunk[] = [];
            notes.forEach((noteChunks, n) =>
              noteChunks.forEach((c, ordinal) => {
                const terms = new Map<string, number>();
                VOCABULARY.forEach((w, i) => {
                  if (c.words[i]) terms.set(w, i === 0 ? c.freq : 1 + (c.freq % 3));
                });
                chunks.push({ path: `${s}/${n}.md`, ordinal, length: c.length, terms, dead: c.dead });
              }),
            );
            return chunks;
          });
          const queryOf = (built: ReturnType<typeof segmentOf>[]): TopKQuery => {
            const living = chunksOf.flat().filter((c) => !c.dead);
            const totalLength = living.reduce((n, c) => n + c.length, 0);
            return {
              segments: built.map((b) => b.segment),
              terms: queryTerms.map((term) => {
                const df = living.filter((c) => c.terms.has(term)).length;
                return { idf: sameIdf ? 1 : Math.log(1 + (living.length - df + 0.5) / (df + 0.5)), ranges: built.map((b) => b.ranges.get(term) ?? null) };
              }),
              avgLength: totalLength / Math.max(1, living.length),
              limit,
              accept: (path) => Number(path.split("/")[1]?.replace(".md", "")) % scopeEvery === 0,
            };
          };
          const query = queryOf(chunksOf.map(segmentOf));
          const exhaustive = exhaustiveTopK(query);
          expect(exhaustive).toEqual(naiveTopK(chunksOf.flat(), queryTerms, query));
          expect(prunedTopK(query)).toEqual(exhaustive);
          for (let i = 1; i < exhaustive.length; i++) expect(exhaustive[i - 1]!.score).toBeGreaterThanOrEqual(exhaustive[i]!.score);
          // Skipping dead chunks is scoring the segments without them.
          expect(exhaustive).toEqual(exhaustiveTopK(queryOf(chunksOf.map((chunks) => segmentOf(chunks.filter((c) => !c.dead))))));
        },
      ),
      { numRuns: 400 },
    );
  });

  it("agrees with exhaustive scoring and with a rebuilt index through the text index, searched between edits", () => {
    const terms = (words: string[]): ChunkTerms => ({ heading: "", start: 0, end: 1, length: words.length, terms: [...new Set(words)], freqs: [...new Set(words)].map((w) => words.filter((x) => x === w).length) });
    const aQuery = fc.tuple(fc.uniqueArray(fc.constantFrom(...VOCABULARY), { minLength: 1, maxLength: 5 }), fc.integer({ min: 1, max: 30 }));
    // Few note numbers, so notes are often replaced and removed while their segment holds a delta.
    const anEdit = fc.oneof(
      fc.tuple(fc.integer({ min: 0, max: 300 }), fc.array(fc.array(fc.constantFrom(...VOCABULARY), { minLength: 1, maxLength: 12 }), { maxLength: 4 })),
      fc.tuple(fc.integer({ min: 0, max: 12 }), fc.array(fc.array(fc.constantFrom(...VOCABULARY), { minLength: 1, maxLength: 12 }), { maxLength: 4 })),
    );
    const step = fc.oneof(
      { weight: 4, arbitrary: anEdit.map(([n, chunks]) => ({ kind: "edit" as const, n, chunks })) },
      { weight: 1, arbitrary: aQuery.map(([queryTerms, limit]) => ({ kind: "search" as const, queryTerms, limit })) },
      { weight: 1, arbitrary: fc.constant({ kind: "settle" as const }) },
    );
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 400 }), aQuery, (steps, [finalTerms, finalLimit]) => {
        const index = new TextIndex();
        const model = new Map<string, ChunkTerms[]>();
        const all = () => true;
        const check = (queryTerms: readonly string[], limit: number) => {
          const got = index.search(queryTerms, limit, all);
          expect(got).toEqual(index.search(queryTerms, limit, all, { exhaustive: true }));
          const rebuilt = new TextIndex();
          for (const [path, chunks] of model) rebuilt.set(path, chunks);
          expect(got).toEqual(rebuilt.search(queryTerms, limit, all));
        };
        for (const s of steps) {
          if (s.kind === "search") check(s.queryTerms, s.limit);
          else if (s.kind === "settle") index.settle();
          else if (s.chunks.length === 0) {
            index.remove(`notes/${s.n}.md`);
            model.delete(`notes/${s.n}.md`);
          } else {
            index.set(`notes/${s.n}.md`, s.chunks.map(terms));
            model.set(`notes/${s.n}.md`, s.chunks.map(terms));
          }
        }
        check(finalTerms, finalLimit);
      }),
      { numRuns: 100 },
    );
  });
});
