/**
 * A segment merged after any interleaving of writes, removals and merges holds exactly the
 * inverted index of its living notes: sorted terms, each with the postings of the chunks that hold
 * it, in chunk order, frequencies capped at 255 — the same as a segment built at once.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Segment, type ChunkTerms } from "../../src/retrieval/segment";
import { TermTable } from "../../src/retrieval/term-table";
import { applyOp, segmentOps, writeNote } from "../helpers/segment-ops";

const WORDS = ["a", "b", "ab", "ba", "é", "e", "z", "中", "中文", "zz"];
const PATHS = ["p", "q", "r", "s", "t"];

const chunk = fc
  .uniqueArray(fc.constantFrom(...WORDS), { maxLength: 6 })
  .chain((terms) => fc.record({ terms: fc.constant(terms), freqs: fc.array(fc.integer({ min: 1, max: 300 }), { minLength: terms.length, maxLength: terms.length }), heading: fc.constantFrom("", "H") }))
  .map(({ terms, freqs, heading }): ChunkTerms => ({ heading, start: 0, end: 1, length: freqs.reduce((n, f) => n + f, 0), terms, freqs }));

const op = segmentOps(PATHS, fc.array(chunk, { maxLength: 3 }));

function write(segment: Segment, path: string, chunks: readonly ChunkTerms[]): void {
  writeNote(segment, path, chunks, (writer, c) => c.terms.forEach((t, i) => writer.term(`<${t}>`, 1, t.length + 1, c.freqs[i] ?? 1)));
}

describe("Segment", () => {
  it("holds the inverted index of its living notes after any sequence of writes, removals and merges", () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 30 }), (ops) => {
        const table = new TermTable();
        const segment = new Segment(table);
        const model = new Map<string, readonly ChunkTerms[]>();
        for (const o of ops) applyOp(segment, model, o, write);
        const { notes, frozen } = segment.stored();
        expect(notes.map(([p]) => p).sort()).toEqual([...model.keys()].sort());
        // The expected index, from the model, in the stored order of the notes.
        const postings = new Map<string, number[]>();
        let id = 0;
        for (const [path, count] of notes) {
          const chunks = model.get(path) ?? [];
          expect(count).toBe(chunks.length);
          expect(segment.chunksOf(path).map((m) => m.length)).toEqual(chunks.map((c) => c.length));
          for (const c of chunks) {
            c.terms.forEach((t, i) => {
              const list = postings.get(t) ?? [];
              list.push(id * 256 + Math.min(255, c.freqs[i] ?? 1));
              postings.set(t, list);
            });
            id += 1;
          }
        }
        const terms = [...postings.keys()].sort();
        expect(Array.from({ length: frozen.terms.size }, (_, i) => frozen.terms.term(i))).toEqual(terms);
        terms.forEach((t, i) => expect([...frozen.postings.subarray(frozen.offsets[i], frozen.offsets[i + 1])]).toEqual(postings.get(t)));
        expect(segment.chunkCount).toBe(id);
        expect(segment.holdsTerms).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it("counts a word written several times in a chunk once, with its weights summed", () => {
    const segment = new Segment(new TermTable());
    segment.write("p", (writer) => {
      writer.chunk("", 0, 5);
      writer.term("a b a", 0, 1, 1);
      writer.term("a b a", 2, 3, 1);
      writer.term("a b a", 4, 5, 3);
      writer.chunk("", 5, 9);
      writer.term("a", 0, 1, 1);
    });
    const { notes, frozen } = segment.stored();
    expect(notes[0]?.[1]).toBe(2);
    expect([...frozen.chunks.ranges]).toEqual([0, 5, 5, 5, 9, 1]);
    expect(frozen.terms.term(0)).toBe("a");
    expect([...frozen.postings.subarray(frozen.offsets[0], frozen.offsets[1])]).toEqual([0 * 256 + 4, 1 * 256 + 1]);
  });

  it("refuses a word outside a chunk", () => {
    const segment = new Segment(new TermTable());
    expect(() => segment.write("p", (writer) => writer.term("a", 0, 1, 1))).toThrow(/inside a chunk/);
  });
});

describe("Segment read between merges", () => {
  // Many one-chunk notes sharing common words, so that a word's base postings outnumber the dead
  // chunks (looked up one by one) or not (read through), and enough removals and rewrites that a
  // search merges the segment for its dead chunks or its delta.
  const many = fc.integer({ min: 20, max: 400 }).chain((notes) =>
    fc.record({
      notes: fc.constant(notes),
      ops: fc.array(
        fc.oneof(
          fc.record({ kind: fc.constant("write" as const), note: fc.nat(notes + 10), words: fc.uniqueArray(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 10 }) }),
          // The first and last notes of the base too: the ends of every word's postings.
          fc.record({ kind: fc.constant("remove" as const), note: fc.oneof(fc.nat(notes + 10), fc.constantFrom(0, notes - 1)) }),
          fc.record({ kind: fc.constant("search" as const) }),
        ),
        { maxLength: 400 },
      ),
    }),
  );

  it("counts each word's living chunks as a rebuilt segment would, and finds every posting in base or delta", () => {
    fc.assert(
      fc.property(many, ({ notes, ops }) => {
        const table = new TermTable();
        const segment = new Segment(table);
        const model = new Map<string, readonly string[]>();
        const put = (note: number, words: readonly string[]) => {
          const chunks: ChunkTerms[] = [{ heading: "", start: 0, end: 1, length: words.length, terms: words, freqs: words.map(() => 1) }];
          write(segment, `n${note}`, chunks);
          model.delete(`n${note}`);
          model.set(`n${note}`, words);
        };
        for (let n = 0; n < notes; n++) put(n, WORDS.filter((_, i) => i < 3 || (n + i) % 4 === 0));
        segment.freeze();
        const check = () => {
          segment.prepareSearch();
          const delta = segment.deltaScorer();
          for (const word of WORDS) {
            const plan = segment.plan(word, table.find(word));
            const expected = [...model].filter(([, words]) => words.includes(word)).map(([path]) => path);
            expect(plan?.df ?? 0).toBe(expected.length);
            // The living chunks the plan's ranges lead to: the notes that hold the word.
            const found: string[] = [];
            const skip = segment.skip;
            if (plan?.base) for (let p = plan.base[0]; p < plan.base[1]; p++) {
              const id = (segment.postings()[p] as number) >>> 8;
              if (!skip?.[id]) found.push(segment.pathOf(id));
            }
            if (plan?.delta && delta) for (let p = plan.delta[0]; p < plan.delta[1]; p++) found.push(delta.pathOf((delta.postings()[p] as number) >>> 8));
            expect(found.sort()).toEqual(expected.sort());
          }
          expect(segment.chunkCount).toBe(model.size);
        };
        for (const o of ops) {
          if (o.kind === "write") put(o.note, o.words);
          else if (o.kind === "remove") expect(segment.remove(`n${o.note}`)).toBe(model.delete(`n${o.note}`));
          else check();
        }
        check();
      }),
      { numRuns: 150 },
    );
  });

  it("is searched without a merge after a few edits, and merged by the search that finds many dead chunks", () => {
    const segment = new Segment(new TermTable());
    const chunk: ChunkTerms = { heading: "", start: 0, end: 1, length: 1, terms: ["a"], freqs: [1] };
    for (let n = 0; n < 200; n++) write(segment, `n${n}`, [chunk]);
    segment.freeze();
    write(segment, "n7", [chunk]);
    segment.remove("n8");
    segment.prepareSearch();
    expect(segment.frozen).toBe(false);
    for (let n = 10; n < 100; n++) segment.remove(`n${n}`);
    segment.prepareSearch();
    expect(segment.frozen).toBe(true);
  });
});

describe("TermTable", () => {
  it("numbers each distinct word once, in the order first seen, whatever text it is cut from", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ minLength: 1, maxLength: 8, unit: fc.constantFrom("a", "b", "é", "中", "1") }), { maxLength: 3000 }), (words) => {
        const table = new TermTable();
        const seen: string[] = [];
        for (const w of words) {
          const id = table.idOf(`..${w}..`, 2, 2 + w.length);
          if (!seen.includes(w)) seen.push(w);
          expect(id).toBe(seen.indexOf(w));
        }
        expect(table.size).toBe(seen.length);
        seen.forEach((w, i) => expect(table.term(i)).toBe(w));
        table.clear();
        expect(table.size).toBe(0);
      }),
      { numRuns: 50 },
    );
  });
});
