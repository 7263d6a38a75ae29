/**
 * The token estimate packs contexts for models whose tokenizers we do not ship. It must not fall
 * short of a real tokenizer's count in any language, or a packed context overflows the window (a
 * Japanese context estimated at 1,907 tokens was 4,481 to cl100k). The counts below are OpenAI's
 * cl100k_base (js-tiktoken, 2026-12-01) of the first 20 corpus notes of each language, joined by a
 * blank line; cl100k cuts non-English text finest of the tokenizers measured.
 */
import { describe, expect, it } from "vitest";
import { estimateTokens } from "../../src/core/tokens";
import { corpusNotes } from "../helpers/corpus";
import { itWithCorpus } from "../helpers/with-corpus";

const CL100K: Record<string, number> = {
  en: 28980, de: 38274, fr: 29423, es: 29245, pt: 33152, it: 45741, nl: 33077, sv: 31333, fi: 40932,
  pl: 43532, cs: 34229, hu: 61855, tr: 39963, vi: 38679, ru: 44702, uk: 56843, ar: 59401, fa: 67821,
  he: 70403, el: 95704, ja: 48217, zh: 34346, "zh-TW": 43414, ko: 44011, th: 70485, km: 116988, bn: 75972,
};

describe("estimateTokens against a real tokenizer's counts", () => {
  for (const [language, real] of Object.entries(CL100K)) {
    itWithCorpus(`${language}: at least 95 % of cl100k's count, and not twice it`, () => {
      const text = corpusNotes(language, 20).map((n) => n.text).join("\n\n");
      const estimate = estimateTokens(text);
      expect(estimate).toBeGreaterThanOrEqual(real * 0.95);
      expect(estimate).toBeLessThan(real * 2);
    });
  }

  it("weighs a character outside the Basic Multilingual Plane once", () => {
    expect(estimateTokens("𠮷".repeat(10))).toBe(estimateTokens("吉".repeat(10)));
  });

  it("counts code at three characters a token whatever its letters", () => {
    expect(estimateTokens("```\n" + "x".repeat(297) + "\n```")).toBe(102);
  });
});
