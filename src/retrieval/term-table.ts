/**
 * The terms of the notes being added to the text index, each given a number the first time it is
 * seen, so that a note's words go into compact postings (term number, chunk and frequency in typed
 * arrays) instead of a list of strings per chunk. A word is looked up by its range in the text it
 * was cut from: no string is made for a word the table already holds. Only new terms are copied
 * out, detached from their text. The table is cleared once every segment has merged what it holds.
 */
import { detach } from "../core/detach";

const EMPTY = 0;

export class TermTable {
  /** Open addressing: term number + 1 per slot, 0 when free. */
  private slots = new Int32Array(1 << 12);
  private hashes = new Int32Array(1 << 10);
  private readonly terms: string[] = [];
  /** By term number: the chunk it was last counted in, and where that count lies (see `Segment`). */
  seenIn = new Int32Array(1 << 10);
  countAt = new Int32Array(1 << 10);
  /** By term number: scratch for merging (the merge pass that last met it, and its rank). */
  mark = new Int32Array(1 << 10);
  rank = new Int32Array(1 << 10);
  private chunkStamp = 0;
  private passStamp = 0;
  /** How many times the table was cleared: a term's number holds only within one generation. */
  generation = 0;

  get size(): number {
    return this.terms.length;
  }

  term(id: number): string {
    return this.terms[id] as string;
  }

  /** A number for a chunk about to be counted, never handed out before since the last clear. */
  nextChunk(): number {
    this.chunkStamp += 1;
    return this.chunkStamp;
  }

  /** A number for a merge pass, never handed out before since the last clear. */
  nextPass(): number {
    this.passStamp += 1;
    return this.passStamp;
  }

  /** The number of `term`, or -1 when the table does not hold it. */
  find(term: string): number {
    const h = hashOf(term, 0, term.length);
    const found = this.slotOf(term, 0, term.length, h);
    return found >= 0 ? (this.slots[found] as number) - 1 : -1;
  }

  /** The number of `source.slice(start, end)`, added if new. */
  idOf(source: string, start: number, end: number): number {
    const h = hashOf(source, start, end);
    const found = this.slotOf(source, start, end, h);
    if (found >= 0) return (this.slots[found] as number) - 1;
    const slot = ~found;
    const id = this.terms.length;
    this.terms.push(detach(source.slice(start, end)));
    if (id >= this.hashes.length) this.growIds();
    this.hashes[id] = h;
    this.slots[slot] = id + 1;
    if (this.terms.length * 2 > this.slots.length) this.rehash();
    return id;
  }

  /** The slot holding `source.slice(start, end)`, or ~(the free slot where it would go). */
  private slotOf(source: string, start: number, end: number, h: number): number {
    const mask = this.slots.length - 1;
    let slot = h & mask;
    for (;;) {
      const held = this.slots[slot] as number;
      if (held === EMPTY) return ~slot;
      const id = held - 1;
      if (this.hashes[id] === h && sameText(this.terms[id] as string, source, start, end)) return slot;
      slot = (slot + 1) & mask;
    }
  }

  /** Forgets every term (no segment refers to them any more). */
  clear(): void {
    if (this.terms.length === 0 && this.chunkStamp === 0) return;
    this.generation += 1;
    this.slots = new Int32Array(1 << 12);
    this.hashes = new Int32Array(1 << 10);
    this.terms.length = 0;
    this.seenIn = new Int32Array(1 << 10);
    this.countAt = new Int32Array(1 << 10);
    this.mark = new Int32Array(1 << 10);
    this.rank = new Int32Array(1 << 10);
    this.chunkStamp = 0;
    this.passStamp = 0;
  }

  private growIds(): void {
    const grow = (a: Int32Array) => {
      const b = new Int32Array(a.length * 2);
      b.set(a);
      return b;
    };
    this.hashes = grow(this.hashes);
    this.seenIn = grow(this.seenIn);
    this.countAt = grow(this.countAt);
    this.mark = grow(this.mark);
    this.rank = grow(this.rank);
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let id = 0; id < this.terms.length; id++) {
      let slot = (this.hashes[id] as number) & mask;
      while (slots[slot] !== EMPTY) slot = (slot + 1) & mask;
      slots[slot] = id + 1;
    }
    this.slots = slots;
  }
}

function hashOf(source: string, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ source.charCodeAt(i), 0x01000193);
  return h;
}

function sameText(term: string, source: string, start: number, end: number): boolean {
  if (term.length !== end - start) return false;
  for (let i = 0; i < term.length; i++) if (term.charCodeAt(i) !== source.charCodeAt(start + i)) return false;
  return true;
}
