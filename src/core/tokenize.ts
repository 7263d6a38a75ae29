/**
 * Words for the search index and lint's similar pages: lower-cased, diacritics folded ("Café" and "cafe" meet; see `fold` for
 * which marks are diacritics and which are letters), and scripts
 * written without spaces (Chinese, Japanese, Thai, Lao, Khmer, Myanmar) cut into words with
 * `Intl.Segmenter` — present in Node 20, Electron and the mobile WebViews, so no dictionary ships
 * with the plugin. The segmenter is slow, so only runs of those scripts go through it, and each
 * call costs about as much again as the words it cuts: the runs ahead in the text are cut together,
 * a few hundred characters per call, one per line (a line break is a hard word boundary, so every
 * run is cut as it would be alone).
 *
 * Building an index tokenises every note of the vault, so plain ASCII words (most words of most
 * vaults) are cut by a scan of character codes and handed on as a range of the lower-cased text,
 * without a regular expression or a string per word. A word that meets anything else — a letter
 * beyond ASCII, a combining mark, an apostrophe — is read by the full rule below from its start, so
 * both paths give the same words (a property test holds them to it).
 */

import { detach } from "./detach";

/** Runs of letters and digits (with inner apostrophes and marks kept together). */
const WORD_RUN = /[\p{L}\p{N}\p{M}]+(?:['’][\p{L}\p{N}\p{M}]+)*/gu;
const NO_SPACE_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const ANY_MARK = /\p{M}/u;
/**
 * Scripts whose combining marks are optional diacritics — accents (Latin, Greek, Cyrillic), vowel
 * points (Arabic, Hebrew) — that a reader leaves out when typing a query. Marks after digits or
 * with no base at all carry no letter either.
 */
const FOLDED_BASE = /[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Common}]/u;
const ASCII = /^[ -~]*$/;
export const MAX_TOKEN = 40;
const APOSTROPHE = 39;

let segmenter: Intl.Segmenter | null = null;
function wordSegmenter(): Intl.Segmenter {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: "word" });
  return segmenter;
}

/** Lower case without diacritics, as the index and queries see words (see `fold`). */
export function foldText(text: string): string {
  return fold(text.toLowerCase());
}

/** Receives one word: `source.slice(start, end)`, already lower-cased and folded. */
export type TokenSink = (source: string, start: number, end: number) => void;

/** The words of a text, in order, repeats kept (term frequency counts them). */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  forEachToken(text, (source, start, end) => out.push(source.slice(start, end)));
  return out;
}

/** Hands each word of a text to `emit`, in order, repeats kept, as `tokenize` would return them. */
export function forEachToken(text: string, emit: TokenSink): void {
  const lower = text.toLowerCase();
  const n = lower.length;
  let i = 0;
  while (i < n) {
    const c = lower.charCodeAt(i);
    if (isAsciiWordChar(c)) {
      const start = i;
      do i += 1;
      while (i < n && isAsciiWordChar(lower.charCodeAt(i)));
      const next = i < n ? lower.charCodeAt(i) : 0;
      if (next < 128 && next !== APOSTROPHE) {
        if (i - start <= MAX_TOKEN) emit(lower, start, i);
      } else {
        i = fullRule(lower, start, emit);
      }
    } else if (c < 128) {
      i += 1;
    } else {
      i = fullRule(lower, i, emit);
    }
  }
}

/** a–z and 0–9 (the text is lower-cased already): the ASCII letters and digits of `WORD_RUN`. */
function isAsciiWordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
}

/** Reads the next word run at or after `from` by the full rule; returns where scanning resumes. */
function fullRule(lower: string, from: number, emit: TokenSink): number {
  WORD_RUN.lastIndex = from;
  const match = WORD_RUN.exec(lower);
  if (!match) return lower.length;
  const run = match[0];
  for (const word of wordsOfRun(run, lower, match.index)) emit(word, 0, word.length);
  return match.index + run.length;
}

/**
 * Short runs recur (a language's common words), and normalising them twice per occurrence was most
 * of the tokenizer's time on notes in languages with accents: their words are remembered, up to a
 * bound, and the memory cleared when it fills. Long runs (a sentence of Chinese) rarely recur.
 */
const CACHED_RUN = 24;
const CACHE_LIMIT = 50_000;
const runWords = new Map<string, readonly string[]>();

/** The words of the run `lower.slice(at, at + run.length)`. */
function wordsOfRun(run: string, lower: string, at: number): readonly string[] {
  const cacheable = run.length <= CACHED_RUN;
  const known = cacheable ? runWords.get(run) : undefined;
  if (known) return known;
  let words: string[] = [];
  if (ASCII.test(run)) {
    push(words, run);
  } else if (NO_SPACE_SCRIPT.test(run)) {
    words = segmentedRun(lower, at, run.length);
  } else {
    push(words, foldUncached(run)); // the run's words are remembered below
  }
  if (cacheable) {
    if (runWords.size >= CACHE_LIMIT) runWords.clear();
    // Detached, or a remembered word would keep the whole text it was cut from in memory.
    runWords.set(detach(run), words.map(detach));
  }
  return words;
}

/** Characters of runs cut by one segmenter call. */
const SEGMENT_BATCH = 500;
/** The runs cut ahead, by where they start in `aheadText`: their length and words. */
let aheadText: string | null = null;
const ahead = new Map<number, { readonly length: number; readonly words: string[] }>();

/** The words of a run of a script without spaces: cut earlier with the runs before it, or now with those after it. */
function segmentedRun(lower: string, at: number, length: number): string[] {
  let cut = aheadText === lower ? ahead.get(at) : undefined;
  if (cut?.length !== length) {
    segmentAhead(lower, at);
    cut = ahead.get(at);
  }
  ahead.delete(at);
  return cut?.words ?? [];
}

