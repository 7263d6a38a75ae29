/**
 * A segment's chunks, column by column: per chunk id its note, start, end and length in
 * typed arrays, and its heading by reference — into the headings section of the segment's shard
 * (UTF-16 code units, decoded one heading at a time when a hit or a flush asks) or into the
 * strings of chunks written since. A note's chunks are one contiguous run of ids, so a note keeps
 * only its first id and its count, and a chunk's ordinal is its id less its note's first.
 *
 * Why columns: at 50,000 notes a segment per shard holds 435,000 chunks, and an object (plus a
 * heading string) per chunk made the warm start's young-generation scavenges 25–30 ms long, since
 * nearly all of it survives. Typed arrays past a few dozen bytes live off the JS heap.
 */
import type { ChunkMeta } from "./segment";
import { unitsToString } from "./term-dictionary";

/** The chunks' headings as a shard stores them: heading i is units[offsets[i]…offsets[i + 1]). */
export interface HeadingSection {
  readonly units: Uint16Array;
  readonly offsets: Int32Array;
}

/** A shard's chunk columns: each chunk's start, end and length (three Int32s), and its heading. */
export interface StoredChunks {
  readonly ranges: Int32Array;
  readonly headings: HeadingSection;
}

const RANGE_WORDS = 3;
const NO_HEADINGS: HeadingSection = Object.freeze({ units: new Uint16Array(0), offsets: Int32Array.of(0) });

/** The headings of `chunks` as a section: units end to end, offsets one more than the chunks. */
export function headingSection(headings: readonly string[]): HeadingSection {
  const offsets = new Int32Array(headings.length + 1);
  let at = 0;
  headings.forEach((h, i) => {
    offsets[i] = at;
    at += h.length;
  });
  offsets[headings.length] = at;
  const units = new Uint16Array(at);
  headings.forEach((h, i) => {
    const from = offsets[i] as number;
    for (let k = 0; k < h.length; k++) units[from + k] = h.charCodeAt(k);
  });
  return { units, offsets };
}

/** Columns of chunks given as objects, in order (a shard made from objects: tests and tools). */
export function chunkColumns(chunks: readonly ChunkMeta[]): StoredChunks {
  const ranges = new Int32Array(RANGE_WORDS * chunks.length);
  chunks.forEach((c, i) => {
    ranges[RANGE_WORDS * i] = c.start;
    ranges[RANGE_WORDS * i + 1] = c.end;
    ranges[RANGE_WORDS * i + 2] = c.length;
  });
  return { ranges, headings: headingSection(chunks.map((c) => c.heading)) };
}

/** Whether a section's offsets start at 0, never fall, and end at its units' length, for `count` chunks. */
export function headingsWellFormed(section: HeadingSection, count: number): boolean {
  const { offsets, units } = section;
  if (offsets.length !== count + 1 || offsets[0] !== 0 || offsets[count] !== units.length) return false;
  for (let i = 0; i < count; i++) if ((offsets[i] as number) > (offsets[i + 1] as number)) return false;
  return true;
}

export function headingAt(section: HeadingSection, i: number): string {
  return unitsToString(section.units, section.offsets[i] as number, section.offsets[i + 1] as number);
}

/** The living chunks renumbered in order: old id → new id (-1: dead), and the segment's new chunk table. */
export interface Compaction {
  readonly remap: Int32Array;
  readonly table: ChunkTable;
}

/** A note's chunk ids: first…first + count. */
export interface ChunkRun {
  readonly first: number;
  readonly count: number;
}

export class ChunkTable {
  /** Chunk ids in use, living and dead. */
  size = 0;
  /** Lengths by chunk id, for the scoring loop (longer than `size`: room to grow). */
  lengths = new Float64Array(0);
  private slot = new Int32Array(0);
  private start = new Int32Array(0);
  private end = new Int32Array(0);
  /** ≥ 0: the heading's index in `stored`; < 0: `~ref` indexes `written`. */
  private headingRef = new Int32Array(0);
  private stored: HeadingSection = NO_HEADINGS;
  private written: string[] = [];
  /** Living notes by path, in chunk-id order (a note written is one added last); values index the slot columns. */
  private readonly slots = new Map<string, number>();
  private slotPath: string[] = [];
  private slotFirst = new Int32Array(0);
  private slotCount = new Int32Array(0);

