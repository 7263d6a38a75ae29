/**
 * One segment of the text index — the notes of one shard (see `TextIndex`). Its base is a frozen
 * inverted index: a sorted term dictionary, offsets and one packed Int32Array of postings
 * (segment-local chunk id × 256 + weighted term frequency), exactly what its shard stores. Notes
 * written since the last merge go into compact postings — (term number, chunk id × 256 +
 * frequency) pairs in one typed array, the terms numbered by a `TermTable` shared by all
 * segments — so no list of strings per chunk is kept and a note's words are counted as they are
 * read. A removed or replaced note leaves dead chunk ids that searches skip. `freeze` merges base
 * and delta into a new base: runs of the old dictionary and postings are copied whole, the new
 * terms sorted once. It runs before a search, before a flush, and when the delta outgrows half the
 * base, so a building vault holds little more than its frozen size and copies each posting a few
 * times at most.
 */
import { detach } from "./detach";
import { DictionaryBuilder, TermDictionary } from "./term-dictionary";
import type { TermTable } from "./term-table";

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

const MAX_TF = 255;
/** Chunk ids live above the 8 frequency bits of an Int32 posting. */
const MAX_CHUNKS = 1 << 23;
/** A delta smaller than this waits for a search or a flush to merge it, however small the base. */
const DELTA_MIN_POSTINGS = 4096;
const NO_POSTINGS: FrozenPostings = Object.freeze({ terms: TermDictionary.EMPTY, offsets: new Int32Array(1), postings: new Int32Array(0) });

/** The note being written and its chunk that is open. */
interface Writing {
  readonly path: string;
  readonly metas: ChunkMeta[];
  readonly ids: number[];
  open: { heading: string; start: number; end: number; length: number } | null;
  weights: number;
  chunkId: number;
  stamp: number;
}

export class Segment implements ChunkWriter {
  /** Every living note's chunks (without terms). */
  readonly notes = new Map<string, readonly ChunkMeta[]>();
  private base: FrozenPostings = NO_POSTINGS;
  /** By chunk id (the base's, then those written since): its note, ordinal and position. */
  private chunkPath: string[] = [];
  private chunkOrdinal: number[] = [];
  baseMeta: ChunkMeta[] = [];
  /** Base chunk lengths, as a typed array for the scoring loop. */
  baseLength = new Float64Array(0);
  /** Chunk ids below this are in the base postings. */
  private baseChunks = 0;
  private dead = new Uint8Array(0);
  private deadCount = 0;
  /** Each living note's chunk ids, in chunk-id order of the notes (a shard stores them so). */
  private readonly ids = new Map<string, number[]>();
  /** Postings written since the last merge: term number, then chunk id × 256 + frequency. */
  private pairs = new Int32Array(0);
  private pairCount = 0;
  private writing: Writing | null = null;
  totalLength = 0;
  chunkCount = 0;

  constructor(private readonly table: TermTable) {}

  get frozen(): boolean {
    return this.deadCount === 0 && this.chunkPath.length === this.baseChunks;
  }

  /** Whether postings written since the last merge still refer to the term table. */
  get holdsTerms(): boolean {
    return this.pairCount > 0;
  }

  /** Adopts a stored inverted index for `notes` (chunk ids in the order of `notes`). */
  load(notes: readonly { path: string; chunks: readonly ChunkMeta[] }[], frozen: FrozenPostings): void {
    this.notes.clear();
    this.ids.clear();
    this.base = frozen;
    this.chunkPath = [];
    this.chunkOrdinal = [];
    this.baseMeta = [];
    this.totalLength = 0;
    for (const n of notes) {
      this.notes.set(n.path, n.chunks);
      const ids: number[] = [];
      n.chunks.forEach((chunk, ordinal) => {
        ids.push(this.chunkPath.length);
        this.chunkPath.push(n.path);
        this.chunkOrdinal.push(ordinal);
        this.baseMeta.push(chunk);
        this.totalLength += chunk.length;
      });
      this.ids.set(n.path, ids);
    }
    this.dead = new Uint8Array(0);
    this.deadCount = 0;
    this.pairs = new Int32Array(0);
    this.pairCount = 0;
    this.baseChunks = this.chunkPath.length;
    this.chunkCount = this.chunkPath.length;
    this.baseLength = Float64Array.from(this.baseMeta, (m) => m.length);
  }

