/**
 * A segment's sorted terms as one string ("term\n" after term) and the offset where each starts:
 * one allocation instead of one string per term, so 256 segments' dictionaries stay small in memory
 * and load with a single decode. Terms are compared in place (UTF-16 code units, the order of `<`),
 * so searching and merging never cut the text into pieces. A look-up first narrows the range by
 * a sample of the terms' first two code units (see `narrow`).
 */
export class TermDictionary {
  static readonly EMPTY = new TermDictionary("", Int32Array.of(0));
  /** Prefix keys of every SAMPLE_EVERY-th term, made by the first look-up (a dictionary never changes). */
  private samples: Float64Array | null = null;

  /** `starts` has one entry per term plus the text's length. */
  constructor(
    readonly text: string,
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
    return new TermDictionary(sorted.map((t) => `${t}\n`).join(""), starts);
  }

  get size(): number {
    return this.starts.length - 1;
  }

  term(i: number): string {
    return this.text.slice(this.starts[i], (this.starts[i + 1] as number) - 1);
  }

  /** Term i compared with `other`: negative, zero or positive, as `<` would order them. */
  compare(i: number, other: string): number {
    const start = this.starts[i] as number;
    const length = (this.starts[i + 1] as number) - 1 - start;
    const n = Math.min(length, other.length);
    for (let k = 0; k < n; k++) {
      const d = this.text.charCodeAt(start + k) - other.charCodeAt(k);
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
    const key = prefixKey(term, 0, term.length);
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
    const samples = new Float64Array(Math.ceil(this.size / SAMPLE_EVERY));
    for (let j = 0; j < samples.length; j++) {
      const i = j * SAMPLE_EVERY;
      samples[j] = prefixKey(this.text, this.starts[i] as number, (this.starts[i + 1] as number) - 1);
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

  /** Offsets that fit the text: from 0, rising, each term followed by its newline, ending at the text's end. */
  wellFormed(): boolean {
    const s = this.starts;
    if (s.length === 0 || s[0] !== 0 || s[s.length - 1] !== this.text.length) return false;
    for (let i = 1; i < s.length; i++) {
      const end = s[i] as number;
      if (end <= (s[i - 1] as number) || this.text.charCodeAt(end - 1) !== 10) return false;
    }
    return true;
  }
}

/** One term in this many is sampled for `find`. */
const SAMPLE_EVERY = 16;

/**
 * The first two UTF-16 code units of `text[start, end)` as one number that orders as `<` orders the
 * strings: each unit counts one more than its code, so a missing unit (a shorter term) comes first.
 */
function prefixKey(text: string, start: number, end: number): number {
  const c0 = start < end ? text.charCodeAt(start) + 1 : 0;
  const c1 = start + 1 < end ? text.charCodeAt(start + 1) + 1 : 0;
  return c0 * 65537 + c1;
}

/** Builds a dictionary term by term in sorted order, copying runs of an old dictionary's terms whole. */
export class DictionaryBuilder {
  private readonly pieces: string[] = [];
  private readonly starts: number[] = [];
  private length = 0;
  private runFrom = -1;
  private runTo = -1;

  constructor(private readonly old: TermDictionary) {}

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
    this.starts.push(this.length);
    this.pieces.push(`${term}\n`);
    this.length += term.length + 1;
  }

  private flush(): void {
    if (this.runFrom < 0) return;
    const s0 = this.old.starts[this.runFrom] as number;
    const s1 = this.old.starts[this.runTo] as number;
    for (let i = this.runFrom; i < this.runTo; i++) this.starts.push(this.length + (this.old.starts[i] as number) - s0);
    this.pieces.push(this.old.text.slice(s0, s1));
    this.length += s1 - s0;
    this.runFrom = -1;
  }

  build(): TermDictionary {
    this.flush();
    this.starts.push(this.length);
    return new TermDictionary(this.pieces.join(""), Int32Array.from(this.starts));
  }
}
