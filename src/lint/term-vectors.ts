/**
 * Pages as weighted word vectors, for the duplicate check: a page's words (the index's own
 * tokenizer, so every language the index reads is read here too) weighted by how often the page
 * uses them and how rare they are in the wiki, scaled to length 1, so the cosine of two pages is
 * the dot product of their vectors.
 *
 * Raw word counts were tried first and measured on the Obsidian Help vault (173 English pages):
 * common words dominate them, 1.8% of all pairs of unrelated help pages scored above 0.7 ("Community
 * code of conduct" against "Sync security and privacy"), so a whole-wiki check drowned the real
 * duplicates. Damping repeats (1 + ln count) and weighting rare words (smoothed inverse document
 * frequency) leaves every pair of those pages below 0.6 while two pages about one subject in other
 * words still score above 0.7 (test/lint/near-duplicates.test.ts holds both).
 */
import { tokenize } from "../retrieval/tokenize";
import type { PageRecord } from "./snapshot";

/** A page's words as sorted term ids (rarest first) and their weights, of length 1. */
export interface TermVector {
  readonly ids: Int32Array;
  readonly weights: Float64Array;
}

/** The text compared: title and body, without Obsidian comments (`%%…%%`). */
export function comparedText(page: Pick<PageRecord, "title" | "body">): string {
  return `${page.title} ${page.body.replace(/%%[\s\S]*?%%/g, " ")}`;
}

export function termCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of tokenize(text)) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}

/**
 * The vectors of a set of texts (given as their term counts), weighted against each other: a
 * word's rarity is counted among them. Term ids run from the rarest word to the commonest, which
 * the prefix filter relies on. `pause` runs before each vector (time slices, cancellation).
 */
export async function termVectors(counts: readonly ReadonlyMap<string, number>[], pause: () => Promise<void> = () => Promise.resolve()): Promise<{ vectors: TermVector[]; terms: number }> {
  const df = new Map<string, number>();
  for (const c of counts) {
    for (const term of c.keys()) df.set(term, (df.get(term) ?? 0) + 1);
  }
  const order = [...df.keys()].sort((a, b) => (df.get(a) ?? 0) - (df.get(b) ?? 0) || (a < b ? -1 : a > b ? 1 : 0));
  const idOf = new Map(order.map((term, id) => [term, id]));
  const n = counts.length;
  const vectors: TermVector[] = [];
  for (const c of counts) {
    await pause();
    const entries = [...c].map(([term, count]): [number, number] => {
      const idf = 1 + Math.log((n + 1) / ((df.get(term) ?? 0) + 1));
      return [idOf.get(term) ?? 0, (1 + Math.log(count)) * idf];
    });
    entries.sort((a, b) => a[0] - b[0]);
    const norm = Math.sqrt(entries.reduce((sum, [, w]) => sum + w * w, 0));
    vectors.push({
      ids: Int32Array.from(entries, ([id]) => id),
      weights: Float64Array.from(entries, ([, w]) => (norm === 0 ? 0 : w / norm)),
    });
  }
  return { vectors, terms: order.length };
}

/** The cosine of two vectors: their dot product, summed in term order (the same sum every time). */
export function cosine(a: TermVector, b: TermVector): number {
  let i = 0;
  let j = 0;
  let dot = 0;
  while (i < a.ids.length && j < b.ids.length) {
    const x = a.ids[i] ?? 0;
    const y = b.ids[j] ?? 0;
    if (x === y) dot += (a.weights[i++] ?? 0) * (b.weights[j++] ?? 0);
    else if (x < y) i++;
    else j++;
  }
  return dot;
}
