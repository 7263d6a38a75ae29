/** index.md's links read a few lines at a time are the links linksOutsideCode reads in one piece. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runPieces } from "../../src/core/time-slice";
import { indexLinkPieces } from "../../src/lint/index-links";
import { linksOutsideCode } from "../../src/lint/snapshot";

const fragment = fc.constantFrom(
  "- [[wiki/entities/Ada|Ada]]", "[[Tea]]", "![[image.png]]", "\\[[escaped]]", "`[[in code]]`", "``", "`", "```", "~~~", "    [[indented]]",
  "\t[[tab]]", "> [[quoted]]", "[[a#b]]", "[[|alias]]", "[[x", "]]", "[[[y]]", "\\]", "\\|", "\\", "[[a\\]]", "[[b|c\\|d]]", "text", " ", "\n", "\n", "\n\n", "\r\n", "- ", "1. ",
);

describe("indexLinkPieces", () => {
  it("finds the links linksOutsideCode finds, in the same order, however few lines a piece takes", () => {
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 40 }).map((parts) => parts.join("")), fc.integer({ min: 1, max: 4 }), (text, lines) => {
        expect(runPieces(indexLinkPieces(text, lines))).toEqual(linksOutsideCode(text));
      }),
      { numRuns: 3000 },
    );
  });

  it("reads an index of many entries in many pieces", () => {
    const index = ["# Wiki index", "", ...Array.from({ length: 1000 }, (_v, i) => `- [[wiki/concepts/Topic ${i}|Topic ${i}]]`)].join("\n");
    let pieces = 0;
    const reading = indexLinkPieces(index);
    let next = reading.next();
    while (!next.done) {
      pieces += 1;
      next = reading.next();
    }
    expect(next.value).toEqual(linksOutsideCode(index));
    expect(next.value).toHaveLength(1000);
    expect(pieces).toBeGreaterThan(4);
  });
});
