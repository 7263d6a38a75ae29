/**
 * How alike two page titles are, for the duplicate check (find-existing.ts): 1 when they differ
 * only in accents, case, plurals, punctuation, a leading "The" or spacing, else the Dice overlap of
 * the character bigrams of their loose forms. Every new page of an ingest meets every page of the
 * wiki, so what a title needs is computed once per title (`shapeOf`) and a pair costs a few
 * comparisons and one merge of two sorted arrays.
 */
import { boundedMemo } from "../../core/bounded-memo";
import { titleKey } from "../page-identity";

/** Accents, case, punctuation and a leading "The" do not make a different subject. */
function plainWords(title: string): string[] {
  return titleKey(title)
    .replace(/[\s_\-–—.,:;!?'"’“”()[\]{}/\\|*]+/gu, " ")
    .trim()
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .replace(/^(?:the )+(?=\S)/u, "")
    .split(" ");
}

/** Nor does a plural ending. */
export function looseTitle(title: string): string {
  return plainWords(title)
    .map((w) => (w.length > 3 ? w.replace(/(?:es|s)$/u, "") : w))
    .join(" ");
}

function looseForms(title: string): readonly string[] {
  const words = plainWords(title);
  const joined = (strip: RegExp) => words.map((w) => (w.length > 3 ? w.replace(strip, "") : w)).join("");
  return [joined(/s$/u), joined(/(?:es|s)$/u)];
}

/**
 * Same once accents, case, plurals, punctuation, "The" and spacing are set aside ("Smart phone",
 * "Smartphones"). A plural is tried as "-s" and as "-es" ("Cultures" is "Culture", "Buses" "Bus").
 */
export function looselySame(a: string, b: string): boolean {
  return sameForms(shapeOf(a), shapeOf(b));
}

/** What the comparison needs of one title. */
interface TitleShape {
  readonly forms: readonly string[];
  readonly loose: string;
  /** The loose title's bigrams (two UTF-16 code units each, as one number), sorted: a multiset. */
  readonly grams: Float64Array;
}

function shape(title: string): TitleShape {
  const loose = looseTitle(title);
  const grams = new Float64Array(Math.max(loose.length - 1, 0));
  for (let i = 0; i < grams.length; i++) grams[i] = loose.charCodeAt(i) * 65536 + loose.charCodeAt(i + 1);
  return { forms: looseForms(title), loose, grams: grams.sort() };
}

/** Loops, not `some`/`includes` with a callback: this runs for every pair of titles compared. */
function sameForms(a: TitleShape, b: TitleShape): boolean {
  for (const f of b.forms) for (const g of a.forms) if (f === g) return true;
  return false;
}

/** 2·shared / (bigrams of a + bigrams of b), the shared bigrams counted with their multiplicity. */
function dice(a: TitleShape, b: TitleShape): number {
  if (a.loose === b.loose) return 1;
  const x = a.grams;
  const y = b.grams;
  let shared = 0;
  for (let i = 0, j = 0; i < x.length && j < y.length; ) {
    const gx = x[i] as number;
    const gy = y[j] as number;
    if (gx === gy) {
      shared += 1;
      i += 1;
      j += 1;
    } else if (gx < gy) i += 1;
    else j += 1;
  }
  const total = a.loose.length - 1 + (b.loose.length - 1);
  return total > 0 ? (2 * shared) / total : 0;
}

export function titleSimilarity(a: string, b: string): number {
  const x = shapeOf(a);
  const y = shapeOf(b);
  return sameForms(x, y) ? 1 : dice(x, y);
}

/**
 * False only when the titles' similarity is certainly below `threshold`, without the bigrams
 * compared: at most every bigram of the shorter title is shared.
 */
export function titleMayReach(a: string, b: string, threshold: number): boolean {
  const x = shapeOf(a);
  const y = shapeOf(b);
  if (x.loose === y.loose || sameForms(x, y)) return true;
  const total = x.loose.length - 1 + (y.loose.length - 1);
  return total > 0 && (2 * Math.min(x.grams.length, y.grams.length)) / total >= threshold;
}

/**
 * Every new page of an ingest is compared with every candidate, and the candidates' titles are the
 * same from one ingest to the next: what a title needs is remembered.
 */
export const TITLE_CACHE_LIMIT = 50_000;
const shapeOf = boundedMemo(shape, TITLE_CACHE_LIMIT);