/**
 * Cuts the runs of scripts without spaces from `at` on (as the scan will meet them: the matches of
 * WORD_RUN), up to SEGMENT_BATCH characters, in one call, a line per run.
 */
function segmentAhead(lower: string, at: number): void {
  aheadText = lower;
  ahead.clear();
  const starts: number[] = [];
  const runs: string[] = [];
  let chars = 0;
  WORD_RUN.lastIndex = at;
  for (let match = WORD_RUN.exec(lower); match && chars < SEGMENT_BATCH; match = WORD_RUN.exec(lower)) {
    const run = match[0];
    if (!NO_SPACE_SCRIPT.test(run) || (run.length <= CACHED_RUN && runWords.has(run))) continue;
    starts.push(match.index);
    runs.push(run);
    chars += run.length + 1;
  }
  // Each run's words, found by where they lie in the joined text (a word never spans a line break).
  let k = 0;
  let runStart = 0;
  let words: string[] = [];
  const close = () => ahead.set(starts[k] as number, { length: (runs[k] as string).length, words });
  for (const part of wordSegmenter().segment(runs.join("\n"))) {
    while (part.index >= runStart + (runs[k] as string).length + 1) {
      close();
      runStart += (runs[k] as string).length + 1;
      k += 1;
      words = [];
    }
    if (part.isWordLike) push(words, fold(part.segment));
  }
  for (; k < runs.length; k++) {
    close();
    words = [];
  }
}

/**
 * Folded words remembered, as `runWords` remembers runs: the segmenter's words (Japanese, Chinese,
 * Thai) and the words of queries and snippets recur, and folding one costs two normalisations.
 */
const foldedWords = new Map<string, string>();

/**
 * Drops diacritics, keeps letters: NFKD, then the combining marks of a Latin, Greek, Cyrillic,
 * Arabic or Hebrew letter (or of no letter) are dropped, and the text recomposed. Elsewhere a mark
 * is a letter in its own right and stays: Japanese voicing (ガラス "glass" is not カラス "crow"; NFC
 * puts the mark back on its kana, and folds half-width kana to full width), the vowel signs and
 * viramas of Thai, Khmer, Myanmar and the Indic scripts (ดี is not ดู, কাল is not কল).
 * Plain ASCII is its own fold (neither normal form changes it, and it has no marks).
 */
function fold(lower: string): string {
  if (isAscii(lower)) return lower;
  if (lower.length > CACHED_RUN) return foldUncached(lower);
  const known = foldedWords.get(lower);
  if (known !== undefined) return known;
  const folded = foldUncached(lower);
  if (foldedWords.size >= CACHE_LIMIT) foldedWords.clear();
  // Detached: a segmenter's word is a slice of the text it was cut from.
  foldedWords.set(detach(lower), detach(folded));
  return folded;
}

function foldUncached(lower: string): string {
  const decomposed = lower.normalize("NFKD");
  if (!ANY_MARK.test(decomposed)) return decomposed.normalize("NFC");
  return withoutDiacritics(decomposed).normalize("NFC");
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= 128) return false;
  return true;
}

/**
 * `decomposed` without each run of combining marks that follows a letter of FOLDED_BASE or begins
 * the text; the other runs stay with their letter. A scan of code points classed by a table, not a
 * regular expression per mark: this runs for every word with an accent, kana voicing or vowel sign.
 */
function withoutDiacritics(decomposed: string): string {
  const n = decomposed.length;
  let out = "";
  let copiedTo = 0;
  let baseFolds = true; // marks before any letter carry none
  let i = 0;
  while (i < n) {
    const code = decomposed.codePointAt(i) as number;
    const kind = kindOf(code);
    if ((kind & MARK) === 0) {
      baseFolds = (kind & FOLDS) !== 0;
      i += code > 0xffff ? 2 : 1;
      continue;
    }
    let end = i + (code > 0xffff ? 2 : 1);
    while (end < n) {
      const next = decomposed.codePointAt(end) as number;
      if ((kindOf(next) & MARK) === 0) break;
      end += next > 0xffff ? 2 : 1;
    }
    if (baseFolds) {
      out += decomposed.slice(copiedTo, i);
      copiedTo = end;
    }
    i = end;
  }
  return copiedTo === 0 ? decomposed : out + decomposed.slice(copiedTo);
}

/** Bits of a code point's kind: a combining mark; a letter (or Common character) whose marks fold. */
const MARK = 1;
const FOLDS = 2;
/** Kinds by code point, 256 to a block, each block classed by the Unicode regular expressions the first time one of its code points is met. */
const kindBlocks: (Uint8Array | undefined)[] = [];

function kindOf(code: number): number {
  const block = kindBlocks[code >> 8] ?? classBlock(code >> 8);
  return block[code & 0xff] as number;
}

function classBlock(block: number): Uint8Array {
  const kinds = new Uint8Array(256);
  for (let k = 0; k < 256; k++) {
    const char = String.fromCodePoint(block * 256 + k);
    kinds[k] = (ANY_MARK.test(char) ? MARK : 0) | (FOLDED_BASE.test(char) ? FOLDS : 0);
  }
  kindBlocks[block] = kinds;
  return kinds;
}

function push(words: string[], word: string): void {
  const clean = word.includes("'") || word.includes("’") ? word.replace(/['’]/g, "") : word;
  if (clean.length > 0 && clean.length <= MAX_TOKEN) words.push(clean);
}
