/**
 * A segment's dead chunks: the chunk ids of notes removed or replaced since its last merge, masked
 * wherever postings are read. Those of the base are also listed, so a term's document frequency can
 * leave out the dead chunks among its base postings without the base being rewritten.
 */
export class DeadChunks {
  /** 1 at each dead chunk id; ids past its end are alive. */
  mask = new Uint8Array(0);
  count = 0;
  /** Dead chunk ids of the base, in the order they died: subtracted from the base's document frequencies. */
  inBase: number[] = [];

  /** Marks chunk `id` dead; `capacity` (the segment's chunk ids so far) sizes the mask when it grows. */
  kill(id: number, capacity: number, inBase: boolean): void {
    if (id >= this.mask.length) {
      const grown = new Uint8Array(Math.max(capacity, this.mask.length * 2));
      grown.set(this.mask);
      this.mask = grown;
    }
    this.mask[id] = 1;
    this.count += 1;
    if (inBase) this.inBase.push(id);
  }

  clear(): void {
    this.mask = new Uint8Array(0);
    this.count = 0;
    this.inBase = [];
  }

  /** Dead chunks among the base postings [from, to): by looking each dead chunk up, or by reading the range when that is cheaper. */
  within(postings: Int32Array, from: number, to: number): number {
    const dead = this.inBase;
    if (dead.length === 0) return 0;
    let n = 0;
    if (to - from <= dead.length * 16) {
      for (let p = from; p < to; p++) n += this.mask[(postings[p] as number) >>> 8] ?? 0;
      return n;
    }
    for (const id of dead) {
      let lo = from;
      let hi = to;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if ((postings[mid] as number) >>> 8 < id) lo = mid + 1;
        else hi = mid;
      }
      if (lo < to && (postings[lo] as number) >>> 8 === id) n += 1;
    }
    return n;
  }
}
