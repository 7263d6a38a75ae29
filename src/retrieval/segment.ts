/**
 * One segment of the text index — the notes of one shard (see `TextIndex`). Its base is a frozen
 * inverted index: a sorted term dictionary, offsets and one packed Int32Array of postings
 * (segment-local chunk id × 256 + weighted term frequency), exactly what its shard stores. Notes
 * written since the last merge go into a delta of compact postings (segment-delta.ts). A removed
 * or replaced note leaves dead chunk ids, masked wherever they are read (dead-chunks.ts).
 *
 * A search reads the base as it is (dead chunks masked, their postings subtracted from document
 * frequencies) plus the delta grouped by term — work that grows with the delta, not the segment —
 * so a one-note update is searchable without rebuilding the segment. `freeze` merges base and
 * delta into a new base (segment-merge.ts): before a flush (the shard stores the base), when a
 * building segment's delta outgrows half its base, and when a search finds the delta or the dead
 * chunks past a bound — so each posting is copied a few times at most, and the delta a search
 * groups stays small.
 */
import { ChunkTable, type Compaction, type StoredChunks } from "./chunk-table";
import { DeadChunks } from "./dead-chunks";
import { detach } from "../core/detach";
import { SegmentDelta } from "./segment-delta";
import { mergeFrozen } from "./segment-merge";
import { TermDictionary } from "./term-dictionary";
import type { TermTable } from "./term-table";
import type { ScoredSegment } from "./top-k";

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

/** How a note's words reach the index: chunk by chunk, each word by its range in some text. */
export interface ChunkWriter {
  /** Starts the note's next chunk; `length` replaces the sum of its words' weights when given. */
  chunk(heading: string, start: number, end: number, length?: number): void;
  /** Counts `source.slice(start, end)` `weight` more times in the current chunk. */
  term(source: string, start: number, end: number, weight: number): void;
}

/** A ChunkWriter that also takes terms already numbered by the index's TermTable (counted ahead, prepared-note.ts). */
export interface NumberedChunkWriter extends ChunkWriter {
  /** Counts the term numbered `id` `weight` more times in the current chunk. */
  numbered(id: number, weight: number): void;
}

/** A segment as its shard stores it: the frozen postings and the chunks' columns. */
export interface StoredSegment extends FrozenPostings {
  readonly chunks: StoredChunks;
}

/** A note as a shard lists it: its chunks are the next `chunkCount` ids. */
export interface StoredNoteChunks {
  readonly path: string;
  readonly chunkCount: number;
}

/** Where a query term's postings lie in a segment — base and delta — and how many living chunks hold it. */
export interface TermPlan {
  readonly base: readonly [number, number] | null;
  readonly delta: readonly [number, number] | null;
  readonly df: number;
}

/** Chunk ids live above the 8 frequency bits of an Int32 posting. */
const MAX_CHUNKS = 1 << 23;
/** A delta smaller than this is never merged for its size alone, however small the base. */
const DELTA_MIN_POSTINGS = 4096;
/** A search merges a segment whose delta holds more than this share of its base's postings … */
const SEARCH_DELTA_SHARE = 1 / 8;
/** … or more dead base chunks than this share of them (and than DEAD_MIN). */
const SEARCH_DEAD_SHARE = 1 / 8;
const DEAD_MIN = 64;
const NO_POSTINGS: FrozenPostings = Object.freeze({ terms: TermDictionary.EMPTY, offsets: new Int32Array(1), postings: new Int32Array(0) });

/** The note being written and its chunk that is open (-1: none), with the length given for it (-1: its words' weights). */
interface Writing {
  open: number;
  length: number;
  weights: number;
  stamp: number;
}

export class Segment implements NumberedChunkWriter, ScoredSegment {
  private base: FrozenPostings = NO_POSTINGS;
  /** By chunk id (the base's, then those written since): its note, ordinal, position, length and heading; each living note's run of ids. */
  private chunks = new ChunkTable();
  /** Chunk ids below this are in the base postings. */
  private baseChunks = 0;
  private readonly dead = new DeadChunks();
  private readonly delta: SegmentDelta;
  private writing: Writing | null = null;
  totalLength = 0;
  chunkCount = 0;

