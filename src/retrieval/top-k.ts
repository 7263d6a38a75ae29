/**
 * The best `limit` notes for a set of query terms, each by its best chunk (BM25), over the text
 * index's segments — two ways that give the same answer. Notes, not chunks: a long note matching in
 * many sections would otherwise fill the depth alone and push every other matching note out.
 * `exhaustiveTopK` scores every posting of every term. `prunedTopK` (MaxScore, Turtle & Flood 1995)
 * never fully scores a chunk that cannot reach the current k-th best score: a term's contribution
 * is below idf × (k1 + 1) whatever its frequency, so once the k-th best is above the sum of the
 * weakest terms' bounds, a chunk holding only those terms cannot enter,
 * and those terms' postings are only looked up (by galloping search) for chunks found through the
 * others. A common word ("obsidian" in most chunks) is then read a few dozen times, not hundreds
 * of thousands. Both sum a chunk's contributions in the terms' given order with the same
 * expression, so their scores are equal to the bit, and both break ties by path then chunk order:
 * the results are identical (a property test compares them on random corpora). Pruning stays exact
 * with one chunk per note: the floor is the k-th best note's score, and a chunk below it can neither
 * bring in a new note nor better a note already in (whose best is at or above the floor).
 */
import type { ChunkMeta } from "./text-index";

export const K1 = 1.2;
export const B = 0.75;

/**
 * What scoring needs of a segment's postings (a segment's frozen base, or its delta grouped by
 * term): chunk id × 256 + tf, ids rising per term; chunk lengths by id; the chunks to skip (dead
 * ones, whose postings stay in a base until it is merged) or null; and each chunk's note.
 */
export interface ScoredSegment {
  postings(): Int32Array;
  readonly lengths: Float64Array;
  readonly skip: Uint8Array | null;
  pathOf(local: number): string;
  ordinalOf(local: number): number;
  metaOf(local: number): ChunkMeta;
}

/** A query term: its weight, and its postings range in each segment (null where absent). */
export interface PlannedTerm {
  readonly idf: number;
  readonly ranges: readonly ([number, number] | null)[];
}

export interface TopKQuery {
  readonly segments: readonly ScoredSegment[];
  /** Scores are summed in this order. */
  readonly terms: readonly PlannedTerm[];
  readonly avgLength: number;
  readonly limit: number;
  readonly accept: (path: string) => boolean;
}

export interface RankedChunk {
  readonly score: number;
  readonly path: string;
  readonly ordinal: number;
  readonly meta: ChunkMeta;
}

/** Every posting scored, per segment into a scratch array the size of the largest segment. */
export function exhaustiveTopK(query: TopKQuery): RankedChunk[] {
  if (query.limit < 1) return [];
  const top = new TopK(query.limit, query.accept);
  const k1b = (K1 * B) / query.avgLength;
  const k1c = K1 * (1 - B);
  let scratch = new Float64Array(0);
  const touched: number[] = [];
  query.segments.forEach((segment, seg) => {
    const postings = segment.postings();
    const lengths = segment.lengths;
    const skip = segment.skip;
    if (scratch.length < lengths.length) scratch = new Float64Array(lengths.length);
    touched.length = 0;
    for (const term of query.terms) {
      const r = term.ranges[seg];
      if (!r) continue;
      const scale = term.idf * (K1 + 1);
      for (let p = r[0]; p < r[1]; p++) {
        const packed = postings[p] as number;
        const local = packed >>> 8;
        if (skip !== null && skip[local] === 1) continue;
        const tf = packed & 0xff;
        const before = scratch[local] as number;
        if (before === 0) touched.push(local);
        scratch[local] = before + (scale * tf) / (tf + k1c + k1b * (lengths[local] as number));
      }
    }
    for (const local of touched) {
      top.offer(scratch[local] as number, segment, local);
      scratch[local] = 0;
    }
  });
  return top.ranked();
}

