/**
 * BM25 over chunks, in memory, updated note by note. Our own inverted index rather than a library's
 * because the index must persist note by note in small shards and load without re-reading the
 * vault (see README, "Search": MiniSearch and FlexSearch serialise the whole index as one value,
 * and rebuilding theirs from stored text at start-up missed the warm-start target).
 *
 * Postings are packed numbers (chunk id × 256 + weighted term frequency). A removed note leaves its
 * postings behind as tombstones that searches skip; they are swept when they outnumber the living.
 */

export interface TermInfo {
  readonly term: string;
  /** Living chunks that contain the term. */
  df: number;
  postings: number[];
}

export interface ChunkTerms {
  readonly heading: string;
  readonly start: number;
  readonly end: number;
  /** Weighted token count (title and heading words count more). */
  readonly length: number;
  /** Distinct terms and their weighted frequencies (1–255), same order. */
  readonly terms: readonly string[];
  readonly freqs: readonly number[];
}

interface ChunkRecord {
  readonly path: string;
  readonly ordinal: number;
  readonly chunk: ChunkTerms;
  readonly infos: readonly TermInfo[];
}

export interface TextHit {
  readonly path: string;
  readonly heading: string;
  /** Which chunk of the note (0-based), and where it lies in the note's text. */
  readonly ordinal: number;
  readonly start: number;
  readonly end: number;
  readonly score: number;
}

const K1 = 1.2;
const B = 0.75;
const MAX_TF = 255;
const MAX_IDS = Math.floor(2 ** 31 / 256) - 1;

export class TextIndex {
  private chunks: (ChunkRecord | undefined)[] = [];
  private readonly byPath = new Map<string, number[]>();
  private readonly terms = new Map<string, TermInfo>();
  private living = 0;
  private totalLength = 0;
  private deadPostings = 0;
  private livePostings = 0;
  private scores = new Float64Array(0);

  get chunkCount(): number {
    return this.living;
  }

  get termCount(): number {
    return this.terms.size;
  }

  has(path: string): boolean {
    return this.byPath.has(path);
  }

  paths(): IterableIterator<string> {
    return this.byPath.keys();
  }

  /** The chunks of a note as they were indexed, in order. */
  chunksOf(path: string): ChunkTerms[] {
    return (this.byPath.get(path) ?? []).map((id) => this.chunks[id]?.chunk).filter((c): c is ChunkTerms => c !== undefined);
  }

  /** Replaces a note's chunks. */
  set(path: string, chunks: readonly ChunkTerms[]): void {
    this.remove(path);
    if (this.chunks.length + chunks.length > MAX_IDS) this.compact();
    const ids: number[] = [];
    chunks.forEach((chunk, ordinal) => {
      const id = this.chunks.length;
      const infos: TermInfo[] = [];
      for (let i = 0; i < chunk.terms.length; i++) {
        const term = chunk.terms[i] ?? "";
        let info = this.terms.get(term);
        if (!info) {
          info = { term, df: 0, postings: [] };
          this.terms.set(term, info);
        }
        info.df += 1;
        info.postings.push(id * 256 + Math.min(MAX_TF, Math.max(1, chunk.freqs[i] ?? 1)));
        infos.push(info);
      }
      this.livePostings += infos.length;
      this.chunks.push({ path, ordinal, chunk, infos });
      this.totalLength += chunk.length;
      this.living += 1;
      ids.push(id);
    });
    this.byPath.set(path, ids);
  }

  remove(path: string): void {
    const ids = this.byPath.get(path);
    if (!ids) return;
    for (const id of ids) {
      const record = this.chunks[id];
      if (!record) continue;
      for (const info of record.infos) {
        info.df -= 1;
        if (info.df === 0) this.terms.delete(info.term);
      }
      this.livePostings -= record.infos.length;
      this.deadPostings += record.infos.length;
      this.totalLength -= record.chunk.length;
      this.living -= 1;
      this.chunks[id] = undefined;
    }
    this.byPath.delete(path);
    if (this.deadPostings > 100_000 && this.deadPostings > this.livePostings) this.compact();
  }

