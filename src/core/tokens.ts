/**
 * A token estimate good enough to pack a context window without a tokenizer per model, erring on
 * the side of fitting. Each character weighs by its script, fitted on the corpus's notes of 34
 * languages against OpenAI's cl100k tokenizer (the finest-cutting of those measured; o200k and most
 * newer tokenizers cut non-English text coarser): the estimate is at or above cl100k's count for
 * the median note of every language but Finnish and Traditional Chinese (0.96–0.98 of it), and
 * within 11 % of it for 95 % of the notes of every language. Weights in
 * tokens per character:
 * - ASCII 0.3 (English measures about 0.23; markdown and links more);
 * - other Latin letters 2: rare in English, they stand for languages whose every word tokenizers cut
 *   finer (Czech, Hungarian, Vietnamese);
 * - Cyrillic 0.7; Arabic, Hebrew, Greek, Armenian, Georgian 1.2;
 * - Han, kana, Hangul, Thai 1.4 (a character is often two byte-level tokens);
 * - every other script (Indic, Khmer, …) 1.8;
 * - punctuation and symbols beyond ASCII 1, combining marks 0.3, code 1/3.
 */

/** In tenths of a token, so that sums stay exact. */
const TENTHS = { ascii: 3, symbol: 10, latin: 20, cyrillic: 7, alphabet: 12, dense: 14, other: 18 } as const;
const INHERITED = /\p{Script=Inherited}/u;
const COMMON = /\p{Script=Common}/u;
const LATIN = /\p{Script=Latin}/u;
const CYRILLIC = /\p{Script=Cyrillic}/u;
const ALPHABET = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Greek}\p{Script=Armenian}\p{Script=Georgian}]/u;
const DENSE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;
/** Fenced blocks (an unclosed fence runs to the end) and inline code spans. */
const CODE = /(^|\n)(```|~~~)[^\n]*(?:\n[\s\S]*?)??(?:\n\2[^\n]*(?=\n|$)|$)|`[^`\n]+`/g;

function weightOf(char: string): number {
  // Combining marks follow a letter already weighed.
  if (INHERITED.test(char)) return TENTHS.ascii;
  // Punctuation and symbols beyond ASCII (、。「」—…) are mostly a token each.
  if (COMMON.test(char)) return TENTHS.symbol;
  if (LATIN.test(char)) return TENTHS.latin;
  if (CYRILLIC.test(char)) return TENTHS.cyrillic;
  if (ALPHABET.test(char)) return TENTHS.alphabet;
  if (DENSE.test(char)) return TENTHS.dense;
  return TENTHS.other;
}

/** Weights of the Basic Multilingual Plane's characters, filled as met (0 = not yet weighed). */
const bmpTenths = new Uint8Array(0x10000);

/** Tenths of tokens of prose. */
function proseTenths(text: string): number {
  let ascii = 0;
  let rest = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) {
      ascii++;
    } else if (code < 0xd800 || code > 0xdfff) {
      let weight = bmpTenths[code] ?? 0;
      if (weight === 0) weight = bmpTenths[code] = weightOf(text[i] ?? "");
      rest += weight;
    } else {
      // Outside the BMP (rare Han, emoji): weigh the pair once.
      const point = text.codePointAt(i) ?? code;
      if (point > 0xffff) i++;
      rest += weightOf(String.fromCodePoint(point));
    }
  }
  return ascii * TENTHS.ascii + rest;
}

export function estimateTokens(text: string): number {
  if (text.length === 0) return 0;
  let code = 0;
  const prose = text.replace(CODE, (block) => {
    code += block.length;
    return " ";
  });
  // Integers throughout: code / 3 + tenths / 10, over 30.
  return Math.ceil((code * 10 + proseTenths(prose) * 3) / 30);
}

/** The longest prefix of `text` (cut at a line or word end where one is near) within `tokens`. */
export function truncateToTokens(text: string, tokens: number): string {
  if (tokens <= 0) return "";
  if (estimateTokens(text) <= tokens) return text;
  let low = 0;
  let high = Math.min(text.length, tokens * 4 + 4);
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (estimateTokens(text.slice(0, mid)) <= tokens) low = mid;
    else high = mid - 1;
  }
  const cut = text.slice(0, low);
  const boundary = Math.max(cut.lastIndexOf("\n"), cut.lastIndexOf(" "));
  return boundary > low * 0.8 ? cut.slice(0, boundary) : cut;
}