  /** The frozen postings (merging first), and each base chunk's note, for the shard. */
  stored(): { notes: [string, readonly ChunkMeta[]][]; frozen: FrozenPostings } {
    this.freeze();
    const notes: [string, readonly ChunkMeta[]][] = [];
    for (const [path] of this.ids) notes.push([path, this.notes.get(path) ?? []]);
    return { notes, frozen: this.base };
  }

  /** Replaces a note's chunks with those `feed` writes. */
  write(path: string, feed: (writer: ChunkWriter) => void): void {
    this.remove(path);
    const writing: Writing = { path, metas: [], ids: [], open: null, weights: 0, chunkId: -1, stamp: 0 };
    this.writing = writing;
    try {
      feed(this);
      this.closeChunk(writing);
    } finally {
      this.writing = null;
    }
    this.notes.set(path, writing.metas);
    this.ids.set(path, writing.ids);
    for (const c of writing.metas) this.totalLength += c.length;
    this.chunkCount += writing.metas.length;
    // Merge once the delta outgrows half the base: each merge copies the base, which has grown by half since.
    if (this.pairCount / 2 > Math.max(DELTA_MIN_POSTINGS, this.base.postings.length / 2)) this.freeze();
  }

  chunk(heading: string, start: number, end: number, length?: number): void {
    const writing = this.writing;
    if (!writing) throw new Error("A chunk is written only while a note is.");
    this.closeChunk(writing);
    const id = this.chunkPath.length;
    if (id >= MAX_CHUNKS) throw new RangeError(`A segment holds at most ${MAX_CHUNKS} chunks.`);
    this.chunkPath.push(writing.path);
    this.chunkOrdinal.push(writing.metas.length);
    writing.ids.push(id);
    // Detached: a heading cut from a note would otherwise keep the note's whole text in memory.
    writing.open = { heading: detach(heading), start, end, length: length ?? -1 };
    writing.weights = 0;
    writing.chunkId = id;
    writing.stamp = this.table.nextChunk();
  }

  term(source: string, start: number, end: number, weight: number): void {
    const writing = this.writing;
    if (!writing?.open) throw new Error("A term is written only inside a chunk.");
    writing.weights += weight;
    const table = this.table;
    const term = table.idOf(source, start, end);
    if (table.seenIn[term] === writing.stamp) {
      const at = (table.countAt[term] as number) + 1;
      const packed = this.pairs[at] as number;
      this.pairs[at] = (packed & ~0xff) | Math.min(MAX_TF, (packed & 0xff) + weight);
      return;
    }
    table.seenIn[term] = writing.stamp;
    table.countAt[term] = this.pairCount;
    if (this.pairCount + 2 > this.pairs.length) {
      const grown = new Int32Array(Math.max(1024, this.pairs.length * 2));
      grown.set(this.pairs);
      this.pairs = grown;
    }
    this.pairs[this.pairCount] = term;
    this.pairs[this.pairCount + 1] = writing.chunkId * 256 + Math.min(MAX_TF, Math.max(1, weight));
    this.pairCount += 2;
  }

  private closeChunk(writing: Writing): void {
    const open = writing.open;
    if (!open) return;
    const meta: ChunkMeta = { heading: open.heading, start: open.start, end: open.end, length: open.length >= 0 ? open.length : writing.weights };
    writing.metas.push(meta);
    this.baseMeta.push(meta);
    writing.open = null;
  }

  remove(path: string): boolean {
    const meta = this.notes.get(path);
    if (!meta) return false;
    for (const c of meta) this.totalLength -= c.length;
    this.chunkCount -= meta.length;
    this.notes.delete(path);
    for (const id of this.ids.get(path) ?? []) {
      if (id >= this.dead.length) {
        const grown = new Uint8Array(Math.max(this.chunkPath.length, this.dead.length * 2));
        grown.set(this.dead);
        this.dead = grown;
      }
      this.dead[id] = 1;
      this.deadCount += 1;
    }
    this.ids.delete(path);
    return true;
  }

