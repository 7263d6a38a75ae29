import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { headings, stripCode } from "../../src/core/markdown";

/** The regex headings were read with before the closing run was trimmed in one pass. */
const regexHeadings = (codeFree: string) =>
  [...codeFree.matchAll(/^(#{1,6})[ \t]+(.+?)[ \t#]*$/gm)].map((m) => ({ level: (m[1] ?? "#").length, text: (m[2] ?? "").trim() })).filter((h) => h.text);

describe("headings", () => {
  it("are what the regex read (property)", () => {
    const headingish = fc.stringMatching(/^(?:[# \ta\n\r]|\r\n|\u2028|#######)*$/, { maxLength: 40 });
    fc.assert(
      fc.property(headingish, (text) => {
        expect(headings(text)).toEqual(regexHeadings(stripCode(text)));
      }),
      { numRuns: 5000 },
    );
  });

  it("end at once on a heading that closes with a long run of spaced hashes", () => {
    expect(headings(`# x${" #".repeat(200_000)}y\n`)).toEqual([{ level: 1, text: `x${" #".repeat(200_000)}y` }]);
  });
});
