import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { estimateTokens } from "../../src/core/tokens";
import { packContext } from "../../src/query/context";
import { hit } from "./fakes";

describe("packContext", () => {
  it("never exceeds the budget, keeps wiki passages before note passages, and counts what it left out", () => {
    const text = fc.string({ minLength: 1, maxLength: 800 });
    fc.assert(
      fc.property(fc.array(text, { maxLength: 12 }), fc.array(text, { maxLength: 12 }), fc.integer({ min: 0, max: 2000 }), (wiki, notes, budget) => {
        const packed = packContext(
          wiki.map((t, i) => hit(`wiki/p${i}.md`, t)),
          notes.map((t, i) => hit(`notes/n${i}.md`, t)),
          budget,
          [],
        );
        expect(estimateTokens(packed.text)).toBeLessThanOrEqual(budget);
        const kinds = packed.passages.map((p) => p.kind);
        expect(kinds.indexOf("note") === -1 || kinds.lastIndexOf("wiki") < kinds.indexOf("note")).toBe(true);
        expect(packed.passages.map((p) => p.ref)).toEqual(packed.passages.map((_p, i) => i + 1));
        expect(packed.passages.length + packed.leftOut).toBe(wiki.length + notes.length);
      }),
    );
  });

  it("estimates scripts without spaces as denser than prose", () => {
    expect(estimateTokens("日本語の文章です。".repeat(10))).toBeGreaterThan(estimateTokens("abcdefghi".repeat(10)));
  });
});
