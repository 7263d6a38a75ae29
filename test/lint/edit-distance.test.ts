/** The bounded edit distance against the textbook Levenshtein table, on names of a few letters. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { boundedEditDistance } from "../../src/lint/edit-distance";

function levenshtein(a: string, b: string): number {
  const table = Array.from({ length: a.length + 1 }, (_r, i) => Array.from({ length: b.length + 1 }, (_c, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const up = table[i - 1]?.[j] ?? 0;
      const left = table[i]?.[j - 1] ?? 0;
      const diagonal = table[i - 1]?.[j - 1] ?? 0;
      (table[i] as number[])[j] = Math.min(up + 1, left + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
  }
  return table[a.length]?.[b.length] ?? 0;
}

describe("boundedEditDistance", () => {
  it("gives the Levenshtein distance when it is at most max, and max + 1 otherwise", () => {
    const name = fc.array(fc.constantFrom("a", "b", "c", " ", "é", "1"), { maxLength: 12 }).map((letters) => letters.join(""));
    fc.assert(
      fc.property(name, name, fc.integer({ min: 0, max: 4 }), (a, b, max) => {
        const d = levenshtein(a, b);
        expect(boundedEditDistance(a, b, max)).toBe(d <= max ? d : max + 1);
      }),
      { numRuns: 5000 },
    );
  });

  it("reads mistyped names as a person would", () => {
    expect(boundedEditDistance("topic 50 typo", "topic 50", 2)).toBe(3);
    expect(boundedEditDistance("ada lovelace", "ada lovelce", 2)).toBe(1);
    expect(boundedEditDistance("kitten", "sitting", 3)).toBe(3);
    expect(boundedEditDistance("", "abc", 3)).toBe(3);
    expect(boundedEditDistance("same", "same", 1)).toBe(0);
  });
});
