/**
 * What Obsidian's main thread would feel while the index loads or flushes: a checkpoint for the index
 * (`VaultIndexOptions.checkpoint`, `flush({checkpoint})`) that yields through a real TimeSlicer
 * (30 ms slices, `setImmediate` as the host's yield), and a state store whose reads and writes count
 * as yields too (in Obsidian they are asynchronous file operations). It records, in wall time:
 * - the longest block: work between two yields — the figure held against "no block over 50 ms";
 * - the longest single step: work between two checkpoints or file operations, which no slicer can split.
 * Wall time on a loaded machine includes time the OS gave to other processes: report the load.
 */
import { performance } from "node:perf_hooks";
import { TimeSlicer } from "../src/retrieval/time-slice";
import type { StateStore } from "../src/vault/state-store";

export interface MainThreadMeter {
  readonly checkpoint: () => Promise<void>;
  /** The store with its file operations counted as yields. */
  store(inner: StateStore): StateStore;
  /** Forgets what was measured so far: the measured work starts now. */
  reset(): void;
  /** Call when the measured work is over. */
  finish(): { longestBlockMs: number; longestStepMs: number; yields: number };
}

export function mainThreadMeter(): MainThreadMeter {
  let blockStart = performance.now();
  let stepStart = blockStart;
  let longestBlockMs = 0;
  let longestStepMs = 0;
  let yields = 0;
  const pause = () => {
    const now = performance.now();
    longestBlockMs = Math.max(longestBlockMs, now - blockStart);
    longestStepMs = Math.max(longestStepMs, now - stepStart);
  };
  const resume = () => {
    blockStart = performance.now();
    stepStart = blockStart;
  };
  const slicer = new TimeSlicer({
    yieldNow: async () => {
      yields += 1;
      pause();
      await new Promise<void>((resolve) => setImmediate(resolve));
      resume();
    },
  });
  const around =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      pause();
      try {
        return await fn(...args);
      } finally {
        resume();
      }
    };
  return {
    checkpoint: async () => {
      const now = performance.now();
      longestStepMs = Math.max(longestStepMs, now - stepStart);
      await slicer.checkpoint();
      stepStart = performance.now();
    },
    store: (inner) => ({
      read: around((key: string) => inner.read(key)),
      readBytes: around((key: string) => inner.readBytes(key)),
      write: around((key: string, content: string | Uint8Array) => inner.write(key, content)),
      append: around((key: string, text: string) => inner.append(key, text)),
      remove: around((key: string) => inner.remove(key)),
      list: around((prefix: string) => inner.list(prefix)),
      createExclusive: around((key: string, content: string) => inner.createExclusive(key, content)),
    }),
    reset: () => {
      longestBlockMs = 0;
      longestStepMs = 0;
      yields = 0;
      resume();
    },
    finish: () => {
      pause();
      return { longestBlockMs, longestStepMs, yields };
    },
  };
}
