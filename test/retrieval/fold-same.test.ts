/**
 * The tokenizer's fold is fast (ASCII as it is, words remembered, marks classed by a table) but
 * folds exactly as the reference below, a normalisation and a regular expression per mark: the index
 * format depends on it (the same tokens, byte for byte the same shards).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { foldText, tokenize } from "../../src/core/tokenize";

const MARKED = /([^\p{M}]?)(\p{M}+)/gu;
const ANY_MARK = /\p{M}/u;
const FOLDED_BASE = /[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Common}]/u;

/** The fold as first written (format 3 and 4): the oracle. */
function referenceFold(lower: string): string {
  const decomposed = lower.normalize("NFKD");
  if (!ANY_MARK.test(decomposed)) return decomposed.normalize("NFC");
  return decomposed.replace(MARKED, (all: string, base: string) => (base === "" || FOLDED_BASE.test(base) ? base : all)).normalize("NFC");
}

/**
 * Characters where folds differ: Japanese voicing marks (combining, spacing, half-width) and kana,
 * Thai, Bengali, Devanagari, Khmer and Myanmar vowel signs and viramas, Vietnamese letters
 * precomposed and not, Arabic harakat, Hebrew points, Greek and Cyrillic accents, lone and stacked
 * combining marks, marks outside the BMP, ligatures and full-width forms, Hangul, digits, ASCII.
 */
const TRICKY = [
  ..."カガハバパかがはばぱゔｶﾞﾊﾟﾞﾟ\u3099\u309a\u309b\u309c",
  ..."ดตนหมีิุู่้ไกั็์",
  ..."কখলাুি্ৗো",
  ..."कखतािुृ्ंँक़",
  ..."ខមែ្ររ៉់",
  ..."မြန်ာ",
  ..."ệễặươđẠỹ",
  "e\u0302\u0301",
  "a\u0323\u0306",
  ..."مَرْحَبًاٌٍُِّ",
  ..."שָׁלוֹםּ",
  ..."άέΐϋёйЙ",
  "\u0301",
  "\u0301\u0301",
  "\u20dd",
  "\u{1d165}\u{1d16d}",
  "\u{11000}\u{11038}",
  "\u{1e000}",
  "𝐀",
  ..."ﬁﬀ①２Ａｂ㍿",
  ..."한국어ᄀ\u1161",
  ..."漢字豈",
  ..."0123456789",
  ..."aeiouAZ '’-.",
];

const trickyText = fc.array(fc.constantFrom(...TRICKY), { maxLength: 40 }).map((parts) => parts.join(""));
const anyText = fc.string({ unit: "binary", maxLength: 40 });

describe("the fast fold", () => {
  it("folds as the reference on words of the scripts where marks are letters or diacritics", () => {
    fc.assert(
      fc.property(trickyText, (text) => {
        const expected = referenceFold(text.toLowerCase());
        expect(foldText(text)).toBe(expected);
        expect(foldText(text)).toBe(expected); // remembered the second time
      }),
      { numRuns: 5000 },
    );
  });

  it("folds as the reference on arbitrary unicode, astral planes and lone surrogates included", () => {
    fc.assert(
      fc.property(fc.oneof(anyText, fc.string({ unit: "binary-ascii", maxLength: 40 }), fc.string({ unit: "grapheme", maxLength: 20 })), (text) => {
        expect(foldText(text)).toBe(referenceFold(text.toLowerCase()));
      }),
      { numRuns: 5000 },
    );
  });

  it("folds long texts (not remembered) as the reference", () => {
    fc.assert(
      fc.property(fc.array(trickyText, { minLength: 3, maxLength: 6 }), (parts) => {
        const text = parts.join(" ");
        expect(foldText(text)).toBe(referenceFold(text.toLowerCase()));
      }),
      { numRuns: 500 },
    );
  });

  it("cuts the same words a second time, from remembered folds", () => {
    fc.assert(
      fc.property(trickyText, (text) => {
        expect(tokenize(text)).toEqual(tokenize(text));
      }),
      { numRuns: 500 },
    );
  });
});
