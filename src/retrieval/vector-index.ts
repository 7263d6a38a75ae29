/**
 * The vector backend, in memory: one quantised vector per chunk, keyed by the SHA-256 of the
 * chunk's text and the model id (vector-math.ts `chunkKey`), and a list of those keys per note.
 * Two notes with the same chunk share one vector, and a note whose text comes back (a rename, an
 * undo, a sync that only touched modification times) finds its vectors still here: a vector no note
 * refers to is kept until a `sweep` (at flush) whose caller does not ask to keep it — the vector
 * backend keeps those of removed notes and of an embedding pass's notes (vector-backend.ts).
 */
import { SynapseError } from "../core/errors";
import { normalise, quantise, type QuantisedVector } from "./vector-math";

export interface VectorHit {
  readonly path: string;
  /** The best-matching chunk of the note (0-based, as the text index numbers them). */
  readonly ordinal: number;
  readonly score: number;
}

/** A chunk with no text to embed has this key and no vector. */
export const NO_VECTOR = "";

interface NoteVectors {
  readonly keys: readonly string[];
  /** Each key's slot in the arena (-1 for NO_VECTOR), by ordinal. */
  readonly slots: Int32Array;
  readonly hash: string;
}

/**
 * Vectors live in one packed arena (slot × dimension int8 values, a scale per slot) rather than one
 * small array each: a query then scans memory in order, which is what keeps an exact scan of a
 * 50,000-note vault fast. Freed slots are reused.
 */
export class VectorIndex {
  private readonly slotOf = new Map<string, number>();
  private readonly notes = new Map<string, NoteVectors>();
  private dims: number | null = null;
  private arena = new Int8Array(0);
  private scales = new Float32Array(0);
  private refs = new Int32Array(0);
  private slotCount = 0;
  private readonly free: number[] = [];
  private scores = new Float32Array(0);

  /** The dimension every vector has (fixed by the first one), or null while empty. */
  get dimensions(): number | null {
    return this.dims;
  }

  get noteCount(): number {
    return this.notes.size;
  }

  get vectorCount(): number {
    return this.slotOf.size;
  }

  has(path: string): boolean {
    return this.notes.has(path);
  }

  paths(): IterableIterator<string> {
    return this.notes.keys();
  }

  keysOf(path: string): readonly string[] | undefined {
    return this.notes.get(path)?.keys;
  }

  /** The content hash of the note's text its vectors were made from. */
  hashOf(path: string): string | undefined {
    return this.notes.get(path)?.hash;
  }

  cached(key: string): boolean {
    return this.slotOf.has(key);
  }

  vector(key: string): QuantisedVector | undefined {
    const slot = this.slotOf.get(key);
    if (slot === undefined || this.dims === null) return undefined;
    return { values: this.arena.subarray(slot * this.dims, (slot + 1) * this.dims), scale: this.scales[slot] ?? 0 };
  }

  /** Checks that a vector fits this index: the right dimension and a direction to compare. */
  checkDimensions(length: number): void {
    if (this.dims !== null && length !== this.dims) {
      throw new SynapseError("schema", `The embedding model returned vectors of ${length} dimensions where the index holds ${this.dims}; rebuild the index after changing models.`);
    }
  }

  /** Stores a raw vector from the model under its chunk key. */
  put(key: string, raw: ArrayLike<number>): void {
    if (raw.length === 0) throw new SynapseError("schema", "The embedding model returned an empty vector.");
    this.checkDimensions(raw.length);
    const unit = normalise(raw);
    if (!unit) throw new SynapseError("schema", "The embedding model returned a vector of zeros or of numbers that are not finite.");
    this.putQuantised(key, quantise(unit));
  }

  /** Stores an already quantised vector (from a shard). */
  putQuantised(key: string, vector: QuantisedVector): void {
    this.checkDimensions(vector.values.length);
    if (this.slotOf.has(key)) return;
    const dims = (this.dims ??= vector.values.length);
    const slot = this.free.pop() ?? this.slotCount++;
    if (slot >= this.scales.length) this.grow(Math.max(1024, this.scales.length * 2));
    this.arena.set(vector.values, slot * dims);
    this.scales[slot] = vector.scale;
    this.refs[slot] = 0;
    this.slotOf.set(key, slot);
  }