  constructor(private readonly table: TermTable) {
    this.delta = new SegmentDelta(table);
  }

  get frozen(): boolean {
    return this.dead.count === 0 && this.chunks.size === this.baseChunks;
  }

  /** Would the next search merge this segment first (see `prepareSearch`)? `compact` merges it ahead. */
  get searchWantsMerge(): boolean {
    return !this.frozen && this.pastSearchBound();
  }

  private pastSearchBound(): boolean {
    return this.delta.postingCount > Math.max(DELTA_MIN_POSTINGS, this.base.postings.length * SEARCH_DELTA_SHARE) || this.dead.inBase.length > Math.max(DEAD_MIN, this.baseChunks * SEARCH_DEAD_SHARE);
  }

  private mergeBound(): number {
    return Math.max(DELTA_MIN_POSTINGS, this.base.postings.length / 2);
  }

  /** Whether postings written since the last merge still refer to the term table. */
  get holdsTerms(): boolean {
    return !this.delta.empty;
  }

  /** Dead base chunks, which a search of the base skips (null when there are none). */
  get skip(): Uint8Array | null {
    return this.dead.inBase.length > 0 ? this.dead.mask : null;
  }

  /** Chunk lengths by id, as a typed array for the scoring loop (may be longer than the chunks). */
  get lengths(): Float64Array {
    return this.chunks.lengths;
  }

  /** Adopts a stored inverted index for `notes` (chunk ids in the order of `notes`). */
  load(notes: readonly StoredNoteChunks[], stored: StoredSegment): void {
    this.base = { terms: stored.terms, offsets: stored.offsets, postings: stored.postings };
    this.chunks.load(notes, stored.chunks);
    this.dead.clear();
    this.delta.clear();
    this.baseChunks = this.chunks.size;
    this.chunkCount = this.chunks.size;
    this.totalLength = this.chunks.lengthOf({ first: 0, count: this.chunks.size });
  }

  has(path: string): boolean {
    return this.chunks.has(path);
  }

  /** Living notes, in chunk-id order. */
  paths(): IterableIterator<string> {
    return this.chunks.paths();
  }

  /** A note's chunks (without terms), made now: for a few hits or one shard's notes at a time. */
  chunksOf(path: string): ChunkMeta[] {
    return this.chunks.chunksOf(path);
  }

  /** The segment as its shard stores it (merging first): each note's path and chunk count, in chunk-id order, the postings and the chunks' columns. */
  stored(): { notes: [string, number][]; frozen: StoredSegment } {
    this.freeze();
    return { notes: this.chunks.noteCounts(), frozen: { ...this.base, chunks: this.chunks.storedChunks() } };
  }

  /** Replaces a note's chunks with those `feed` writes. */
  write(path: string, feed: (writer: NumberedChunkWriter) => void): void {
    this.remove(path);
    const writing: Writing = { open: -1, length: -1, weights: 0, stamp: 0 };
    const first = this.chunks.size;
    this.chunks.addNote(path);
    this.writing = writing;
    this.delta.invalidate();
    let written = false;
    try {
      feed(this);
      this.closeChunk(writing);
      written = true;
    } finally {
      this.writing = null;
      const run = { first, count: this.chunks.size - first };
      this.totalLength += this.chunks.lengthOf(run);
      this.chunkCount += run.count;
      // A note whose feed failed leaves no living chunk behind.
      if (!written) this.remove(path);
    }
    // A building segment merges once its delta outgrows half the base (each merge copies the base,
    // which has grown by half since), so each posting is copied a few times at most.
    if (this.delta.postingCount > this.mergeBound()) this.freeze();
  }

  chunk(heading: string, start: number, end: number, length?: number): void {
    const writing = this.writing;
    if (!writing) throw new Error("A chunk is written only while a note is.");
    this.closeChunk(writing);
    if (this.chunks.size >= MAX_CHUNKS) throw new RangeError(`A segment holds at most ${MAX_CHUNKS} chunks.`);
    // Detached: a heading cut from a note would otherwise keep the note's whole text in memory.
    writing.open = this.chunks.addChunk(detach(heading), start, end);
    writing.length = length ?? -1;
    writing.weights = 0;
    writing.stamp = this.table.nextChunk();
  }

