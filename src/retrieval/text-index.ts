/**
 * BM25 over chunks, in memory, in 256 segments — one per index shard (a note's segment is the hash
 * of its path, `shardOf`). Our own inverted index rather than a library's because the index must
 * persist note by note in small shards and load without re-reading the vault or rebuilding postings
 * (see README, "Search").
 *
 * Each segment's base is a sorted term dictionary, offsets and one packed Int32Array of postings
 * (segment-local chunk id × 256 + weighted term frequency) — exactly what its shard stores, so
 * loading the index is a read, not a rebuild. Changes go to a small delta merged in before the next
 * search or flush. Term statistics (document frequency, average length) are sums over the segments,
 * so scores do not depend on how notes were spread or in which order they came.
 */
import { shardOf, SHARD_COUNT } from "./shard-of";
import { detach } from "./detach";
import { DictionaryBuilder, TermDictionary } from "./term-dictionary";
import { exhaustiveTopK, prunedTopK, type TopKQuery } from "./top-k";

export interface ChunkMeta {
  readonly heading: string;
  readonly start: number;
  readonly end: number;
  /** Weighted token count (title and heading words count more). */
  readonly length: number;
}

export interface ChunkTerms extends ChunkMeta {
  /** Distinct terms and their weighted frequencies (1–255), same order. */
  readonly terms: readonly string[];
  readonly freqs: readonly number[];
}

/** A segment's inverted index as stored: terms sorted, postings of term i at offsets[i]…offsets[i+1]. */
export interface FrozenPostings {
  readonly terms: TermDictionary;
  readonly offsets: Int32Array;
  readonly postings: Int32Array;
}

export interface TextHit {
  readonly path: string;
  readonly heading: string;
  /** Which chunk of the note (0-based), and where it lies in the note's text. */
  readonly ordinal: number;
  readonly start: number;
  readonly end: number;
  readonly score: number;
}

const MAX_TF = 255;
/**
 * A segment merges its delta once it holds more than this many chunks and a quarter of its base:
 * per-note terms cost about ten times their packed postings, so a building index stays near its
 * frozen size, and each merge copies the base only after it has grown by a quarter.
 */
const DELTA_MIN = 128;

/**
 * One segment: a frozen base (sorted terms, offsets, packed postings over base chunk ids) plus the
 * notes added or changed since, kept as per-note terms (the delta). A removed or replaced base note
 * leaves dead chunk ids that searches skip. `freeze` merges base and delta into a new base in one
 * pass over the postings (no string work for the base), run before a search, before a flush, and
 * when the delta outgrows the base (so building a large vault keeps memory near the frozen size).
 */
class Segment {
  /** Every living note's chunks (without terms). */
  readonly notes = new Map<string, readonly ChunkMeta[]>();
  private base: FrozenPostings = { terms: TermDictionary.EMPTY, offsets: new Int32Array(1), postings: new Int32Array(0) };
  /** By base chunk id: its note and ordinal, and whether it is dead. */
  private basePath: string[] = [];
  private baseOrdinal: number[] = [];
  baseMeta: ChunkMeta[] = [];
  /** Base chunk lengths, as a typed array for the scoring loop. */
  baseLength = new Float64Array(0);
  private dead = new Uint8Array(0);
  private deadCount = 0;
  private readonly baseIds = new Map<string, number[]>();
  private readonly delta = new Map<string, readonly ChunkTerms[]>();
  private deltaChunks = 0;
  totalLength = 0;
  chunkCount = 0;

  get frozen(): boolean {
    return this.delta.size === 0 && this.deadCount === 0;
  }

  /** Adopts a stored inverted index for `notes` (chunk ids in the order of `notes`). */
  load(notes: readonly { path: string; chunks: readonly ChunkMeta[] }[], frozen: FrozenPostings): void {
    this.notes.clear();
    this.delta.clear();
    this.deltaChunks = 0;
    this.base = frozen;
    this.basePath = [];
    this.baseOrdinal = [];
    this.baseMeta = [];
    this.baseIds.clear();
    this.totalLength = 0;
    for (const n of notes) {
      this.notes.set(n.path, n.chunks);
      const ids: number[] = [];
      n.chunks.forEach((chunk, ordinal) => {
        ids.push(this.basePath.length);
        this.basePath.push(n.path);
        this.baseOrdinal.push(ordinal);
        this.baseMeta.push(chunk);
        this.totalLength += chunk.length;
      });
      this.baseIds.set(n.path, ids);
    }
    this.dead = new Uint8Array(this.basePath.length);
    this.deadCount = 0;
    this.chunkCount = this.basePath.length;
    this.baseLength = Float64Array.from(this.baseMeta, (m) => m.length);
  }