  private grow(capacity: number): void {
    const dims = this.dims ?? 0;
    const arena = new Int8Array(capacity * dims);
    arena.set(this.arena);
    this.arena = arena;
    const scales = new Float32Array(capacity);
    scales.set(this.scales);
    this.scales = scales;
    const refs = new Int32Array(capacity);
    refs.set(this.refs);
    this.refs = refs;
  }

  /** Gives a note its chunks' keys (by ordinal); every key but NO_VECTOR must be stored already. */
  setNote(path: string, keys: readonly string[], hash: string): void {
    const slots = new Int32Array(keys.length);
    keys.forEach((key, i) => {
      const slot = key === NO_VECTOR ? -1 : this.slotOf.get(key);
      if (slot === undefined) throw new Error(`No vector is stored under ${key}.`);
      slots[i] = slot;
    });
    this.remove(path);
    for (const slot of slots) if (slot >= 0) this.refs[slot] = (this.refs[slot] ?? 0) + 1;
    this.notes.set(path, { keys: [...keys], slots, hash });
  }

  remove(path: string): boolean {
    const note = this.notes.get(path);
    if (!note) return false;
    for (const slot of note.slots) if (slot >= 0) this.refs[slot] = (this.refs[slot] ?? 0) - 1;
    this.notes.delete(path);
    return true;
  }

  /** Forgets vectors no note refers to any more, but those `keep` asks for. */
  sweep(keep: (key: string) => boolean = () => false): number {
    let dropped = 0;
    for (const [key, slot] of this.slotOf) {
      if ((this.refs[slot] ?? 0) <= 0 && !keep(key)) {
        this.slotOf.delete(key);
        this.free.push(slot);
        dropped += 1;
      }
    }
    if (this.slotOf.size === 0) {
      this.dims = null;
      this.free.length = 0;
      this.slotCount = 0;
      this.arena = new Int8Array(0);
      this.scales = new Float32Array(0);
      this.refs = new Int32Array(0);
    }
    return dropped;
  }

  /**
   * The notes whose best chunk is nearest the query by cosine, best first, at most `limit`;
   * `accept` filters by path (scope). Ties go to the path in alphabetical order.
   */
  search(query: ArrayLike<number>, limit: number, accept: (path: string) => boolean): VectorHit[] {
    if (this.notes.size === 0 || this.dims === null) return [];
    this.checkDimensions(query.length);
    const unit = normalise(query);
    if (!unit) return [];
    const dims = this.dims;
    const count = this.slotCount;
    if (this.scores.length < count) this.scores = new Float32Array(this.scales.length);
    const scores = this.scores;
    const arena = this.arena;
    // One pass over the arena in memory order: every slot's cosine with the query.
    // The query is quantised too, so the inner loop is integer multiply-adds (exact in float64 here).
    const q = quantise(unit);
    const qv = q.values;
    const tail = dims - (dims % 4);
    for (let slot = 0, base = 0; slot < count; slot++, base += dims) {
      let dot = 0;
      let i = 0;
      for (; i < tail; i += 4) {
        dot += (qv[i] as number) * (arena[base + i] as number) + (qv[i + 1] as number) * (arena[base + i + 1] as number) + (qv[i + 2] as number) * (arena[base + i + 2] as number) + (qv[i + 3] as number) * (arena[base + i + 3] as number);
      }
      for (; i < dims; i++) dot += (qv[i] as number) * (arena[base + i] as number);
      scores[slot] = dot * q.scale * (this.scales[slot] as number);
    }
    const hits: VectorHit[] = [];
    let floor = -Infinity;
    for (const [path, { slots }] of this.notes) {
      let best = -Infinity;
      let ordinal = 0;
      for (let i = 0; i < slots.length; i++) {
        const slot = slots[i] as number;
        if (slot < 0) continue;
        const score = scores[slot] as number;
        if (score > best) {
          best = score;
          ordinal = i;
        }
      }
      // A chunk pointing away from the query (cosine ≤ 0) is no match at all.
      if (best <= 0 || best < floor || !accept(path)) continue;
      hits.push({ path, ordinal, score: best });
      if (hits.length >= limit * 4) {
        hits.sort(byScore);
        hits.length = limit;
        floor = hits[hits.length - 1]?.score ?? -Infinity;
      }
    }
    hits.sort(byScore);
    return hits.slice(0, limit);
  }
}

function byScore(a: VectorHit, b: VectorHit): number {
  return b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}
