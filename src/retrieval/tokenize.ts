/**
 * Words for the text index: lower-cased, diacritics folded ("Café" and "cafe" meet), and scripts
 * written without spaces (Chinese, Japanese, Thai, Lao, Khmer, Myanmar) cut into words with
 * `Intl.Segmenter` — present in Node 20, Electron and the mobile WebViews, so no dictionary ships
 * with the plugin. The segmenter is slow, so only runs of those scripts go through it.
 */

/** Runs of letters and digits (with inner apostrophes and marks kept together). */
const WORD_RUN = /[\p{L}\p{N}\p{M}]+(?:['’][\p{L}\p{N}\p{M}]+)*/gu;
const NO_SPACE_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const MARKS = /\p{M}+/gu;
const MAX_TOKEN = 40;

let segmenter: Intl.Segmenter | null = null;
function wordSegmenter(): Intl.Segmenter {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: "word" });
  return segmenter;
}

/** Lower case without diacritics: NFKD, drop combining marks, recompose. */
export function foldText(text: string): string {
  return text.toLowerCase().normalize("NFKD").replace(MARKS, "").normalize("NFC");
}

/** The words of a text, in order, repeats kept (term frequency counts them). */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const match of text.toLowerCase().matchAll(WORD_RUN)) {
    const run = match[0];
    if (ASCII.test(run)) {
      push(out, run);
    } else if (NO_SPACE_SCRIPT.test(run)) {
      for (const part of wordSegmenter().segment(run)) {
        if (part.isWordLike) push(out, fold(part.segment));
      }
    } else {
      push(out, fold(run));
    }
  }
  return out;
}

const ASCII = /^[ -~]*$/;
const fold = (lower: string) => lower.normalize("NFKD").replace(MARKS, "").normalize("NFC");

function push(out: string[], word: string): void {
  const clean = word.includes("'") || word.includes("’") ? word.replace(/['’]/g, "") : word;
  if (clean.length > 0 && clean.length <= MAX_TOKEN) out.push(clean);
}
