/**
 * The two ways a segment's delta (postings written since its last merge, as term number / posting
 * pairs in one Int32Array, see `Segment`) becomes readable: grouped by term, and merged into the
 * frozen base. Grouping is a counting sort over the delta alone, so a search can read the postings
 * of a few changed notes without touching the base; merging copies runs of the base's dictionary
 * and postings whole, inserting the delta's terms sorted once.
 */
import { DictionaryBuilder } from "./term-dictionary";
import type { TermTable } from "./term-table";
import type { FrozenPostings } from "./segment";

/** A delta's postings grouped by term: the postings of `termIds[i]` lie at starts[i]…starts[i + 1], chunk ids rising. */
export interface GroupedDelta {
  readonly termIds: Int32Array;
  readonly starts: Int32Array;
  readonly postings: Int32Array;
}

/** How a delta's chunk ids carry over: renumbered by a compaction (-1: dropped), or kept unless dead. */
export type Renumbering = { readonly remap: Int32Array } | { readonly dead: Uint8Array };

/**
 * The living postings of `pairs[0…pairCount)` grouped by term: by the terms' text (the dictionary's
 * order) when `sorted`, else in the order the terms were first met. Postings keep their written
 * order within a term, which is chunk order: a note's chunks get rising ids as they are written.
 */
export function groupDelta(table: TermTable, pairs: Int32Array, pairCount: number, renumbering: Renumbering, sorted: boolean): GroupedDelta {
  const remap = "remap" in renumbering ? renumbering.remap : null;
  const dead = "dead" in renumbering ? renumbering.dead : null;
  const newId = (id: number): number => (remap ? (remap[id] as number) : id < (dead as Uint8Array).length && (dead as Uint8Array)[id] ? -1 : id);
  const pass = table.nextPass();
  let unique: number[] = [];
  let living = 0;
  for (let p = 0; p < pairCount; p += 2) {
    if (newId((pairs[p + 1] as number) >>> 8) < 0) continue;
    const term = pairs[p] as number;
    if (table.mark[term] !== pass) {
      table.mark[term] = pass;
      table.rank[term] = 0;
      unique.push(term);
    }
    table.rank[term] = (table.rank[term] as number) + 1;
    living += 1;
  }
  if (sorted) {
    // `sort()` without a comparator orders by UTF-16 code units, as `<` and the dictionary do.
    const idOf = new Map<string, number>();
    for (const id of unique) idOf.set(table.term(id), id); // a table's terms are distinct
    unique = [...idOf.keys()].sort().map((text) => idOf.get(text) as number);
  }
  const termIds = Int32Array.from(unique);
  const starts = new Int32Array(unique.length + 1);
  let at = 0;
  unique.forEach((id, k) => {
    starts[k] = at;
    at += table.rank[id] as number;
    table.rank[id] = starts[k]; // from here on: where its next posting goes
  });
  starts[unique.length] = at;
  const postings = new Int32Array(living);
  for (let p = 0; p < pairCount; p += 2) {
    const packed = pairs[p + 1] as number;
    const id = newId(packed >>> 8);
    if (id < 0) continue;
    const term = pairs[p] as number;
    const slot = table.rank[term] as number;
    postings[slot] = id * 256 + (packed & 0xff);
    table.rank[term] = slot + 1;
  }
  return { termIds, starts, postings };
}

/**
 * The base with a delta merged in (`delta` grouped in the dictionary's order, its ids already
 * renumbered by `remap` when chunks were dropped): old terms and postings are copied in runs, a
 * term left without postings goes.
 */
export function mergeFrozen(old: FrozenPostings, table: TermTable, delta: GroupedDelta, remap: Int32Array | null): FrozenPostings {
  const oldCount = old.terms.size;
  const dictionary = new DictionaryBuilder(old.terms);
  const offsets = new Int32Array(oldCount + delta.termIds.length + 1);
  const postings = new Int32Array(old.postings.length + delta.postings.length);
  let terms = 0;
  let at = 0;
  /** Copies old terms [from, to) with their postings, renumbered. */
  const copyOld = (from: number, to: number) => {
    if (!remap) {
      const p0 = old.offsets[from] as number;
      const p1 = old.offsets[to] as number;
      postings.set(old.postings.subarray(p0, p1), at);
      for (let i = from; i < to; i++) {
        offsets[terms++] = (old.offsets[i] as number) - p0 + at;
        dictionary.keepOld(i);
      }
      at += p1 - p0;
      return;
    }
    for (let i = from; i < to; i++) {
      const start = at;
      at = copyRemapped(old.postings, old.offsets[i] as number, old.offsets[i + 1] as number, remap, postings, at);
      if (at > start) {
        offsets[terms++] = start;
        dictionary.keepOld(i);
      }
    }
  };
  let a = 0;
  for (let b = 0; b < delta.termIds.length; b++) {
    const term = table.term(delta.termIds[b] as number);
    const next = old.terms.lowerBound(term, a);
    copyOld(a, next);
    a = next;
    const start = at;
    const inOld = a < oldCount && old.terms.compare(a, term) === 0;
    if (inOld) {
      at = remap ? copyRemapped(old.postings, old.offsets[a] as number, old.offsets[a + 1] as number, remap, postings, at) : copyPlain(old, a, postings, at);
      a += 1;
    }
    postings.set(delta.postings.subarray(delta.starts[b], delta.starts[b + 1]), at);
    at += (delta.starts[b + 1] as number) - (delta.starts[b] as number);
    offsets[terms++] = start;
    if (inOld) dictionary.keepOld(a - 1);
    else dictionary.add(term);
  }
  copyOld(a, oldCount);
  offsets[terms] = at;
  return { terms: dictionary.build(), offsets: offsets.slice(0, terms + 1), postings: at === postings.length ? postings : postings.slice(0, at) };
}

/** Copies the postings of one old term whose chunk ids did not change. */
function copyPlain(old: FrozenPostings, term: number, into: Int32Array, at: number): number {
  const p0 = old.offsets[term] as number;
  const p1 = old.offsets[term + 1] as number;
  into.set(old.postings.subarray(p0, p1), at);
  return at + p1 - p0;
}

/** Copies postings [from, to) renumbered by `remap`, leaving out dead chunks; returns the new end. */
function copyRemapped(source: Int32Array, from: number, to: number, remap: Int32Array, into: Int32Array, at: number): number {
  for (let p = from; p < to; p++) {
    const packed = source[p] as number;
    const id = remap[packed >>> 8] as number;
    if (id >= 0) into[at++] = id * 256 + (packed & 0xff);
  }
  return at;
}