  /** The frozen postings (merging first), and each base chunk's note, for the shard. */
  stored(): { notes: [string, readonly ChunkMeta[]][]; frozen: FrozenPostings } {
    this.freeze();
    const notes: [string, readonly ChunkMeta[]][] = [];
    for (const [path] of this.baseIds) notes.push([path, this.notes.get(path) ?? []]);
    return { notes, frozen: this.base };
  }

  set(path: string, chunks: readonly ChunkTerms[]): void {
    this.remove(path);
    // Detached: a heading cut from a note would otherwise keep the note's whole text in memory.
    this.notes.set(path, chunks.map(({ heading, start, end, length }) => ({ heading: detach(heading), start, end, length })));
    this.delta.set(path, chunks);
    this.deltaChunks += chunks.length;
    for (const c of chunks) this.totalLength += c.length;
    this.chunkCount += chunks.length;
    // Keep the per-note terms (large) from piling up while a vault is built: merge once they outgrow the base.
    if (this.deltaChunks > Math.max(DELTA_MIN, this.basePath.length / 4)) this.freeze();
  }

  remove(path: string): boolean {
    const meta = this.notes.get(path);
    if (!meta) return false;
    for (const c of meta) this.totalLength -= c.length;
    this.chunkCount -= meta.length;
    this.notes.delete(path);
    const inDelta = this.delta.get(path);
    if (inDelta) {
      this.delta.delete(path);
      this.deltaChunks -= inDelta.length;
      return true;
    }
    for (const id of this.baseIds.get(path) ?? []) {
      this.dead[id] = 1;
      this.deadCount += 1;
    }
    this.baseIds.delete(path);
    return true;
  }

  /** Merges the delta into the base and drops dead chunks: one pass over the base postings. */
  freeze(): void {
    if (this.frozen) return;
    // New ids: living base chunks in order, then the delta's chunks.
    const remap = new Int32Array(this.basePath.length).fill(-1);
    const paths: string[] = [];
    const ordinals: number[] = [];
    const metas: ChunkMeta[] = [];
    const ids = new Map<string, number[]>();
    for (let id = 0; id < this.basePath.length; id++) {
      if (this.dead[id]) continue;
      remap[id] = paths.length;
      const path = this.basePath[id] as string;
      let list = ids.get(path);
      if (!list) ids.set(path, (list = []));
      list.push(paths.length);
      paths.push(path);
      ordinals.push(this.baseOrdinal[id] as number);
      metas.push(this.baseMeta[id] as ChunkMeta);
    }
    const added = new Map<string, number[]>();
    for (const [path, chunks] of this.delta) {
      const list: number[] = [];
      chunks.forEach((chunk, ordinal) => {
        const id = paths.length;
        list.push(id);
        paths.push(path);
        ordinals.push(ordinal);
        // The same objects the note's entry in `notes` holds: one copy of each chunk's position.
        metas.push((this.notes.get(path) as readonly ChunkMeta[])[ordinal] as ChunkMeta);
        for (let i = 0; i < chunk.terms.length; i++) {
          const term = chunk.terms[i] as string;
          let postings = added.get(term);
          if (!postings) added.set(term, (postings = []));
          postings.push(id * 256 + Math.min(MAX_TF, Math.max(1, chunk.freqs[i] ?? 1)));
        }
      });
      ids.set(path, list);
    }
    // A note without chunks has no ids but is still a note of this segment.
    for (const path of this.notes.keys()) if (!ids.has(path)) ids.set(path, []);
    const old = this.base;
    const newTerms = [...added.keys()].sort();
    const dictionary = new DictionaryBuilder(old.terms);
    const offsets: number[] = [];
    const postings = new Int32Array(old.postings.length + [...added.values()].reduce((n, l) => n + l.length, 0));
    let at = 0;
    let a = 0;
    let b = 0;
    const oldCount = old.terms.size;
    while (a < oldCount || b < newTerms.length) {
      const tb = newTerms[b];
      const cmp = a >= oldCount ? 1 : tb === undefined ? -1 : old.terms.compare(a, tb);
      const start = at;
      if (cmp <= 0) {
        for (let p = old.offsets[a] as number; p < (old.offsets[a + 1] as number); p++) {
          const packed = old.postings[p] as number;
          const id = remap[packed >>> 8] as number;
          if (id >= 0) postings[at++] = id * 256 + (packed & 0xff);
        }
      }
      if (cmp >= 0) for (const packed of added.get(tb as string) as number[]) postings[at++] = packed;
      // A term whose every chunk died leaves the dictionary.
      if (at > start) {
        offsets.push(start);
        if (cmp <= 0) dictionary.keepOld(a);
        else dictionary.add(tb as string);
      }
      if (cmp <= 0) a += 1;
      if (cmp >= 0) b += 1;
    }
    offsets.push(at);
    this.base = { terms: dictionary.build(), offsets: Int32Array.from(offsets), postings: postings.slice(0, at) };
    this.basePath = paths;
    this.baseOrdinal = ordinals;
    this.baseMeta = metas;
    this.baseLength = Float64Array.from(metas, (m) => m.length);
    this.dead = new Uint8Array(paths.length);
    this.deadCount = 0;
    this.baseIds.clear();
    for (const [path, list] of ids) this.baseIds.set(path, list);
    this.delta.clear();
    this.deltaChunks = 0;
  }