  /** Renumbers the living chunks and drops tombstones. */
  compact(): void {
    const old = [...this.byPath.entries()].map(([path, ids]) => [path, ids.map((id) => this.chunks[id]?.chunk).filter((c): c is ChunkTerms => c !== undefined)] as const);
    this.chunks = [];
    this.byPath.clear();
    this.terms.clear();
    this.living = 0;
    this.totalLength = 0;
    this.deadPostings = 0;
    this.livePostings = 0;
    for (const [path, chunks] of old) this.set(path, chunks);
  }

  /**
   * The best chunks for the query terms, by BM25, best first; `accept` filters by path (scope).
   * Ties go to the path in alphabetical order, so results never depend on insertion history.
   */
  search(queryTerms: readonly string[], limit: number, accept: (path: string) => boolean): TextHit[] {
    const infos = withinBudget([...new Set(queryTerms)].map((t) => this.terms.get(t)).filter((i): i is TermInfo => i !== undefined));
    if (infos.length === 0 || this.living === 0) return [];
    if (this.scores.length < this.chunks.length) this.scores = new Float64Array(Math.max(this.chunks.length, this.scores.length * 2));
    const scores = this.scores;
    const touched: number[] = [];
    const avg = this.totalLength / this.living;
    for (const info of infos) {
      const idf = Math.log(1 + (this.living - info.df + 0.5) / (info.df + 0.5));
      for (const packed of info.postings) {
        const id = Math.floor(packed / 256);
        const record = this.chunks[id];
        if (!record) continue;
        const tf = packed % 256;
        const norm = K1 * (1 - B + (B * record.chunk.length) / avg);
        if (scores[id] === 0) touched.push(id);
        scores[id] = (scores[id] ?? 0) + (idf * (tf * (K1 + 1))) / (tf + norm);
      }
    }
    const accepted = new Map<string, boolean>();
    const top: Ranked[] = [];
    let floor = -Infinity;
    for (const id of touched) {
      const score = scores[id] ?? 0;
      scores[id] = 0;
      if (score < floor) continue;
      const record = this.chunks[id];
      if (!record) continue;
      let ok = accepted.get(record.path);
      if (ok === undefined) accepted.set(record.path, (ok = accept(record.path)));
      if (!ok) continue;
      top.push({ id, score, path: record.path, ordinal: record.ordinal });
      if (top.length >= limit * 4) {
        top.sort(byScore);
        top.length = limit;
        floor = top[top.length - 1]?.score ?? -Infinity;
      }
    }
    top.sort(byScore);
    return top.slice(0, limit).map(({ id, score }) => {
      const record = this.chunks[id] as ChunkRecord;
      return { path: record.path, heading: record.chunk.heading, ordinal: record.ordinal, start: record.chunk.start, end: record.chunk.end, score };
    });
  }
}

/**
 * A long query (an ingest's note stands for ~30 terms) reads at most about this many postings: its
 * rarest terms first, then the next while they fit. The terms left out are the most common ones,
 * whose BM25 weight (idf) is smallest, and whose postings grow with the vault: without a bound a
 * query's cost grows with the vault too. Decided by `df` (living chunks), so an index built by
 * edits and one rebuilt from scratch leave out the same terms.
 */
export const POSTINGS_BUDGET = 50_000;
/** The rarest terms are always read, whatever they cost. */
const ALWAYS_READ = 3;

function withinBudget(infos: TermInfo[]): TermInfo[] {
  const total = infos.reduce((sum, i) => sum + i.df, 0);
  if (total <= POSTINGS_BUDGET) return infos;
  const byRarity = [...infos].sort((a, b) => a.df - b.df || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
  let left = POSTINGS_BUDGET;
  return byRarity.filter((info, i) => {
    if (i >= ALWAYS_READ && info.df > left) return false;
    left -= info.df;
    return true;
  });
}

interface Ranked {
  readonly id: number;
  readonly score: number;
  readonly path: string;
  readonly ordinal: number;
}

function byScore(a: Ranked, b: Ranked): number {
  return b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) || a.ordinal - b.ordinal;
}
