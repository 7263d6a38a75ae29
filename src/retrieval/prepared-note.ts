/**
 * A note's words counted ahead of writing them into the index. Tokenising a large note takes tens
 * of milliseconds (a 512 KB note about 80,000 words), too long for one step on Obsidian's main
 * thread: `countNoteTerms` counts each chunk's terms in pieces (time-slice.ts), and `replay` then
 * writes the counts into the index in one short step — one call per distinct term of a chunk, not
 * per word — so the index never holds a half-written note.
 */
import type { ParsedNote } from "./chunker";
import { noteTermPieces } from "./note-terms";
import type { ChunkWriter } from "./segment";
import type { Pieces } from "./time-slice";

/** A chunk's position, heading and its terms' summed weights (the length is their sum). */
export interface CountedChunk {
  readonly heading: string;
  readonly start: number;
  readonly end: number;
  readonly terms: ReadonlyMap<string, number>;
}

/** Collects what `noteTermPieces` writes, term by term, per chunk. */
class TermCounter implements ChunkWriter {
  readonly chunks: CountedChunk[] = [];
  private terms: Map<string, number> | null = null;

  chunk(heading: string, start: number, end: number): void {
    this.terms = new Map();
    this.chunks.push({ heading, start, end, terms: this.terms });
  }

  term(source: string, start: number, end: number, weight: number): void {
    const terms = this.terms;
    if (!terms) throw new Error("A term is counted only inside a chunk.");
    const term = start === 0 && end === source.length ? source : source.slice(start, end);
    terms.set(term, (terms.get(term) ?? 0) + weight);
  }
}

/** Counts a parsed note's terms per chunk, in pieces of about PIECE_CHARS of text. */
export function* countNoteTerms(markdown: string, parsed: ParsedNote): Pieces<readonly CountedChunk[]> {
  const counter = new TermCounter();
  yield* noteTermPieces(markdown, parsed, counter);
  return counter.chunks;
}

/** Writes counted chunks as `writeNoteTerms` would have written the words they were counted from. */
export function replay(chunks: readonly CountedChunk[], writer: ChunkWriter): void {
  for (const chunk of chunks) {
    writer.chunk(chunk.heading, chunk.start, chunk.end);
    for (const [term, weight] of chunk.terms) writer.term(term, 0, term.length, weight);
  }
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
