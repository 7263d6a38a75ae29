/**
 * BM25 over chunks, in memory, in 256 segments — one per index shard (a note's segment is the hash
 * of its path, `shardOf`). Our own inverted index rather than a library's because the index must
 * persist note by note in small shards and load without re-reading the vault or rebuilding postings
 * (see docs/decisions/0001-own-search-index.md).
 *
 * Each segment's base is a sorted term dictionary, offsets and one packed Int32Array of postings
 * (segment-local chunk id × 256 + weighted term frequency) — exactly what its shard stores, so
 * loading the index is a read, not a rebuild. Changes go to a small delta per segment that a search
 * reads beside the base (see segment.ts) and that merges into it before a flush. Term statistics (document frequency, average length) are sums over the segments,
 * so scores do not depend on how notes were spread or in which order they came.
 */
import { Segment, type ChunkMeta, type ChunkTerms, type ChunkWriter, type FrozenPostings, type NumberedChunkWriter, type StoredNoteChunks, type StoredSegment } from "./segment";
import { shardOf, SHARD_COUNT } from "./shard-of";
import { TermTable } from "./term-table";
import { exhaustiveTopK, prunedTopK, type ScoredSegment, type TopKQuery } from "./top-k";

export type { ChunkMeta, ChunkTerms, ChunkWriter, FrozenPostings, NumberedChunkWriter, StoredNoteChunks, StoredSegment };

/** A matching note, as its best chunk. */
export interface TextHit {
  readonly path: string;
  readonly heading: string;
  /** Which chunk of the note (0-based), and where it lies in the note's text. */
  readonly ordinal: number;
  readonly start: number;
  readonly end: number;
  readonly score: number;
}

export class TextIndex {
  /** Numbers the terms of notes written since their segment last merged; shared by all segments. */
  private readonly table = new TermTable();
  private readonly segments: Segment[] = Array.from({ length: SHARD_COUNT }, () => new Segment(this.table));

  get chunkCount(): number {
    return this.segments.reduce((n, s) => n + s.chunkCount, 0);
  }

  /** Distinct terms summed over segments (a term in two segments counts twice). */
  get termCount(): number {
    return this.segments.reduce((n, s) => n + s.termCount(), 0);
  }

  has(path: string): boolean {
    return this.segments[shardOf(path)]?.has(path) ?? false;
  }

  *paths(): IterableIterator<string> {
    for (const s of this.segments) yield* s.paths();
  }

  /** The chunks of a note as they were indexed, in order (positions and lengths; no terms), made on demand. */
  chunksOf(path: string): readonly ChunkMeta[] {
    return this.segments[shardOf(path)]?.chunksOf(path) ?? [];
  }

  /** A segment's notes (path and chunk count, in chunk-id order), frozen postings and chunk columns, for its shard. */
  segment(shard: number): { notes: [string, number][]; frozen: StoredSegment } {
    const stored = (this.segments[shard] as Segment).stored();
    this.releaseTerms();
    return stored;
  }

  /** Empties the term table once no segment's delta refers to it (after a build is flushed or searched). */
  private releaseTerms(): void {
    if (this.table.size > 0 && this.segments.every((s) => !s.holdsTerms)) this.table.clear();
  }

  /** Adopts a segment read from its shard. */
  loadSegment(shard: number, notes: readonly StoredNoteChunks[], frozen: StoredSegment): void {
    this.segments[shard]?.load(notes, frozen);
  }

  /** Replaces a note's chunks. */
  set(path: string, chunks: readonly ChunkTerms[]): void {
    this.write(path, (writer) => {
      for (const chunk of chunks) {
        writer.chunk(chunk.heading, chunk.start, chunk.end, chunk.length);
        chunk.terms.forEach((term, i) => writer.term(term, 0, term.length, chunk.freqs[i] ?? 1));
      }
    });
  }

  /** Replaces a note's chunks with those `feed` writes, word by word, straight into compact postings. */
  write(path: string, feed: (writer: NumberedChunkWriter) => void): void {
    (this.segments[shardOf(path)] as Segment).write(path, feed);
  }

  /** Whether the next search would merge a segment first (many edits or removals since it last merged). */
  get searchMergeWanted(): boolean {
    return this.segments.some((s) => s.searchWantsMerge);
  }

  /** Merges the segments the next search would merge first (after many edits or removals), ahead of it. */
  compact(): void {
    for (const segment of this.segments) if (segment.searchWantsMerge) segment.freeze();
  }

  remove(path: string): void {
    this.segments[shardOf(path)]?.remove(path);
  }

