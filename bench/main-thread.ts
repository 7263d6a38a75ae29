/**
 * What Obsidian's main thread would feel: a checkpoint for the index (`VaultIndexOptions.checkpoint`,
 * `flush({checkpoint})`) that yields through a real TimeSlicer (30 ms slices, `setImmediate` as the
 * host's yield) and records, in wall time, the longest block between two yields — the figure held
 * against "no main-thread block over 50 ms" — and the longest single step between two checkpoints
 * (a piece of work the slicer cannot split).
 */
import { performance } from "node:perf_hooks";
import { TimeSlicer } from "../src/retrieval/time-slice";

export interface MainThreadMeter {
  readonly checkpoint: () => Promise<void>;
  /** Call when the measured work is over: closes the last block. */
  finish(): { longestBlockMs: number; longestStepMs: number; yields: number };
}

export function mainThreadMeter(): MainThreadMeter {
  let blockStart = performance.now();
  let stepStart = blockStart;
  let longestBlockMs = 0;
  let longestStepMs = 0;
  let yields = 0;
  const slicer = new TimeSlicer({
    yieldNow: async () => {
      longestBlockMs = Math.max(longestBlockMs, performance.now() - blockStart);
      yields += 1;
      await new Promise<void>((resolve) => setImmediate(resolve));
      blockStart = performance.now();
    },
  });
  return {
    checkpoint: async () => {
      longestStepMs = Math.max(longestStepMs, performance.now() - stepStart);
      await slicer.checkpoint();
      stepStart = performance.now();
    },
    finish: () => {
      const now = performance.now();
      return { longestBlockMs: Math.max(longestBlockMs, now - blockStart), longestStepMs: Math.max(longestStepMs, now - stepStart), yields };
    },
  };
}