  /** Adopts a shard's chunks, ids in the order of `notes` (whose counts must add up to the columns'). */
  load(notes: readonly { readonly path: string; readonly chunkCount: number }[], chunks: StoredChunks): void {
    const size = chunks.ranges.length / RANGE_WORDS;
    this.clear();
    this.reserve(size);
    this.reserveSlots(notes.length);
    const ranges = chunks.ranges;
    for (let id = 0; id < size; id++) {
      this.start[id] = ranges[RANGE_WORDS * id] as number;
      this.end[id] = ranges[RANGE_WORDS * id + 1] as number;
      this.lengths[id] = ranges[RANGE_WORDS * id + 2] as number;
      this.headingRef[id] = id;
    }
    let id = 0;
    for (const n of notes) {
      const s = this.addSlot(n.path, id);
      for (let k = 0; k < n.chunkCount; k++, id++) this.slot[id] = s;
      this.slotCount[s] = n.chunkCount;
    }
    if (id !== size) throw new RangeError("The notes' chunk counts disagree with the chunks.");
    this.size = size;
    this.stored = chunks.headings;
  }

  private clear(): void {
    this.size = 0;
    this.stored = NO_HEADINGS;
    this.written = [];
    this.slots.clear();
    this.slotPath = [];
  }

  has(path: string): boolean {
    return this.slots.has(path);
  }

  /** Living notes in chunk-id order. */
  paths(): IterableIterator<string> {
    return this.slots.keys();
  }

  runOf(path: string): ChunkRun | null {
    const s = this.slots.get(path);
    return s === undefined ? null : { first: this.slotFirst[s] as number, count: this.slotCount[s] as number };
  }

  /** Starts a note (after `remove` of any earlier one): its chunks are the next ones added. */
  addNote(path: string): void {
    if (this.slots.has(path)) throw new Error(`${path} is already in the segment.`);
    this.reserveSlots(this.slotPath.length + 1);
    this.addSlot(path, this.size);
  }

  /** Adds a chunk to the note added last; its length is set by `setLength` once known. Returns its id. */
  addChunk(heading: string, start: number, end: number): number {
    const s = this.slotPath.length - 1;
    const id = this.size;
    this.reserve(id + 1);
    this.slot[id] = s;
    this.start[id] = start;
    this.end[id] = end;
    this.lengths[id] = 0;
    this.headingRef[id] = ~this.written.length;
    this.written.push(heading);
    this.slotCount[s] = (this.slotCount[s] as number) + 1;
    this.size = id + 1;
    return id;
  }

  setLength(id: number, length: number): void {
    this.lengths[id] = length;
  }

  /** Forgets a note (its chunk ids stay, dead, until a compaction); its run, or null when absent. */
  remove(path: string): ChunkRun | null {
    const run = this.runOf(path);
    if (run) this.slots.delete(path);
    return run;
  }

  pathOf(id: number): string {
    return this.slotPath[this.slot[id] as number] as string;
  }

  ordinalOf(id: number): number {
    return id - (this.slotFirst[this.slot[id] as number] as number);
  }

  headingOf(id: number): string {
    const ref = this.headingRef[id] as number;
    return ref >= 0 ? headingAt(this.stored, ref) : (this.written[~ref] as string);
  }

  metaOf(id: number): ChunkMeta {
    return { heading: this.headingOf(id), start: this.start[id] as number, end: this.end[id] as number, length: this.lengths[id] as number };
  }

  /** A note's chunks as objects, made now (for a hit or a flush: a few notes at a time). */
  chunksOf(path: string): ChunkMeta[] {
    const run = this.runOf(path);
    if (!run) return [];
    const out: ChunkMeta[] = [];
    for (let id = run.first; id < run.first + run.count; id++) out.push(this.metaOf(id));
    return out;
  }

  /** Sum of the lengths of ids first…first + count. */
  lengthOf(run: ChunkRun): number {
    let sum = 0;
    for (let id = run.first; id < run.first + run.count; id++) sum += this.lengths[id] as number;
    return sum;
  }

  /**
   * Chunk ids 0…size as a shard stores them: ranges and a headings section, copied from the columns
   * (stored headings unit by unit, written ones from their strings) — no object or string per chunk.
   * For a table with no dead chunks (a frozen segment's).
   */
  storedChunks(): StoredChunks {
    const ranges = new Int32Array(RANGE_WORDS * this.size);
    for (let id = 0; id < this.size; id++) {
      ranges[RANGE_WORDS * id] = this.start[id] as number;
      ranges[RANGE_WORDS * id + 1] = this.end[id] as number;
      ranges[RANGE_WORDS * id + 2] = this.lengths[id] as number;
    }
    return { ranges, headings: this.headingsSection() };
  }

