/**
 * Strings sorted in pieces, for work on Obsidian's main thread: a segment's merge sorts the terms
 * new to it (tens of thousands at 50,000 notes, tens of milliseconds in one `sort`). Runs of
 * SORT_RUN strings are sorted by the engine, a run per piece, then merged pairwise, MERGE_STEP
 * strings per piece. The order is that of `<` and of `sort()` without a comparator: UTF-16 code units.
 */
import type { Pieces } from "../core/time-slice";

/** Strings sorted by the engine in one piece (about a millisecond). */
const SORT_RUN = 4096;
/** Strings placed by a merge in one piece. */
const MERGE_STEP = 16_384;

export function* sortStringsPieces(items: readonly string[], run = SORT_RUN, step = MERGE_STEP): Pieces<string[]> {
  let runs: string[][] = [];
  for (let from = 0; from < items.length; from += run) {
    if (from > 0) yield;
    runs.push(items.slice(from, from + run).sort());
  }
  while (runs.length > 1) {
    const next: string[][] = [];
    for (let r = 0; r < runs.length; r += 2) {
      const a = runs[r] as string[];
      const b = runs[r + 1];
      if (!b) {
        next.push(a);
        continue;
      }
      yield;
      const out: string[] = [];
      let i = 0;
      let j = 0;
      while (i < a.length && j < b.length) {
        const x = a[i] as string;
        const y = b[j] as string;
        if (y < x) {
          out.push(y);
          j += 1;
        } else {
          out.push(x);
          i += 1;
        }
        if (out.length % step === 0) yield;
      }
      while (i < a.length) out.push(a[i++] as string);
      while (j < b.length) out.push(b[j++] as string);
      next.push(out);
    }
    runs = next;
  }
  return runs[0] ?? [];
}
