import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { segmentPieces } from "../../src/wiki/ingest/retrieval-context";

const segmenter = new Intl.Segmenter(undefined, { granularity: "word" });
const wordsOf = (pieces: Iterable<string>) => [...pieces].flatMap((piece) => [...segmenter.segment(piece)].filter((s) => s.isWordLike).map((s) => s.segment));

describe("the pieces a long text is segmented in", () => {
  it("join back to the text and hold the same words as the whole (property)", () => {
    const word = fc.constantFrom("tea", "Zettelkasten", "café", "naïve", "東京", "l'été", "3.14", "e\u0301", "[[x]]", "—", "👍🏽");
    const text = fc.array(fc.tuple(word, fc.constantFrom(" ", "\n", ", ", "  ")), { minLength: 1000, maxLength: 4000 }).map((parts) => parts.map(([w, s]) => w + s).join(""));
    fc.assert(
      fc.property(text, (t) => {
        expect([...segmentPieces(t)].join("")).toBe(t);
        expect(wordsOf(segmentPieces(t))).toEqual(wordsOf([t]));
      }),
      { numRuns: 20 },
    );
  });

  it("cut a long run without spaces where each piece is full", () => {
    const pieces = [...segmentPieces("[".repeat(10_000))];
    expect(pieces.map((p) => p.length)).toEqual([4096, 4096, 1808]);
  });
});