  postings(): Int32Array {
    return this.base.postings;
  }

  pathOf(id: number): string {
    return this.basePath[id] as string;
  }

  ordinalOf(id: number): number {
    return this.baseOrdinal[id] as number;
  }

  termCount(): number {
    this.freeze();
    return this.base.terms.size;
  }

  /** The postings range of a term, by binary search in the sorted dictionary (merging first). */
  range(term: string): [number, number] | null {
    this.freeze();
    const frozen = this.base;
    const i = frozen.terms.find(term);
    if (i >= 0) return [frozen.offsets[i] as number, frozen.offsets[i + 1] as number];
    return null;
  }
}

export class TextIndex {
  private readonly segments: Segment[] = Array.from({ length: SHARD_COUNT }, () => new Segment());

  get chunkCount(): number {
    return this.segments.reduce((n, s) => n + s.chunkCount, 0);
  }

  /** Distinct terms summed over segments (a term in two segments counts twice). */
  get termCount(): number {
    return this.segments.reduce((n, s) => n + s.termCount(), 0);
  }

  has(path: string): boolean {
    return this.segments[shardOf(path)]?.notes.has(path) ?? false;
  }

  *paths(): IterableIterator<string> {
    for (const s of this.segments) yield* s.notes.keys();
  }

  /** The chunks of a note as they were indexed, in order (positions and lengths; no terms). */
  chunksOf(path: string): readonly ChunkMeta[] {
    return this.segments[shardOf(path)]?.notes.get(path) ?? [];
  }

  /** A segment's notes (in chunk-id order) and frozen postings, for its shard. */
  segment(shard: number): { notes: [string, readonly ChunkMeta[]][]; frozen: FrozenPostings } {
    return (this.segments[shard] as Segment).stored();
  }

  /** Adopts a segment read from its shard. */
  loadSegment(shard: number, notes: readonly { path: string; chunks: readonly ChunkMeta[] }[], frozen: FrozenPostings): void {
    this.segments[shard]?.load(notes, frozen);
  }

  /** Replaces a note's chunks. */
  set(path: string, chunks: readonly ChunkTerms[]): void {
    this.segments[shardOf(path)]?.set(path, chunks);
  }

  remove(path: string): void {
    this.segments[shardOf(path)]?.remove(path);
  }

  /**
   * The best chunks for the query terms, by BM25, best first; `accept` filters by path (scope).
   * Ties go to the path in alphabetical order, so results never depend on insertion history.
   * Pruned (MaxScore) unless `exhaustive`: the same results, without scoring chunks that cannot
   * make the top (see top-k.ts).
   */
  search(queryTerms: readonly string[], limit: number, accept: (path: string) => boolean, options: { readonly exhaustive?: boolean } = {}): TextHit[] {
    const unique = [...new Set(queryTerms)];
    let living = 0;
    let totalLength = 0;
    for (const s of this.segments) {
      s.freeze();
      living += s.chunkCount;
      totalLength += s.totalLength;
    }
    if (unique.length === 0 || living === 0) return [];
    const found: QueryTerm[] = [];
    for (const term of unique) {
      const ranges = this.segments.map((s) => s.range(term));
      let df = 0;
      for (const r of ranges) if (r) df += r[1] - r[0];
      if (df > 0) found.push({ term, df, ranges });
    }
    const query: TopKQuery = {
      segments: this.segments,
      terms: withinBudget(found).map(({ df, ranges }) => ({ idf: Math.log(1 + (living - df + 0.5) / (df + 0.5)), ranges })),
      avgLength: totalLength / living,
      limit,
      accept,
    };
    const ranked = options.exhaustive ? exhaustiveTopK(query) : prunedTopK(query);
    return ranked.map(({ score, path, ordinal, meta }) => ({ path, heading: meta.heading, ordinal, start: meta.start, end: meta.end, score }));
  }
}

/** A query term present in the index: its living chunk count and its postings range in each segment. */
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