  /**
   * The best notes for the query terms, at most `limit`, each as its best chunk by BM25, best
   * first; `accept` filters by path (scope). Ties go to the path in alphabetical order, then the
   * earlier chunk, so results never depend on insertion history.
   * Pruned (MaxScore) unless `exhaustive`: the same results, without scoring chunks that cannot
   * make the top (see top-k.ts).
   */
  search(queryTerms: readonly string[], limit: number, accept: (path: string) => boolean, options: { readonly exhaustive?: boolean } = {}): TextHit[] {
    const unique = [...new Set(queryTerms)];
    let living = 0;
    let totalLength = 0;
    for (const s of this.segments) {
      s.prepareSearch();
      living += s.chunkCount;
      totalLength += s.totalLength;
    }
    this.releaseTerms();
    if (unique.length === 0 || living === 0) return [];
    // Each segment is read as its base (dead chunks skipped) and, when it has one, its grouped delta.
    const scorers: ScoredSegment[] = [];
    const deltaOf: number[] = [];
    for (const s of this.segments) {
      scorers.push(s);
      const delta = s.deltaScorer();
      deltaOf.push(delta ? scorers.push(delta) - 1 : -1);
    }
    // Segment by segment, each looking up every term (in sorted order): one segment's dictionary is
    // read while it is in the CPU's caches, where a term at a time would visit all 256 in turn.
    const termIds = unique.map((term) => this.table.find(term));
    const lookupOrder = unique.map((_, t) => t).sort((a, b) => ((unique[a] as string) < (unique[b] as string) ? -1 : 1));
    const ranges: ([number, number] | null)[][] = unique.map(() => scorers.map(() => null));
    const dfs = new Array<number>(unique.length).fill(0);
    let base = 0;
    for (const [i, s] of this.segments.entries()) {
      for (const t of lookupOrder) {
        const plan = s.plan(unique[t] as string, termIds[t] as number);
        if (!plan) continue;
        const termRanges = ranges[t] as ([number, number] | null)[];
        dfs[t] = (dfs[t] as number) + plan.df;
        termRanges[base] = plan.base ? [plan.base[0], plan.base[1]] : null;
        if (plan.delta) termRanges[deltaOf[i] as number] = [plan.delta[0], plan.delta[1]];
      }
      base += deltaOf[i] === -1 ? 1 : 2;
    }
    const found: QueryTerm[] = [];
    unique.forEach((term, t) => {
      if ((dfs[t] as number) > 0) found.push({ term, df: dfs[t] as number, ranges: ranges[t] as ([number, number] | null)[] });
    });
    const query: TopKQuery = {
      segments: scorers,
      terms: withinBudget(found).map(({ df, ranges }) => ({ idf: Math.log(1 + (living - df + 0.5) / (df + 0.5)), ranges })),
      avgLength: totalLength / living,
      limit,
      accept,
    };
    const ranked = options.exhaustive ? exhaustiveTopK(query) : prunedTopK(query);
    return ranked.map(({ score, path, ordinal, meta }) => ({ path, heading: meta.heading, ordinal, start: meta.start, end: meta.end, score }));
  }

  /** Merges every segment's delta into its base (idle time, or before measuring the index). */
  settle(): void {
    for (const s of this.segments) s.freeze();
    this.releaseTerms();
  }
}

/** A query term present in the index: its living chunk count and its postings range in each scorer. */
interface QueryTerm {
  readonly term: string;
  readonly df: number;
  readonly ranges: readonly ([number, number] | null)[];
}

/**
 * A long query (an ingest's note stands for ~30 terms) reads at most about this many postings: its
 * rarest terms first, then the next while they fit. The terms left out are the most common ones,
 * whose BM25 weight (idf) is smallest, and whose postings grow with the vault: without a bound a
 * query's cost grows with the vault too. Decided by `df` (living chunks), so an index built by
 * edits and one rebuilt from scratch leave out the same terms.
 */
export const POSTINGS_BUDGET = 50_000;
/** The rarest terms are always read, whatever they cost. */
const ALWAYS_READ = 3;

function withinBudget(terms: QueryTerm[]): QueryTerm[] {
  const total = terms.reduce((sum, t) => sum + t.df, 0);
  if (total <= POSTINGS_BUDGET) return terms;
  const byRarity = [...terms].sort((a, b) => a.df - b.df || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
  let left = POSTINGS_BUDGET;
  return byRarity.filter((t, i) => {
    if (i >= ALWAYS_READ && t.df > left) return false;
    left -= t.df;
    return true;
  });
}
