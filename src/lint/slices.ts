/**
 * How lint's passes share Obsidian's main thread: every pass over the wiki (reading the pages,
 * fingerprinting their source notes, the exact checks, the comparison of every page's words) awaits
 * a checkpoint before each step. The checkpoint stops the run when it is cancelled and yields when
 * the slice's time is used (see TimeSlicer: the clock is injected, so tests give steps a cost).
 * The CLI passes no `yieldNow`: its checkpoints only let pending promises run.
 */
import { SynapseError } from "../core/errors";
import { TimeSlicer } from "../core/time-slice";

export interface PassOptions {
  readonly signal?: AbortSignal;
  /** Lets the host breathe between slices of work (Obsidian's main thread); see TimeSlicer. */
  readonly yieldNow?: () => Promise<void>;
  readonly now?: () => number;
  /**
   * The run's checkpoint (from sliceCheckpoint), for a pass that follows others: one slicer then
   * times the whole run. A pass with a slicer of its own would start a fresh slice where the one
   * before had already run most of its budget.
   */
  readonly checkpoint?: () => Promise<void>;
}

/**
 * Lint's slices are shorter than the default: its passes allocate as they go (every word of every
 * page), so the garbage collector's own threads work beside each slice and a collection may land
 * inside one (measured up to 20 ms at 5,000 pages). At 20 ms a slice's CPU time reached 55–60 ms
 * on bench/lint.bench.ts's wiki; at 12 ms it stays under 50.
 */
export const SLICE_MS = 12;

/** A checkpoint to await before each step of a pass (the run's own, when given): yields when the slice is spent, and throws `cancelled` once the signal fired. */
export function sliceCheckpoint(options: PassOptions): () => Promise<void> {
  if (options.checkpoint) return options.checkpoint;
  const slicer = new TimeSlicer({ budgetMs: SLICE_MS, ...(options.yieldNow ? { yieldNow: options.yieldNow } : {}), ...(options.now ? { now: options.now } : {}) });
  const stopIfCancelled = () => {
    if (options.signal?.aborted) throw new SynapseError("cancelled", "The run was cancelled.");
  };
  return async () => {
    stopIfCancelled();
    // A cancel clicked while the host had the thread stops before the next step, not after it.
    if (await slicer.checkpoint()) stopIfCancelled();
  };
}
