/**
 * Time-budgeted yielding for work that runs on Obsidian's main thread: lint (the search index runs
 * in its worker and needs none). Work
 * goes in slices: before each step, `checkpoint` yields when the step about to run would take the
 * slice past its budget, judging the step by the one before it. A count of items per batch cannot
 * bound a block (fifty large notes take far longer than fifty small ones); a budget in
 * milliseconds can. The clock is injected, so tests give each step a known cost instead of timing
 * the machine. One step longer than the whole budget still runs in one piece: it cannot be split,
 * but it is followed by a yield.
 */

/** The longest a slice may be: the "no main-thread block over 50 ms" bound. */
export const MAX_SLICE_MS = 50;
/**
 * The default slice: a frame's budget, which leaves room under the 50 ms bound for one step larger
 * than the one before it, a garbage-collection pause and the host's own work (lint measures its own: bench/lint.bench.ts).
 */
export const DEFAULT_SLICE_MS = 20;

export interface TimeSliceOptions {
  /** How to let the host breathe (default: only lets pending promises run). */
  readonly yieldNow?: () => Promise<void>;
  /** The slice's budget in milliseconds, more than 0 and at most MAX_SLICE_MS (default DEFAULT_SLICE_MS). */
  readonly budgetMs?: number;
  /** Milliseconds from any origin (default `performance.now`). */
  readonly now?: () => number;
}

export function checkSliceBudget(budgetMs: number): void {
  if (!Number.isFinite(budgetMs) || budgetMs <= 0 || budgetMs > MAX_SLICE_MS) {
    throw new RangeError(`The time slice must be more than 0 and at most ${MAX_SLICE_MS} ms (got ${String(budgetMs)}).`);
  }
}

/** What work on the main thread calls before each step (`checkpoint`): yields when the slice is spent (or `force`d), says whether it did. */
export class TimeSlicer {
  private readonly yieldNow: () => Promise<void>;
  private readonly budgetMs: number;
  private readonly now: () => number;
  private sliceStart: number;
  private stepStart: number;
  /** How long the last step took: the guess for the next one. */
  private lastStep = 0;
  /** Yields so far (for progress lines and tests). */
  yields = 0;

  constructor(options: TimeSliceOptions = {}) {
    this.budgetMs = options.budgetMs ?? DEFAULT_SLICE_MS;
    checkSliceBudget(this.budgetMs);
    this.yieldNow = options.yieldNow ?? (() => Promise.resolve());
    this.now = options.now ?? (() => performance.now());
    this.sliceStart = this.now();
    this.stepStart = this.sliceStart;
  }

  /** Has the slice no room left for another step like the last one? */
  private isSpent(): boolean {
    const now = this.now();
    this.lastStep = Math.max(0, now - this.stepStart);
    return now - this.sliceStart + this.lastStep > this.budgetMs;
  }

  /** Call before each step: yields when the slice is spent (or `force`), then starts timing the step. */
  async checkpoint(force = false): Promise<boolean> {
    const yielded = this.isSpent() || force;
    if (yielded) {
      await this.yieldNow();
      this.yields += 1;
      this.sliceStart = this.now();
    }
    this.stepStart = this.now();
    return yielded;
  }
}

/**
 * Work cut into pieces: a generator that yields between two pieces and returns the result, so that
 * on Obsidian's main thread the slicer can yield inside one long step (lint's exact checks).
 */
export type Pieces<T> = Generator<void, T, void>;

/** Runs every piece at once (the CLI, tests, or when no checkpoint is given). */
export function runPieces<T>(pieces: Pieces<T>): T {
  for (;;) {
    const next = pieces.next();
    if (next.done) return next.value;
  }
}

/** Runs the pieces with `checkpoint` before each one after the first (it yields when the slice is spent). */
export async function runPiecesSliced<T>(pieces: Pieces<T>, checkpoint?: () => Promise<unknown>): Promise<T> {
  if (!checkpoint) return runPieces(pieces);
  for (;;) {
    const next = pieces.next();
    if (next.done) return next.value;
    await checkpoint();
  }
}
