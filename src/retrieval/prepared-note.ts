/**
 * A note's words counted ahead of writing them into the index. Tokenising a large note takes tens
 * of milliseconds (a 512 KB note about 80,000 words), too long for one step on Obsidian's main
 * thread: `countNoteTerms` counts each chunk's terms in pieces (core/time-slice.ts), numbering them by the
 * index's TermTable as it goes, and `CountedNote.write` then writes the counts into the index in one
 * short step — one call per distinct term of a chunk, by number, not per word, and no term looked up
 * again — so the index never holds a half-written note. A term numbered for a preparation that is
 * never committed only waits in the table until the table is next cleared.
 */
import type { ParsedNote } from "./chunks";
import { noteTermPieces, writeNoteTerms } from "./note-terms";
import type { ChunkWriter, NumberedChunkWriter } from "./segment";
import type { TermTable } from "./term-table";
import type { Pieces } from "../core/time-slice";

/** A note's chunks with their terms counted, by number: what the commit writes. */
export interface CountedNote {
  /** Writes the counts as `writeNoteTerms` would have written the words they were counted from. */
  write(writer: NumberedChunkWriter): void;
}

const grown = (a: Int32Array<ArrayBuffer>, size: number): Int32Array<ArrayBuffer> => {
  if (size <= a.length) return a;
  const b = new Int32Array(Math.max(size, a.length * 2));
  b.set(a);
  return b;
};

/** Collects what `noteTermPieces` writes: per chunk, each distinct term's number and summed weight. */
class TermCounter implements ChunkWriter {
  readonly generation: number;
  private readonly chunks: { readonly heading: string; readonly start: number; readonly end: number; readonly from: number }[] = [];
  /** The counted terms, chunk after chunk: numbers and weights (summed per chunk, as the segment sums them). */
  private ids = new Int32Array(1024);
  private weights = new Float64Array(1024);
  private count = 0;
  /** By term number: the chunk (1-based) it was last counted in, and where its count lies. */
  private seenIn = new Int32Array(1024);
  private at = new Int32Array(1024);

  constructor(private readonly table: TermTable) {
    this.generation = table.generation;
  }

  chunk(heading: string, start: number, end: number): void {
    this.chunks.push({ heading, start, end, from: this.count });
  }

  term(source: string, start: number, end: number, weight: number): void {
    const chunk = this.chunks.length;
    if (chunk === 0) throw new Error("A term is counted only inside a chunk.");
    const id = this.table.idOf(source, start, end);
    if (id >= this.seenIn.length) {
      this.seenIn = grown(this.seenIn, id + 1);
      this.at = grown(this.at, id + 1);
    }
    if (this.seenIn[id] === chunk) {
      const at = this.at[id] as number;
      this.weights[at] = (this.weights[at] as number) + weight;
      return;
    }
    this.seenIn[id] = chunk;
    this.at[id] = this.count;
    if (this.count === this.ids.length) {
      this.ids = grown(this.ids, this.count + 1);
      const weights = new Float64Array(this.ids.length);
      weights.set(this.weights);
      this.weights = weights;
    }
    this.ids[this.count] = id;
    this.weights[this.count] = weight;
    this.count += 1;
  }

  /** Writes the counts by number: valid only while the table is of the generation they were counted in. */
  replay(writer: NumberedChunkWriter): void {
    this.chunks.forEach((chunk, i) => {
      writer.chunk(chunk.heading, chunk.start, chunk.end);
      const to = this.chunks[i + 1]?.from ?? this.count;
      for (let p = chunk.from; p < to; p++) writer.numbered(this.ids[p] as number, this.weights[p] as number);
    });
  }
}

/** Times a note is counted again when the term table was cleared while it was being counted. */
const RECOUNTS = 2;

/**
 * Counts a parsed note's terms per chunk, numbered by `table`, in pieces of about PIECE_CHARS of
 * text. The numbers hold until the table is cleared (after a flush, when no segment refers to it):
 * cleared while counting, the note is counted again; cleared after, its commit writes the note from
 * its text in one step, as a small note's commit does — correct, only longer, and rare.
 */
export function* countNoteTerms(markdown: string, parsed: ParsedNote, table: TermTable): Pieces<CountedNote> {
  let counter = new TermCounter(table);
  for (let tries = 0; ; tries++) {
    yield* noteTermPieces(markdown, parsed, counter);
    if (counter.generation === table.generation || tries === RECOUNTS) break;
    yield;
    counter = new TermCounter(table);
  }
  const counted = counter;
  return {
    write: (writer) => (counted.generation === table.generation ? counted.replay(writer) : writeNoteTerms(markdown, parsed, writer)),
  };
}

/** Edits remembered; past this the record is cleared, and preparations begun before are stale. */
const EDITS_REMEMBERED = 4096;

/** Which note was written or removed after a preparation began (a note's edit count, bounded). */
export class EditLog {
  private count = 0;
  private readonly at = new Map<string, number>();
  /** Edits up to this one may be forgotten. */
  private forgottenUpTo = 0;

  /** The stamp of a preparation beginning now. */
  stamp(): number {
    return this.count;
  }

  edited(path: string): void {
    if (this.at.size >= EDITS_REMEMBERED) {
      this.at.clear();
      this.forgottenUpTo = this.count;
    }
    this.count += 1;
    this.at.set(path, this.count);
  }

  /** Was `path` written or removed since `stamp` (or might it have been: the record was cleared since)? */
  since(path: string, stamp: number): boolean {
    return stamp < this.forgottenUpTo || (this.at.get(path) ?? 0) > stamp;
  }
}