  term(source: string, start: number, end: number, weight: number): void {
    this.numbered(this.table.idOf(source, start, end), weight);
  }

  numbered(id: number, weight: number): void {
    const writing = this.writing;
    if (!writing || writing.open < 0) throw new Error("A term is written only inside a chunk.");
    writing.weights += weight;
    this.delta.add(id, writing.open, writing.stamp, weight);
  }

  private closeChunk(writing: Writing): void {
    if (writing.open < 0) return;
    this.chunks.setLength(writing.open, writing.length >= 0 ? writing.length : writing.weights);
    writing.open = -1;
  }

  remove(path: string): boolean {
    const run = this.chunks.remove(path);
    if (!run) return false;
    this.totalLength -= this.chunks.lengthOf(run);
    this.chunkCount -= run.count;
    this.delta.invalidate();
    for (let id = run.first; id < run.first + run.count; id++) this.dead.kill(id, this.chunks.size, id < this.baseChunks);
    return true;
  }

  /** Merges the delta into the base and drops dead chunks. */
  freeze(): void {
    if (this.frozen) return;
    const compaction = this.dead.count > 0 ? this.chunks.compacted() : null;
    const remap = compaction?.remap ?? null;
    const delta = this.delta.groupForMerge(remap ? { remap } : { dead: this.dead.mask });
    const base = mergeFrozen(this.base, this.table, delta, remap);
    if (compaction) this.compact(compaction);
    // Nothing dropped: the table's headings still view the loaded shard, which would stay in memory for them.
    else this.chunks.ownHeadings();
    this.base = base;
    this.baseChunks = this.chunks.size;
    this.delta.clear();
  }

  /**
   * Makes the segment readable by `plan` and the scorers: merges it when the delta or the dead
   * chunks have passed their bound (so what a search groups stays small), else groups the delta.
   */
  prepareSearch(): void {
    if (this.frozen) return;
    if (this.pastSearchBound()) {
      this.freeze();
      return;
    }
    this.delta.groupForSearch(this.dead.mask);
  }

  /** Adopts a compaction's tables (with the merged base that matches them). */
  private compact(plan: Compaction): void {
    this.chunks = plan.table;
    this.dead.clear();
  }

  /**
   * Where `term` (numbered `termId` in the term table, -1 when it holds no such term) lies in the
   * base and the grouped delta, and its document frequency over living chunks — what a rebuilt
   * segment would count. Call `prepareSearch` first.
   */
  plan(term: string, termId: number): TermPlan | null {
    const i = this.base.terms.find(term);
    const base: [number, number] | null = i >= 0 ? [this.base.offsets[i] as number, this.base.offsets[i + 1] as number] : null;
    const delta = termId >= 0 ? this.delta.range(termId) : null;
    const df = (base ? base[1] - base[0] - this.dead.within(this.base.postings, base[0], base[1]) : 0) + (delta ? delta[1] - delta[0] : 0);
    return base || delta ? { base, delta, df } : null;
  }

  /** The grouped delta as something the scorers read (its dead chunks are already left out), or null. */
  deltaScorer(): ScoredSegment | null {
    const postings = this.delta.groupedPostings;
    if (!postings) return null;
    return {
      postings: () => postings,
      lengths: this.lengths,
      skip: null,
      pathOf: (local) => this.pathOf(local),
      ordinalOf: (local) => this.ordinalOf(local),
      metaOf: (local) => this.metaOf(local),
    };
  }

  postings(): Int32Array {
    return this.base.postings;
  }

  pathOf(id: number): string {
    return this.chunks.pathOf(id);
  }

  ordinalOf(id: number): number {
    return this.chunks.ordinalOf(id);
  }

  metaOf(id: number): ChunkMeta {
    return this.chunks.metaOf(id);
  }

  termCount(): number {
    this.freeze();
    return this.base.terms.size;
  }
}
