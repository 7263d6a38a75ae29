/**
 * The tokenizer's ASCII fast path gives exactly the words of the full rule (letters, digits and
 * marks of any script, inner apostrophes, segmenter for scripts without spaces), which is kept
 * here as the reference it replaced.
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { forEachToken, MAX_TOKEN, tokenize } from "../../src/core/tokenize";
import { CORPUS, corpusNotes } from "../helpers/corpus";
import { fixtureLanguages, fixtureNotes } from "../helpers/fixture-notes";
import { itWithCorpus } from "../helpers/with-corpus";

const WORD_RUN = /[\p{L}\p{N}\p{M}]+(?:['’][\p{L}\p{N}\p{M}]+)*/gu;
const NO_SPACE_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
/** Scripts whose marks are diacritics (and marks of no letter: after a digit, or first). */
const FOLDED = /^[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Common}]$/u;
const IS_MARK = /^\p{M}$/u;
/** Code point by code point: a mark is dropped when the last non-mark before it is of a folded script, or there is none. */
function fold(lower: string): string {
  let out = "";
  let keepMarks = false;
  for (const c of lower.normalize("NFKD")) {
    if (!IS_MARK.test(c)) keepMarks = !FOLDED.test(c);
    if (!IS_MARK.test(c) || keepMarks) out += c;
  }
  return out.normalize("NFC");
}
const segmenter = new Intl.Segmenter(undefined, { granularity: "word" });

function reference(text: string): string[] {
  const out: string[] = [];
  const push = (word: string) => {
    const clean = word.replace(/['’]/g, "");
    if (clean.length > 0 && clean.length <= MAX_TOKEN) out.push(clean);
  };
  for (const [run] of text.toLowerCase().matchAll(WORD_RUN)) {
    if (/^[ -~]*$/.test(run)) push(run);
    else if (NO_SPACE_SCRIPT.test(run)) {
      for (const part of segmenter.segment(run)) if (part.isWordLike) push(fold(part.segment));
    } else push(fold(run));
  }
  return out;
}

/** Pieces that sit on the fast path's edges: ASCII next to accents, marks, apostrophes, CJK, dashes. */
const piece = fc.constantFrom(
  "a", "Z", "q", "0", "9", " ", "\n", "-", "_", ".", "'", "’", "é", "E\u0301", "\u0301", "ß", "İ", "K", "—", "🙂",
  "中文", "日本語", "ไทย", "ガラス", "ｶﾞﾗｽ", "\u3099", "ดี", "किताब", "কাল", "क़", "1\u20e3", "ά", "Привет", "مرحبا", "don't", "l’été", "x".repeat(41), "y".repeat(40), "#", "[[", "]]", "\t",
);

describe("tokenize", () => {
  it("gives the words of the full rule, whatever the text", () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }).map((p) => p.join("")), (text) => {
        expect(tokenize(text)).toEqual(reference(text));
      }),
      { numRuns: 2000 },
    );
  });

  it("gives the words of the full rule on arbitrary Unicode", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 60 }), (text) => {
        expect(tokenize(text)).toEqual(reference(text));
      }),
      { numRuns: 1000 },
    );
  });

  it("gives the words of the full rule on the fixture notes, in every script", () => {
    const notes = fixtureLanguages().flatMap((language) => fixtureNotes(language));
    for (const note of notes) expect(tokenize(note.text), note.path).toEqual(reference(note.text));
  });

  itWithCorpus("gives the words of the full rule on the corpus, in every language", () => {
    const languages = readdirSync(CORPUS).filter((name) => statSync(join(CORPUS, name)).isDirectory());
    const notes = languages.flatMap((language) => corpusNotes(language, 12));
    expect(notes.length).toBeGreaterThan(200);
    for (const note of notes) expect(tokenize(note.text), note.path).toEqual(reference(note.text));
  });

  it("cuts many runs of scripts without spaces, long and short, as the segmenter cuts each alone", () => {
    // Runs are cut together a few hundred characters at a time: texts well past that, with runs
    // that start with a mark, repeat (short ones are remembered) or sit next to other scripts.
    const run = fc.constantFrom(
      "日本語のテキストを単語に分けます", "中文没有空格所以需要分词器来切分词语", "ภาษาไทยไม่มีช่องว่างระหว่างคำ", "\u0e31\u0e48ไทย",
      "ភាសាខ្មែរ", "ລາວ", "မြန်မာ", "東京", "カタカナ", "ひらがな", "中", "漢字かな交じり文",
    );
    const gap = fc.constantFrom(" ", "\n", "、", "。", " abc ", "-", "'", "’", "é", "\u0301", ", ", "[[", "1");
    fc.assert(
      fc.property(fc.array(fc.tuple(run, gap), { minLength: 1, maxLength: 120 }), (parts) => {
        const text = parts.map(([r, g]) => r + g).join("");
        expect(tokenize(text)).toEqual(reference(text));
      }),
      { numRuns: 300 },
    );
  });

  itWithCorpus("gives the words of the full rule on whole notes in Japanese, Chinese, Thai and Khmer", () => {
    const notes = ["ja", "zh", "zh-TW", "th", "km"].flatMap((language) => corpusNotes(language, 60));
    expect(notes.length).toBeGreaterThan(200);
    for (const note of notes) expect(tokenize(note.text), note.path).toEqual(reference(note.text));
  });

  it("hands each word as a range of its source", () => {
    const seen: string[] = [];
    forEachToken("Café au LAIT, don't", (source, start, end) => seen.push(source.slice(start, end)));
    expect(seen).toEqual(["cafe", "au", "lait", "dont"]);
  });
});