/** MaxScore: the same top notes as `exhaustiveTopK`, reading only what can still change them. */
export function prunedTopK(query: TopKQuery): RankedChunk[] {
  if (query.limit < 1) return [];
  const top = new TopK(query.limit, query.accept);
  const n = query.terms.length;
  const k1b = (K1 * B) / query.avgLength;
  const k1c = K1 * (1 - B);
  const scale = query.terms.map((t) => t.idf * (K1 + 1));
  // Weakest bound first; the bound of a term is its scale (tf / (tf + …) < 1).
  const byBound = query.terms.map((_, i) => i).sort((a, b) => (scale[a] as number) - (scale[b] as number) || a - b);
  const contribution = new Float64Array(n);
  const has = new Uint8Array(n);
  const order = new Int32Array(n);
  const ptr = new Int32Array(n);
  const end = new Int32Array(n);
  const bound = new Float64Array(n + 1);
  query.segments.forEach((segment, seg) => {
    // The terms present in this segment, weakest bound first, and the running sums of their bounds.
    let m = 0;
    for (const t of byBound) {
      const r = query.terms[t]?.ranges[seg];
      if (!r || r[1] <= r[0]) continue;
      order[m] = t;
      ptr[m] = r[0];
      end[m] = r[1];
      bound[m + 1] = (bound[m] as number) + (scale[t] as number);
      m += 1;
    }
    if (m === 0) return;
    const postings = segment.postings();
    const lengths = segment.lengths;
    const skip = segment.skip;
    let floor = top.threshold();
    // Terms below `essential` are only looked up: together they cannot reach the k-th best score.
    let essential = firstEssential(bound, m, floor);
    for (;;) {
      if (top.threshold() !== floor) {
        floor = top.threshold();
        essential = firstEssential(bound, m, floor);
      }
      if (essential >= m) return;
      let local = 0x7fffffff;
      for (let i = essential; i < m; i++) {
        if ((ptr[i] as number) < (end[i] as number)) local = Math.min(local, (postings[ptr[i] as number] as number) >>> 8);
      }
      if (local === 0x7fffffff) return;
      if (skip !== null && skip[local] === 1) {
        // A dead chunk: step over its postings in the terms read so far; the others never reach it.
        for (let i = essential; i < m; i++) {
          const p = ptr[i] as number;
          if (p < (end[i] as number) && (postings[p] as number) >>> 8 === local) ptr[i] = p + 1;
        }
        continue;
      }
      const length = lengths[local] as number;
      let partial = 0;
      for (let i = essential; i < m; i++) {
        const p = ptr[i] as number;
        if (p >= (end[i] as number) || (postings[p] as number) >>> 8 !== local) continue;
        const tf = (postings[p] as number) & 0xff;
        const t = order[i] as number;
        const c = ((scale[t] as number) * tf) / (tf + k1c + k1b * length);
        contribution[t] = c;
        has[t] = 1;
        partial += c;
        ptr[i] = p + 1;
      }
      let reachable = true;
      for (let i = essential - 1; i >= 0; i--) {
        if (below(partial + (bound[i + 1] as number), floor)) {
          reachable = false;
          break;
        }
        const p = seek(postings, ptr[i] as number, end[i] as number, local);
        ptr[i] = p;
        if (p >= (end[i] as number) || (postings[p] as number) >>> 8 !== local) continue;
        const tf = (postings[p] as number) & 0xff;
        const t = order[i] as number;
        const c = ((scale[t] as number) * tf) / (tf + k1c + k1b * length);
        contribution[t] = c;
        has[t] = 1;
        partial += c;
      }
      // The score as the exhaustive scorer sums it: from zero, in the terms' order.
      let score = 0;
      for (let t = 0; t < n; t++) {
        if (has[t]) score += contribution[t] as number;
        has[t] = 0;
      }
      if (reachable) top.offer(score, segment, local);
    }
  });
  return top.ranked();
}

/**
 * Definitely below the floor, allowing for rounding: partial sums are added in another order than
 * the final score, so a chunk whose score would tie the floor (and win on its path) is never cut.
 */
function below(value: number, floor: number): boolean {
  return value < floor - 1e-9 * Math.abs(floor);
}

/** The first term whose bound, added to those of all weaker terms, could reach the floor. */
function firstEssential(bound: Float64Array, m: number, floor: number): number {
  let i = 0;
  while (i < m && below(bound[i + 1] as number, floor)) i++;
  return i;
}

/** The first posting at or after `from` whose chunk id is at least `local` (galloping, then binary search). */
function seek(postings: Int32Array, from: number, end: number, local: number): number {
  if (from >= end || (postings[from] as number) >>> 8 >= local) return from;
  let lo = from;
  let step = 1;
  let hi = from + 1;
  while (hi < end && (postings[hi] as number) >>> 8 < local) {
    lo = hi;
    step *= 2;
    hi = lo + step;
  }
  if (hi > end) hi = end;
  lo += 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((postings[mid] as number) >>> 8 < local) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The best `limit` accepted notes so far, each by its best chunk, best first: by score, then path,
 * then chunk order (a note's best chunk is its first among equals).
 */
class TopK {
  private readonly best: Entry[] = [];
  /** The entry in `best` of each note there. */
  private readonly entries = new Map<string, Entry>();
  private readonly accepted = new Map<string, boolean>();

  constructor(
    private readonly limit: number,
    private readonly accept: (path: string) => boolean,
  ) {}

  /** The score a chunk must reach to enter (ties are settled by path), or -Infinity while not full. */
  threshold(): number {
    return this.best.length < this.limit ? -Infinity : (this.best[this.best.length - 1] as Entry).score;
  }

  offer(score: number, segment: ScoredSegment, local: number): void {
    if (score < this.threshold()) return;
    const path = segment.pathOf(local);
    let ok = this.accepted.get(path);
    if (ok === undefined) this.accepted.set(path, (ok = this.accept(path)));
    if (!ok) return;
    const candidate: Entry = { score, path, ordinal: segment.ordinalOf(local), segment, local };
    const entry = this.entries.get(path);
    if (entry) {
      // The note is in already: its better chunk takes its place.
      if (byScore(candidate, entry) >= 0) return;
      this.best.splice(this.indexOf(entry), 1);
    } else if (this.best.length >= this.limit && byScore(candidate, this.best[this.best.length - 1] as Entry) >= 0) return;
    this.best.splice(this.insertionPoint(candidate), 0, candidate);
    this.entries.set(path, candidate);
    if (this.best.length > this.limit) this.entries.delete((this.best.pop() as Entry).path);
  }

  /** Where `candidate` goes in `best` (after every entry ranked before it). */
  private insertionPoint(candidate: Entry): number {
    let lo = 0;
    let hi = this.best.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (byScore(this.best[mid] as Entry, candidate) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The position of an entry of `best` (entries are distinct under `byScore`: one per note). */
  private indexOf(entry: Entry): number {
    return this.insertionPoint(entry) - 1;
  }

  /** The ranking, each chunk's metadata (its heading decoded) made now, for the winners alone. */
  ranked(): RankedChunk[] {
    return this.best.map(({ score, path, ordinal, segment, local }) => ({ score, path, ordinal, meta: segment.metaOf(local) }));
  }
}

/** A chunk in the running: where to find its metadata, which only the final ranking reads. */
interface Entry {
  readonly score: number;
  readonly path: string;
  readonly ordinal: number;
  readonly segment: ScoredSegment;
  readonly local: number;
}

function byScore(a: Entry, b: Entry): number {
  return b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) || a.ordinal - b.ordinal;
}
