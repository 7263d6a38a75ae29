/**
 * A segment's delta: the postings of notes written since its last merge, as (term number, chunk id
 * × 256 + frequency) pairs in one Int32Array, the terms numbered by the `TermTable` all segments
 * share — no list of strings per chunk, a note's words counted as they are read. A search reads the
 * delta grouped by term (a counting sort over the delta alone, segment-merge.ts), built once and
 * kept until a note is written or removed; a merge groups it again, sorted, into the base.
 */
import { groupDelta, type GroupedDelta, type Renumbering } from "./segment-merge";
import type { TermTable } from "./term-table";

const MAX_TF = 255;

export class SegmentDelta {
  /** Term number, then chunk id × 256 + frequency. */
  private pairs = new Int32Array(0);
  private pairCount = 0;
  /** The living postings grouped by term and a term's place in them, built by a search; null once stale. */
  private grouped: { readonly delta: GroupedDelta; readonly at: Map<number, number> } | null = null;

  constructor(private readonly table: TermTable) {}

  /** Postings written since the last merge, living or dead. */
  get postingCount(): number {
    return this.pairCount / 2;
  }

  get empty(): boolean {
    return this.pairCount === 0;
  }

  /**
   * Counts `term` `weight` more times in chunk `chunkId`, whose writing the term table stamped
   * `stamp` (`TermTable.nextChunk`): a term met again in the same chunk adds to its posting.
   */
  add(term: number, chunkId: number, stamp: number, weight: number): void {
    const table = this.table;
    if (table.seenIn[term] === stamp) {
      const at = (table.countAt[term] as number) + 1;
      const packed = this.pairs[at] as number;
      this.pairs[at] = (packed & ~0xff) | Math.min(MAX_TF, (packed & 0xff) + weight);
      return;
    }
    table.seenIn[term] = stamp;
    table.countAt[term] = this.pairCount;
    if (this.pairCount + 2 > this.pairs.length) {
      const grown = new Int32Array(Math.max(1024, this.pairs.length * 2));
      grown.set(this.pairs);
      this.pairs = grown;
    }
    this.pairs[this.pairCount] = term;
    this.pairs[this.pairCount + 1] = chunkId * 256 + Math.min(MAX_TF, Math.max(1, weight));
    this.pairCount += 2;
  }

  /** A note was written or removed: the grouping a search built no longer holds. */
  invalidate(): void {
    this.grouped = null;
  }

  /** Empties the delta (merged into the base, or replaced by a stored one). */
  clear(): void {
    this.pairs = new Int32Array(0);
    this.pairCount = 0;
    this.grouped = null;
  }

  /** The living postings grouped by term, sorted by the terms' text, for a merge. */
  groupForMerge(renumbering: Renumbering): GroupedDelta {
    return groupDelta(this.table, this.pairs, this.pairCount, renumbering, true);
  }

  /** Groups the living postings by term for searches, unless a search grouped them already. */
  groupForSearch(dead: Uint8Array): void {
    if (this.grouped || this.pairCount === 0) return;
    const delta = groupDelta(this.table, this.pairs, this.pairCount, { dead }, false);
    const at = new Map<number, number>();
    delta.termIds.forEach((id, i) => at.set(id, i));
    this.grouped = { delta, at };
  }

  /** Where the postings of term `termId` lie in the grouped delta, or null (not grouped, or no such term). */
  range(termId: number): [number, number] | null {
    const grouped = this.grouped;
    const g = grouped?.at.get(termId);
    return g === undefined || !grouped ? null : [grouped.delta.starts[g] as number, grouped.delta.starts[g + 1] as number];
  }

  /** The grouped postings a search reads, or null when they are not grouped. */
  get groupedPostings(): Int32Array | null {
    return this.grouped?.delta.postings ?? null;
  }
}
