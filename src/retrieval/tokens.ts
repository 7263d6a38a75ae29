/**
 * A token estimate good enough to pack a context window without a tokenizer per model: about four
 * characters per token for prose, three for CJK scripts and code, which tokenizers cut finer.
 * Rounded up, so a packed context errs on the side of fitting.
 */

/** Han, Hiragana, Katakana, Hangul, Thai: scripts tokenizers split into short pieces. */
const DENSE_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;
const DENSE_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]+/gu;
/** Fenced blocks (an unclosed fence runs to the end) and inline code spans. */
const CODE = /(^|\n)(```|~~~)[^\n]*(?:\n[\s\S]*?)??(?:\n\2[^\n]*(?=\n|$)|$)|`[^`\n]+`/g;

function denseChars(text: string): number {
  if (!DENSE_CHAR.test(text)) return 0;
  let n = 0;
  for (const run of text.match(DENSE_RUN) ?? []) n += [...run].length;
  return n;
}

export function estimateTokens(text: string): number {
  if (text.length === 0) return 0;
  let code = 0;
  const prose = text.replace(CODE, (block) => {
    code += block.length;
    return " ";
  });
  const dense = denseChars(prose);
  const rest = prose.length - dense;
  return Math.ceil(code / 3 + dense / 3 + rest / 4);
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
