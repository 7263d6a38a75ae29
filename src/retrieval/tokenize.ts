/**
 * Words for the text index: lower-cased, diacritics folded ("Café" and "cafe" meet; see `fold` for
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
/** A base character and the combining marks after it (none before the first base). */
const MARKED = /([^\p{M}]?)(\p{M}+)/gu;
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
    push(words, fold(run));
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
 * Drops diacritics, keeps letters: NFKD, then the combining marks of a Latin, Greek, Cyrillic,
 * Arabic or Hebrew letter (or of no letter) are dropped, and the text recomposed. Elsewhere a mark
 * is a letter in its own right and stays: Japanese voicing (ガラス "glass" is not カラス "crow"; NFC
 * puts the mark back on its kana, and folds half-width kana to full width), the vowel signs and
 * viramas of Thai, Khmer, Myanmar and the Indic scripts (ดี is not ดู, কাল is not কল).
 */
function fold(lower: string): string {
  const decomposed = lower.normalize("NFKD");
  if (!ANY_MARK.test(decomposed)) return decomposed.normalize("NFC");
  return decomposed.replace(MARKED, (all: string, base: string) => (base === "" || FOLDED_BASE.test(base) ? base : all)).normalize("NFC");
}

function push(words: string[], word: string): void {
  const clean = word.includes("'") || word.includes("’") ? word.replace(/['’]/g, "") : word;
  if (clean.length > 0 && clean.length <= MAX_TOKEN) words.push(clean);
}
