/**
 * A segment's sorted terms as UTF-16 code units in one Uint16Array ("term\n" after term) and the
 * offset where each starts: one allocation instead of one string per term, so 256 segments'
 * dictionaries stay small in memory. A shard stores the units as they are, so opening one makes a
 * typed view on its bytes — no text decoding (62 MB of UTF-8 took ~550 ms at 50,000 notes). Terms
 * are compared in place (code units, the order of `<`), so searching and merging never cut the
 * units into strings. A look-up first narrows the range by a sample of the terms' first two code
 * units (see `narrow`).
 */
export class TermDictionary {
  static readonly EMPTY = new TermDictionary(new Uint16Array(0), Int32Array.of(0));
  /** Prefix keys of every SAMPLE_EVERY-th term, made by the first look-up (a dictionary never changes). */
  private samples: Float64Array | null = null;

  /** `starts` has one entry per term plus the units' length. */
  constructor(
    readonly units: Uint16Array,
    readonly starts: Int32Array,
  ) {}

  static from(sorted: readonly string[]): TermDictionary {
    const starts = new Int32Array(sorted.length + 1);
    let at = 0;
    sorted.forEach((term, i) => {
      starts[i] = at;
      at += term.length + 1;
    });
    starts[sorted.length] = at;
    const units = new Uint16Array(at);
    sorted.forEach((term, i) => writeTerm(units, starts[i] as number, term));
    return new TermDictionary(units, starts);
  }

  get size(): number {
    return this.starts.length - 1;
  }

  term(i: number): string {
    return unitsToString(this.units, this.starts[i] as number, (this.starts[i + 1] as number) - 1);
  }

  /** Term i compared with `other`: negative, zero or positive, as `<` would order them. */
  compare(i: number, other: string): number {
    const units = this.units;
    const start = this.starts[i] as number;
    const length = (this.starts[i + 1] as number) - 1 - start;
    const n = Math.min(length, other.length);
    for (let k = 0; k < n; k++) {
      const d = (units[start + k] as number) - other.charCodeAt(k);
      if (d !== 0) return d;
    }
    return length - other.length;
  }

  /** The index of `term`, or -1. */
  find(term: string): number {
    const [from, to] = this.narrow(term);
    let lo = from;
    let hi = to - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const c = this.compare(mid, term);
      if (c === 0) return mid;
      if (c < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /**
   * Indexes [from, to) that hold `term` if the dictionary does, found among the prefix keys of
   * every SAMPLE_EVERY-th term: one small array. A search looks a word up in 256 dictionaries that
   * other work has usually pushed out of the CPU caches, and a binary search over a whole one misses
   * the cache at nearly every step; over the samples, then a few neighbouring terms, far fewer.
   */
  private narrow(term: string): [number, number] {
    const size = this.size;
    if (size <= SAMPLE_EVERY * 4) return [0, size];
    this.samples ??= this.sample();
    const samples = this.samples;
    const key = prefixKey(term.length > 0 ? term.charCodeAt(0) : -1, term.length > 1 ? term.charCodeAt(1) : -1);
    // A sample whose key is below the term's is below the term; one whose key is above, above it.
    let lo = 0;
    let hi = samples.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((samples[mid] as number) < key) lo = mid + 1;
      else hi = mid;
    }
    const from = lo === 0 ? 0 : (lo - 1) * SAMPLE_EVERY + 1;
    hi = samples.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((samples[mid] as number) <= key) lo = mid + 1;
      else hi = mid;
    }
    return [from, lo === samples.length ? size : lo * SAMPLE_EVERY];
  }

  private sample(): Float64Array {
    const units = this.units;
    const samples = new Float64Array(Math.ceil(this.size / SAMPLE_EVERY));
    for (let j = 0; j < samples.length; j++) {
      const start = this.starts[j * SAMPLE_EVERY] as number;
      const end = (this.starts[j * SAMPLE_EVERY + 1] as number) - 1;
      samples[j] = prefixKey(start < end ? (units[start] as number) : -1, start + 1 < end ? (units[start + 1] as number) : -1);
    }
    return samples;
  }

  /** The first index from `from` on whose term is not below `term` (the size when there is none). */
  lowerBound(term: string, from = 0): number {
    let lo = from;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compare(mid, term) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Offsets that fit the units: from 0, rising, each term followed by its newline, ending at the units' end. */
  wellFormed(): boolean {
    const s = this.starts;
    if (s.length === 0 || s[0] !== 0 || s[s.length - 1] !== this.units.length) return false;
    for (let i = 1; i < s.length; i++) {
      const end = s[i] as number;
      if (end <= (s[i - 1] as number) || this.units[end - 1] !== 10) return false;
    }
    return true;
  }
}

/** One term in this many is sampled for `find`. */
const SAMPLE_EVERY = 16;

/**
 * A term's first two UTF-16 code units (-1 where the term has none) as one number that orders as
 * `<` orders the terms: each unit counts one more than its code, so a missing unit (a shorter term) comes first.
 */
function prefixKey(c0: number, c1: number): number {
  return (c0 + 1) * 65537 + (c1 + 1);
}

function writeTerm(units: Uint16Array, at: number, term: string): void {
  for (let k = 0; k < term.length; k++) units[at + k] = term.charCodeAt(k);
  units[at + term.length] = 10;
}

/** Terms are at most MAX_TOKEN units, but a string is made in bounded runs all the same: an argument list has a limit. */
export function unitsToString(units: Uint16Array, from: number, to: number): string {
  let text = "";
  for (let at = from; at < to; at += 4096) text += String.fromCharCode(...units.subarray(at, Math.min(to, at + 4096)));
  return text;
}

/** Builds a dictionary term by term in sorted order, copying runs of an old dictionary's units whole. */
export class DictionaryBuilder {
  private units: Uint16Array;
  private readonly starts: number[] = [];
  private length = 0;
  private runFrom = -1;
  private runTo = -1;

  constructor(private readonly old: TermDictionary) {
    // A merge mostly keeps the old terms and adds a few: room for all of them and some more.
    this.units = new Uint16Array(old.units.length + 1024);
  }

  keepOld(i: number): void {
    if (this.runFrom >= 0 && this.runTo === i) {
      this.runTo = i + 1;
      return;
    }
    this.flush();
    this.runFrom = i;
    this.runTo = i + 1;
  }

  add(term: string): void {
    this.flush();
    this.reserve(term.length + 1);
    this.starts.push(this.length);
    writeTerm(this.units, this.length, term);
    this.length += term.length + 1;
  }

  private reserve(more: number): void {
    if (this.length + more <= this.units.length) return;
    const grown = new Uint16Array(Math.max(this.length + more, this.units.length * 2));
    grown.set(this.units.subarray(0, this.length));
    this.units = grown;
  }

  private flush(): void {
    if (this.runFrom < 0) return;
    const s0 = this.old.starts[this.runFrom] as number;
    const s1 = this.old.starts[this.runTo] as number;
    for (let i = this.runFrom; i < this.runTo; i++) this.starts.push(this.length + (this.old.starts[i] as number) - s0);
    this.reserve(s1 - s0);
    this.units.set(this.old.units.subarray(s0, s1), this.length);
    this.length += s1 - s0;
    this.runFrom = -1;
  }

  build(): TermDictionary {
    this.flush();
    this.starts.push(this.length);
    // An exact copy: the spare room would stay allocated as long as the segment.
    return new TermDictionary(this.units.slice(0, this.length), Int32Array.from(this.starts));
  }
}
