import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { adversarialText, growingBacktickRuns, runsOfEachPiece } from "../helpers/adversarial-texts";
import { SCANNERS } from "../helpers/text-scanners";

/**
 * Every scanner of note, page and model text finishes on texts made to hurt it. A quadratic scan
 * of 64 KB takes minutes here, so the test's time limit (generous, not a measurement) is the bound
 * for the regex-built steps; text-scan.test.ts counts the work of the single-pass scanners.
 */
const texts = [...runsOfEachPiece(64 * 1024), { name: "growing backtick runs", text: growingBacktickRuns(64 * 1024) }];

describe("every text scanner finishes on adversarial texts", () => {
  it.each(Object.entries(SCANNERS))("%s, on a 64 KB run of each piece", (_name, scan) => {
    for (const { text } of texts) scan(text);
    expect(true).toBe(true);
  }, 120_000);

  it("all of them, on interleaved runs of 64 KB to 1 MB (property)", () => {
    fc.assert(
      fc.property(adversarialText(64 * 1024, 1024 * 1024), (text) => {
        for (const scan of Object.values(SCANNERS)) scan(text);
      }),
      { numRuns: 2, seed: 22 },
    );
  }, 300_000);
});
