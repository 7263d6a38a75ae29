/**
 * Pages that say nearly the same thing under different names: every pair of pages whose word
 * vectors (see term-vectors.ts) have a cosine at or above a threshold — all of them, not a shortlist.
 *
 * Comparing every pair is n² (12.5 million pairs at 5,000 pages). The prefix filter (Bayardo,
 * Ma and Srikant, "Scaling up all pairs similarity search", 2007) compares only pairs that can
 * reach the threshold: order every page's words from rarest to commonest and cut off the longest
 * tail of common words that cannot reach the threshold t with any page on their own (see
 * `prefixLength`). If two pages share no word before their cuts, every word they share lies in
 * the tail of the page whose tail starts earlier, so their cosine is that tail's dot product with
 * the other page, below t. Only the words before the cut are indexed, and those are a page's rare
 * words, whose lists are short. test/lint/near-duplicates holds the pass to the naive comparison of
 * every pair.
 */
import { sliceCheckpoint, type PassOptions } from "./slices";
import { TermCounter, termVectors, type CountedText, type TermVector } from "./term-vectors";

export type { PassOptions } from "./slices";

/**
 * At or above this cosine two pages are duplicates. Chosen by test/lint/near-duplicates.test.ts:
 * pages about one subject in other words score 0.75 and more, pages that only share people and
 * terms below 0.45, and no two of the Obsidian Help vault's 173 English pages reach 0.6.
 */
export const DUPLICATE_SIMILARITY = 0.65;

export interface SimilarPair {
  /** Indexes of the two texts, a < b. */
  readonly a: number;
  readonly b: number;
  readonly score: number;
}


/** Keeps a little below the threshold, so a rounding error in the sums never hides a pair. */
const SAFETY = 1 - 1e-9;

/**
 * How many of a vector's words (from the rarest) are indexed: all but the longest tail that cannot
 * reach `threshold` with any page on its own. The tail's dot product with a page is at most its
 * length (the page has length 1), and at most the sum of its weights times each word's largest
 * weight in any page (`maxWeight`, by term); the smaller bound decides. Common words weigh little
 * in every page, so the second bound lets far more of them stay out of the index.
 */
export function prefixLength(vector: TermVector, threshold: number, maxWeight?: Float64Array): number {
  const squared = threshold * threshold * SAFETY;
  const linear = threshold * SAFETY;
  let tailSquared = 0;
  let tailLinear = 0;
  let k = vector.weights.length;
  while (k > 0) {
    const w = vector.weights[k - 1] ?? 0;
    const nextSquared = tailSquared + w * w;
    const nextLinear = maxWeight ? tailLinear + w * (maxWeight[vector.ids[k - 1] ?? 0] ?? 1) : Number.POSITIVE_INFINITY;
    if (nextSquared >= squared && nextLinear >= linear) break;
    tailSquared = nextSquared;
    tailLinear = nextLinear;
    k--;
  }
  return k;
}

/** tails[k]: the length of the vector's words from the k-th on (tails[ids.length] is 0). */
function tailLengths(vector: TermVector): Float64Array {
  const tails = new Float64Array(vector.ids.length + 1);
  let squared = 0;
  for (let k = vector.ids.length - 1; k >= 0; k--) {
    const w = vector.weights[k] ?? 0;
    squared += w * w;
    tails[k] = Math.sqrt(squared);
  }
  return tails;
}