  /** Merges the delta into the base and drops dead chunks. */
  freeze(): void {
    if (this.frozen) return;
    const remap = this.deadCount > 0 ? this.compact() : null;
    const delta = this.sortedDelta(remap);
    const old = this.base;
    const oldCount = old.terms.size;
    const dictionary = new DictionaryBuilder(old.terms);
    const offsets = new Int32Array(oldCount + delta.terms.length + 1);
    const postings = new Int32Array(old.postings.length + delta.postings.length);
    let terms = 0;
    let at = 0;
    /** Copies old terms [from, to) with their postings, renumbered; a term left without postings goes. */
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
    for (let b = 0; b < delta.terms.length; b++) {
      const term = delta.terms[b] as string;
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
    this.base = { terms: dictionary.build(), offsets: offsets.slice(0, terms + 1), postings: at === postings.length ? postings : postings.slice(0, at) };
    this.baseChunks = this.chunkPath.length;
    this.baseLength = Float64Array.from(this.baseMeta, (m) => m.length);
    this.pairs = new Int32Array(0);
    this.pairCount = 0;
  }

  /** Drops dead chunks: renumbers the living ones in order and returns old id → new id (-1: dead). */
  private compact(): Int32Array {
    const remap = new Int32Array(this.chunkPath.length).fill(-1);
    const paths: string[] = [];
    const ordinals: number[] = [];
    const metas: ChunkMeta[] = [];
    const ids = new Map<string, number[]>();
    for (let id = 0; id < this.chunkPath.length; id++) {
      if (id < this.dead.length && this.dead[id]) continue;
      const path = this.chunkPath[id] as string;
      remap[id] = paths.length;
      let list = ids.get(path);
      if (!list) ids.set(path, (list = []));
      list.push(paths.length);
      paths.push(path);
      ordinals.push(this.chunkOrdinal[id] as number);
      metas.push(this.baseMeta[id] as ChunkMeta);
    }
    // A note without chunks has no ids but is still a note of this segment.
    for (const [path, list] of this.ids) if (list.length === 0) ids.set(path, []);
    this.ids.clear();
    for (const [path, list] of ids) this.ids.set(path, list);
    this.chunkPath = paths;
    this.chunkOrdinal = ordinals;
    this.baseMeta = metas;
    this.dead = new Uint8Array(0);
    this.deadCount = 0;
    return remap;
  }

  /** The delta's living postings grouped by term, terms in the dictionary's order, ids renumbered. */
  private sortedDelta(remap: Int32Array | null): { terms: string[]; starts: Int32Array; postings: Int32Array } {
    const table = this.table;
    const pass = table.nextPass();
    const unique: number[] = [];
    let living = 0;
    for (let p = 0; p < this.pairCount; p += 2) {
      if (remap && (remap[(this.pairs[p + 1] as number) >>> 8] as number) < 0) continue;
      const term = this.pairs[p] as number;
      if (table.mark[term] !== pass) {
        table.mark[term] = pass;
        table.rank[term] = 0;
        unique.push(term);
      }
      table.rank[term] = (table.rank[term] as number) + 1;
      living += 1;
    }
    const terms = unique.map((id) => table.term(id));
    const order = unique.map((_, i) => i).sort((x, y) => ((terms[x] as string) < (terms[y] as string) ? -1 : 1));
    const sortedTerms: string[] = [];
    const starts = new Int32Array(unique.length + 1);
    let at = 0;
    order.forEach((i, k) => {
      const id = unique[i] as number;
      sortedTerms.push(terms[i] as string);
      starts[k] = at;
      at += table.rank[id] as number;
      table.rank[id] = starts[k]; // from here on: where its next posting goes
    });
    starts[unique.length] = at;
    const postings = new Int32Array(living);
    for (let p = 0; p < this.pairCount; p += 2) {
      const packed = this.pairs[p + 1] as number;
      const id = remap ? (remap[packed >>> 8] as number) : packed >>> 8;
      if (id < 0) continue;
      const term = this.pairs[p] as number;
      const slot = table.rank[term] as number;
      postings[slot] = id * 256 + (packed & 0xff);
      table.rank[term] = slot + 1;
    }
    return { terms: sortedTerms, starts, postings };
  }

  postings(): Int32Array {
    return this.base.postings;
  }

  pathOf(id: number): string {
    return this.chunkPath[id] as string;
  }

  ordinalOf(id: number): number {
    return this.chunkOrdinal[id] as number;
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