  /** The headings of chunk ids 0…size as one section. */
  private headingsSection(): HeadingSection {
    const offsets = new Int32Array(this.size + 1);
    let at = 0;
    for (let id = 0; id < this.size; id++) {
      offsets[id] = at;
      const ref = this.headingRef[id] as number;
      at += ref >= 0 ? (this.stored.offsets[ref + 1] as number) - (this.stored.offsets[ref] as number) : (this.written[~ref] as string).length;
    }
    offsets[this.size] = at;
    const units = new Uint16Array(at);
    const from = this.stored.units;
    for (let id = 0; id < this.size; id++) {
      let to = offsets[id] as number;
      const ref = this.headingRef[id] as number;
      if (ref >= 0) {
        for (let u = this.stored.offsets[ref] as number, end = this.stored.offsets[ref + 1] as number; u < end; u++) units[to++] = from[u] as number;
      } else {
        const heading = this.written[~ref] as string;
        for (let k = 0; k < heading.length; k++) units[to++] = heading.charCodeAt(k);
      }
    }
    return { units, offsets };
  }

  /**
   * Moves every heading into a section of the table's own, ids one to one (a table without dead
   * chunks: a merge that dropped none, or a compaction's new table): the loaded shard's bytes the
   * old section viewed are then released with the base the merge replaced, and written headings
   * stop being strings.
   */
  ownHeadings(): void {
    this.stored = this.headingsSection();
    for (let id = 0; id < this.size; id++) this.headingRef[id] = id;
    this.written = [];
  }

  /** Each living note's path and chunk count, in chunk-id order. */
  noteCounts(): [string, number][] {
    const out: [string, number][] = [];
    for (const [path, s] of this.slots) out.push([path, this.slotCount[s] as number]);
    return out;
  }

  /**
   * The living notes' chunks renumbered in order, dead ones (removed notes') dropped, as a new table
   * (its headings one new section), and old id → new id (-1: dead). Notes keep their order, which is their runs' order, so ids keep
   * theirs and each note stays one run. This table is left as it is: a merge adopts the new one in
   * its last piece.
   */
  compacted(): Compaction {
    const remap = new Int32Array(this.size).fill(-1);
    const next = new ChunkTable();
    next.stored = this.stored;
    // Room for a few more notes: a segment compacted by a flush is usually written again soon.
    next.reserve(this.size + Math.max(16, this.size >> 3));
    next.reserveSlots(this.slots.size + 8);
    let previousEnd = 0;
    for (const [path, old] of this.slots) {
      const first = this.slotFirst[old] as number;
      const count = this.slotCount[old] as number;
      if (first < previousEnd) throw new Error("A segment's notes are out of chunk order.");
      previousEnd = first + count;
      const s = next.addSlot(path, next.size);
      for (let id = first; id < first + count; id++) {
        const to = next.size;
        next.slot[to] = s;
        next.start[to] = this.start[id] as number;
        next.end[to] = this.end[id] as number;
        next.lengths[to] = this.lengths[id] as number;
        const ref = this.headingRef[id] as number;
        if (ref >= 0) next.headingRef[to] = ref;
        else {
          next.headingRef[to] = ~next.written.length;
          next.written.push(this.written[~ref] as string);
        }
        remap[id] = to;
        next.size = to + 1;
      }
      next.slotCount[s] = count;
    }
    // The living headings in a section of their own: the shard's bytes the old one viewed are
    // released (the merged base no longer views them), and written headings stop being strings.
    next.ownHeadings();
    return { remap, table: next };
  }

  private addSlot(path: string, first: number): number {
    const s = this.slotPath.length;
    this.slotPath.push(path);
    this.slotFirst[s] = first;
    this.slotCount[s] = 0;
    this.slots.set(path, s);
    return s;
  }

  /** Room for `count` chunk ids (capacity doubles, so appending stays cheap). */
  private reserve(count: number): void {
    if (count <= this.slot.length) return;
    const capacity = Math.max(count, 2 * this.slot.length, 16);
    this.slot = grown(this.slot, capacity, this.size);
    this.start = grown(this.start, capacity, this.size);
    this.end = grown(this.end, capacity, this.size);
    this.headingRef = grown(this.headingRef, capacity, this.size);
    const lengths = new Float64Array(capacity);
    lengths.set(this.lengths.subarray(0, this.size));
    this.lengths = lengths;
  }

  private reserveSlots(count: number): void {
    if (count <= this.slotFirst.length) return;
    const capacity = Math.max(count, 2 * this.slotFirst.length, 8);
    this.slotFirst = grown(this.slotFirst, capacity, this.slotPath.length);
    this.slotCount = grown(this.slotCount, capacity, this.slotPath.length);
  }
}

function grown(column: Int32Array, capacity: number, used: number): Int32Array<ArrayBuffer> {
  const next = new Int32Array(capacity);
  next.set(column.subarray(0, used));
  return next;
}