/** The position of the first of the vector's words whose rank is at least `rank`. */
function firstFrom(ids: Int32Array, rank: number): number {
  let low = 0;
  let high = ids.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((ids[mid] ?? 0) < rank) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * Every pair of vectors with a cosine at or above `threshold` (0 < threshold ≤ 1), by the prefix
 * filter, with a bound that spares most candidates their dot product. Two vectors' words before
 * the earlier of their two cuts (`c`, a rank) are all indexed for both, so the postings that make
 * the pair a candidate also sum that part of their dot product. The rest lies in their words of
 * rank c and after, and by Cauchy–Schwarz is at most the product of the lengths of those two
 * tails. A candidate that shares a rare word or two and nothing else falls short by that bound
 * (about 200,000 candidates of 5,000 pages, 25 of them duplicates); only a pair the bound cannot
 * rule out gets its exact dot product, the number `cosine` gives.
 */
export async function similarVectors(vectors: readonly TermVector[], threshold: number, options: PassOptions = {}): Promise<SimilarPair[]> {
  if (!(threshold > 0 && threshold <= 1)) throw new RangeError(`The similarity threshold must be in (0, 1], not ${threshold}.`);
  const pause = sliceCheckpoint(options);
  const reach = threshold * SAFETY;
  const terms = vectors.reduce((max, v) => Math.max(max, (v.ids[v.ids.length - 1] ?? -1) + 1), 0);
  const maxWeight = new Float64Array(terms);
  for (const v of vectors) {
    await pause();
    for (let k = 0; k < v.ids.length; k++) {
      const id = v.ids[k] ?? 0;
      maxWeight[id] = Math.max(maxWeight[id] ?? 0, v.weights[k] ?? 0);
    }
  }
  // By term: the vectors seen so far with that term before their cut, and their weight for it.
  const postedVectors: (number[] | undefined)[] = [];
  const postedWeights: (number[] | undefined)[] = [];
  // By vector: where its cut is (the number of words indexed, and the rank of the first word after
  // it, or Infinity), and the lengths of its tails.
  const prefixes = new Int32Array(vectors.length);
  const cuts = new Float64Array(vectors.length);
  const tails: Float64Array[] = [];
  // The candidates of the vector being probed, and their dot products over the words both index.
  const seenBy = new Int32Array(vectors.length).fill(-1);
  const indexedDot = new Float64Array(vectors.length);
  const candidates: number[] = [];
  // The vector being probed, spread out by term: a candidate's dot product is then one pass over
  // the candidate's words. Its sum runs in term order and adds only zeros beside `cosine`'s
  // products, so it is the same number `cosine` gives.
  const spread = new Float64Array(terms);
  const out: SimilarPair[] = [];
  for (let i = 0; i < vectors.length; i++) {
    await pause();
    const vector = vectors[i];
    tails.push(vector ? tailLengths(vector) : new Float64Array(1));
    if (!vector || vector.ids.length === 0) continue;
    const prefix = prefixLength(vector, threshold, maxWeight);
    prefixes[i] = prefix;
    cuts[i] = prefix < vector.ids.length ? (vector.ids[prefix] ?? 0) : Number.POSITIVE_INFINITY;
    candidates.length = 0;
    for (let k = 0; k < prefix; k++) {
      const term = vector.ids[k] ?? 0;
      const weight = vector.weights[k] ?? 0;
      const list = postedVectors[term];
      const weights = postedWeights[term];
      if (!list || !weights) {
        postedVectors[term] = [i];
        postedWeights[term] = [weight];
        continue;
      }
      for (let m = 0; m < list.length; m++) {
        const j = list[m] ?? 0;
        if (seenBy[j] !== i) {
          seenBy[j] = i;
          indexedDot[j] = 0;
          candidates.push(j);
        }
        indexedDot[j] = (indexedDot[j] ?? 0) + weight * (weights[m] ?? 0);
      }
      list.push(i);
      weights.push(weight);
    }
    if (candidates.length === 0) continue;
    vector.ids.forEach((id, k) => (spread[id] = vector.weights[k] ?? 0));
    const ownTails = tails[i] ?? new Float64Array(1);
    for (const j of candidates) {
      const other = vectors[j];
      if (!other) continue;
      const cut = Math.min(cuts[i] ?? 0, cuts[j] ?? 0);
      const from = cut === cuts[i] ? prefix : firstFrom(vector.ids, cut);
      const otherFrom = cut === cuts[j] ? (prefixes[j] ?? 0) : firstFrom(other.ids, cut);
      if ((indexedDot[j] ?? 0) + (ownTails[from] ?? 0) * (tails[j]?.[otherFrom] ?? 0) < reach) continue;
      let score = 0;
      for (let m = 0; m < other.ids.length; m++) score += (other.weights[m] ?? 0) * (spread[other.ids[m] ?? 0] ?? 0);
      if (score >= threshold) out.push({ a: j, b: i, score });
    }
    for (const id of vector.ids) spread[id] = 0;
  }
  return out.sort((x, y) => x.a - y.a || x.b - y.b);
}

/**
 * Counts the words of items' texts (`textOf`, made one item at a time, so that no step of a time
 * slice makes them all), then compares every pair of those that `keep` keeps (all by default): the
 * pairs of their indexes whose vectors, weighted among the kept texts, reach `threshold`.
 */
export async function similarTexts<T>(items: readonly T[], textOf: (item: T) => string, threshold: number, options: PassOptions & { readonly keep?: (text: CountedText) => boolean } = {}): Promise<SimilarPair[]> {
  const pause = sliceCheckpoint(options);
  const counter = new TermCounter();
  const kept: { index: number; text: CountedText }[] = [];
  for (const [index, item] of items.entries()) {
    await pause();
    const counted = counter.count(textOf(item));
    if (!options.keep || options.keep(counted)) kept.push({ index, text: counted });
  }
  const vectors = await termVectors(kept.map((k) => k.text), counter.terms, pause);
  return (await similarVectors(vectors, threshold, { ...options, checkpoint: pause })).map((p) => ({ a: kept[p.a]?.index ?? -1, b: kept[p.b]?.index ?? -1, score: p.score }));
}
