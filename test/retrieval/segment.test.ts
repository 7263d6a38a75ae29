/**
 * A segment merged after any interleaving of writes, removals and merges holds exactly the
 * inverted index of its living notes: sorted terms, each with the postings of the chunks that hold
 * it, in chunk order, frequencies capped at 255 — the same as a segment built at once.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Segment, type ChunkTerms } from "../../src/retrieval/segment";
import { TermTable } from "../../src/retrieval/term-table";

const WORDS = ["a", "b", "ab", "ba", "é", "e", "z", "中", "中文", "zz"];
const PATHS = ["p", "q", "r", "s", "t"];

const chunk = fc
  .uniqueArray(fc.constantFrom(...WORDS), { maxLength: 6 })
  .chain((terms) => fc.record({ terms: fc.constant(terms), freqs: fc.array(fc.integer({ min: 1, max: 300 }), { minLength: terms.length, maxLength: terms.length }), heading: fc.constantFrom("", "H") }))
  .map(({ terms, freqs, heading }): ChunkTerms => ({ heading, start: 0, end: 1, length: freqs.reduce((n, f) => n + f, 0), terms, freqs }));

const op = fc.oneof(
  fc.record({ kind: fc.constant("write" as const), path: fc.constantFrom(...PATHS), chunks: fc.array(chunk, { maxLength: 3 }) }),
  fc.record({ kind: fc.constant("remove" as const), path: fc.constantFrom(...PATHS) }),
  fc.record({ kind: fc.constant("merge" as const) }),
);

function write(segment: Segment, path: string, chunks: readonly ChunkTerms[]): void {
  segment.write(path, (writer) => {
    for (const c of chunks) {
      writer.chunk(c.heading, c.start, c.end, c.length);
      c.terms.forEach((t, i) => writer.term(`<${t}>`, 1, t.length + 1, c.freqs[i] ?? 1));
    }
  });
}

describe("Segment", () => {
  it("holds the inverted index of its living notes after any sequence of writes, removals and merges", () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 30 }), (ops) => {
        const table = new TermTable();
        const segment = new Segment(table);
        const model = new Map<string, readonly ChunkTerms[]>();
        for (const o of ops) {
          if (o.kind === "write") {
            write(segment, o.path, o.chunks);
            model.delete(o.path);
            model.set(o.path, o.chunks);
          } else if (o.kind === "remove") {
            expect(segment.remove(o.path)).toBe(model.delete(o.path));
          } else {
            segment.freeze();
          }
        }
        const { notes, frozen } = segment.stored();
        expect(notes.map(([p]) => p).sort()).toEqual([...model.keys()].sort());
        // The expected index, from the model, in the stored order of the notes.
        const postings = new Map<string, number[]>();
        let id = 0;
        for (const [path, metas] of notes) {
          const chunks = model.get(path) ?? [];
          expect(metas.map((m) => m.length)).toEqual(chunks.map((c) => c.length));
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
    expect(notes[0]?.[1].map((m) => m.length)).toEqual([5, 1]);
    expect(frozen.terms.term(0)).toBe("a");
    expect([...frozen.postings.subarray(frozen.offsets[0], frozen.offsets[1])]).toEqual([0 * 256 + 4, 1 * 256 + 1]);
  });

  it("refuses a word outside a chunk", () => {
    const segment = new Segment(new TermTable());
    expect(() => segment.write("p", (writer) => writer.term("a", 0, 1, 1))).toThrow(/inside a chunk/);
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
