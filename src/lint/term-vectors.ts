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
import { forEachToken } from "../core/tokenize";
import type { PageRecord } from "./snapshot";

/** A text's words as ranks (0 the rarest word of the set) in ascending order and their weights, of length 1. */
export interface TermVector {
  readonly ids: Int32Array;
  readonly weights: Float64Array;
}

/** The text compared: title and body, without Obsidian comments (`%%…%%`). */
export function comparedText(page: Pick<PageRecord, "title" | "body">): string {
  return `${page.title} ${page.body.replace(/%%[\s\S]*?%%/g, " ")}`;
}

/** One text's words: term ids of a TermCounter's dictionary, how often each occurs, and how many words in all. */
export interface CountedText {
  readonly ids: Int32Array;
  readonly counts: Int32Array;
  readonly words: number;
}

/**
 * Counts the words of many texts against one dictionary (a word is a number once it is met). The
 * dictionary is a hash table of its own, looked up with the word where it stands in the text: a
 * wiki's pages hold millions of words and only tens of thousands of different ones, and cutting
 * each out as a string of its own to look it up in a Map made garbage of every one.
 */
export class TermCounter {
  /** The words met so far, by id. */
  readonly terms: string[] = [];
  /** Each word's hash, by id (to grow the table without hashing again). */
  private hashes = new Int32Array(1024);
  /** Open addressing: ids by slot, -1 where empty; never fuller than half. */
  private slots = new Int32Array(2048).fill(-1);
  /** Occurrences in the text being counted, by id (zero between texts). */
  private tf = new Int32Array(1024);

  count(text: string): CountedText {
    const seen: number[] = [];
    let words = 0;
    forEachToken(text, (source, start, end) => {
      const id = this.idOf(source, start, end);
      if (this.tf[id] === 0) seen.push(id);
      this.tf[id] = (this.tf[id] ?? 0) + 1;
      words++;
    });
    const ids = Int32Array.from(seen);
    const counts = Int32Array.from(seen, (id) => this.tf[id] ?? 0);
    for (const id of seen) this.tf[id] = 0;
    return { ids, counts, words };
  }

  /** The id of the word at source[start, end), given it when it is new. */
  private idOf(source: string, start: number, end: number): number {
    // FNV-1a over the UTF-16 code units.
    let hash = 0x811c9dc5;
    for (let i = start; i < end; i++) hash = Math.imul(hash ^ source.charCodeAt(i), 0x01000193);
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    for (;;) {
      const id = this.slots[slot] ?? -1;
      if (id < 0) break;
      if (this.hashes[id] === hash && sameWord(this.terms[id] ?? "", source, start, end)) return id;
      slot = (slot + 1) & mask;
    }
    const id = this.terms.length;
    this.terms.push(source.slice(start, end));
    if (id >= this.tf.length) {
      this.tf = grown(this.tf);
      this.hashes = grown(this.hashes);
    }
    this.hashes[id] = hash;
    this.slots[slot] = id;
    if (2 * this.terms.length > this.slots.length) this.rehash();
    return id;
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2).fill(-1);
    const mask = slots.length - 1;
    for (let id = 0; id < this.terms.length; id++) {
      let slot = (this.hashes[id] ?? 0) & mask;
      while ((slots[slot] ?? -1) >= 0) slot = (slot + 1) & mask;
      slots[slot] = id;
    }
    this.slots = slots;
  }
}

function sameWord(word: string, source: string, start: number, end: number): boolean {
  if (word.length !== end - start) return false;
  for (let i = 0; i < word.length; i++) if (word.charCodeAt(i) !== source.charCodeAt(start + i)) return false;
  return true;
}

function grown(array: Int32Array): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(array.length * 2);
  bigger.set(array);
  return bigger;
}

/** Packs a rank and a count into one number, so one numeric sort orders a text's words by rank. */
const COUNT_SPAN = 2 ** 21;

/**
 * The vectors of counted texts, weighted against each other: a word's rarity is counted among
 * them. In every vector, words run from the rarest to the commonest (ties in the order the words
 * were met, so the same texts give the same order), which the prefix filter relies on. `pause`
 * runs before each text is counted in and before each vector (time slices, cancellation).
 */
export async function termVectors(texts: readonly CountedText[], terms: readonly string[], pause: () => Promise<void> = () => Promise.resolve()): Promise<TermVector[]> {
  const df = new Int32Array(terms.length);
  for (const text of texts) {
    await pause();
    for (const id of text.ids) df[id] = (df[id] ?? 0) + 1;
  }
  await pause();
  // Ranks by document frequency, then by id (the order words were met): a counting sort, so a
  // vocabulary of 100,000 words is ordered in one pass instead of a comparison sort's 50-odd ms
  // on the main thread.
  const n = texts.length;
  const start = new Int32Array(n + 2);
  for (const f of df) if (f > 0) start[f + 1] = (start[f + 1] ?? 0) + 1;
  for (let f = 1; f <= n + 1; f++) start[f] = (start[f] ?? 0) + (start[f - 1] ?? 0);
  const rankOf = new Int32Array(terms.length);
  const idfOfRank = new Float64Array(start[n + 1] ?? 0);
  df.forEach((f, id) => {
    if (f === 0) return;
    const rank = start[f] ?? 0;
    start[f] = rank + 1;
    rankOf[id] = rank;
    idfOfRank[rank] = 1 + Math.log((n + 1) / (f + 1));
  });
  const vectors: TermVector[] = [];
  for (const text of texts) {
    await pause();
    const keys = Float64Array.from(text.ids, (id, k) => (rankOf[id] ?? 0) * COUNT_SPAN + Math.min(text.counts[k] ?? 1, COUNT_SPAN - 1)).sort();
    const ids = new Int32Array(keys.length);
    const weights = new Float64Array(keys.length);
    let norm = 0;
    keys.forEach((key, k) => {
      const rank = Math.floor(key / COUNT_SPAN);
      const w = (1 + Math.log(key - rank * COUNT_SPAN)) * (idfOfRank[rank] ?? 1);
      ids[k] = rank;
      weights[k] = w;
      norm += w * w;
    });
    norm = Math.sqrt(norm);
    if (norm > 0) for (let k = 0; k < weights.length; k++) weights[k] = (weights[k] ?? 0) / norm;
    vectors.push({ ids, weights });
  }
  return vectors;
}

/** The vectors of plain texts, weighted against each other (for tests and one-off comparisons). */
export async function vectorsOf(texts: readonly string[]): Promise<TermVector[]> {
  const counter = new TermCounter();
  const counted = texts.map((t) => counter.count(t));
  return termVectors(counted, counter.terms);
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
