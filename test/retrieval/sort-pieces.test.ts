/**
 * Strings sorted in pieces (a segment's merge sorts its new terms so, on Obsidian's main thread)
 * come out as `sort()` orders them: by UTF-16 code units, astral characters and all.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sortStringsPieces } from "../../src/retrieval/sort-pieces";
import { runPieces } from "../../src/core/time-slice";

const piecesOf = (items: readonly string[], run: number, step: number) => {
  const pieces = sortStringsPieces(items, run, step);
  let yields = 0;
  for (;;) {
    const next = pieces.next();
    if (next.done) return { sorted: next.value, yields };
    yields += 1;
  }
};

describe("strings sorted in pieces", () => {
  it("come out in the order of sort(), whatever the runs and steps", () => {
    const text = fc.string({ unit: fc.constantFrom("a", "b", "é", "中", "\uffff", "😀", "\ud800", "") , maxLength: 4 });
    fc.assert(
      fc.property(fc.array(text, { maxLength: 60 }), fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 9 }), (items, run, step) => {
        expect(piecesOf(items, run, step).sorted).toEqual([...items].sort());
      }),
      { numRuns: 500 },
    );
  });

  it("yields between runs and inside merges of many strings, and sorts none in place", () => {
    const items = Array.from({ length: 20_000 }, (_, i) => `t${(i * 7919) % 20_000}`);
    const copy = [...items];
    const { sorted, yields } = piecesOf(items, 4096, 16_384);
    expect(sorted).toEqual([...items].sort());
    expect(yields).toBeGreaterThanOrEqual(5);
    expect(items).toEqual(copy);
    expect(runPieces(sortStringsPieces([]))).toEqual([]);
  });
});
