/**
 * What Obsidian's main thread would feel while the index builds, loads or flushes: a slicer for the
 * index (`SyncOptions.slicer`, `VaultIndexOptions.checkpoint`, `flush({checkpoint})`) that yields
 * through a real TimeSlicer (the default slice, `setImmediate` as the host's yield), and a state store
 * whose reads and writes count as yields too (in Obsidian they are asynchronous file operations). It
 * records, in wall time:
 * - the longest block: work between two yields — the figure held against "no block over 50 ms";
 * - the longest single step: work between two checkpoints or file operations, which no slicer can split;
 * and, beside the longest block's wall time, the CPU time the main thread spent in it, read at pause
 * and resume. On a loaded machine the wall time includes time the OS gave to other processes, and
 * the CPU time does not: the two together say which the block was. The main thread's own time comes
 * from Linux's /proc/self/task/<pid>/schedstat (nanoseconds); elsewhere `process.cpuUsage`, which
 * counts every thread of the process (the garbage collector's and compiler's helpers, the file
 * reads' thread pool), so it can exceed the wall time.
 */
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { TimeSlicer } from "../src/retrieval/time-slice";
import type { StateStore } from "../src/vault/state-store";

export interface MainThreadFigures {
  /** The longest work between two yields, in wall time. */
  readonly longestBlockMs: number;
  /** The CPU time of that block. */
  readonly longestBlockCpuMs: number;
  /** The most CPU time any block took (a block that was long in wall time for want of the CPU is not this one). */
  readonly mostBlockCpuMs: number;
  /** The longest work between two checkpoints, which no slicer can split, in wall time. */
  readonly longestStepMs: number;
  /** The most CPU time any step took. */
  readonly mostStepCpuMs: number;
  /** Steps over 10 ms: the ones worth splitting. */
  readonly stepsOver10Ms: number;
  readonly yields: number;
}

export interface MainThreadMeter {
  /** A checkpoint for the index's loading and flushing. */
  readonly checkpoint: () => Promise<void>;
  /** The slicer a sync yields through (`SyncOptions.slicer`), its steps measured as the checkpoint's. */
  readonly slicer: { checkpoint(force?: boolean): Promise<boolean> };
  /** The store with its file operations counted as yields. */
  store(inner: StateStore): StateStore;
  /** An asynchronous file operation, counted as a yield (e.g. listing the vault). */
  io<A extends unknown[], R>(fn: (...args: A) => Promise<R>): (...args: A) => Promise<R>;
  /** Forgets what was measured so far: the measured work starts now. */
  reset(): void;
  /** Call when the measured work is over. */
  finish(): MainThreadFigures;
}

const SCHEDSTAT = `/proc/self/task/${process.pid}/schedstat`;

/** CPU milliseconds so far: the main thread's when Linux tells them, else the whole process's. */
function cpuClock(): () => number {
  try {
    const read = () => Number((readFileSync(SCHEDSTAT, "utf8").split(" ")[0] ?? "")) / 1e6;
    if (Number.isFinite(read())) return read;
  } catch {
    // not Linux: the process's time
  }
  return () => {
    const used = process.cpuUsage();
    return (used.user + used.system) / 1000;
  };
}

export function mainThreadMeter(options: { readonly budgetMs?: number } = {}): MainThreadMeter {
  let blockStart = performance.now();
  const cpuNow = cpuClock();
  let blockCpu = cpuNow();
  let stepStart = blockStart;
  let stepCpu = blockCpu;
  let mostStepCpuMs = 0;
  let longestBlockMs = 0;
  let longestBlockCpuMs = 0;
  let mostBlockCpuMs = 0;
  let longestStepMs = 0;
  let stepsOver10Ms = 0;
  let yields = 0;
  const endStep = (now: number) => {
    const step = now - stepStart;
    longestStepMs = Math.max(longestStepMs, step);
    if (step > 10) stepsOver10Ms += 1;
    stepStart = now;
    const cpu = cpuNow();
    mostStepCpuMs = Math.max(mostStepCpuMs, cpu - stepCpu);
    stepCpu = cpu;
  };
  const pause = () => {
    const now = performance.now();
    const cpu = cpuNow() - blockCpu;
    if (now - blockStart > longestBlockMs) {
      longestBlockMs = now - blockStart;
      longestBlockCpuMs = cpu;
    }
    mostBlockCpuMs = Math.max(mostBlockCpuMs, cpu);
    endStep(now);
  };
  const resume = () => {
    blockStart = performance.now();
    blockCpu = cpuNow();
    stepStart = blockStart;
    stepCpu = blockCpu;
  };
  const inner = new TimeSlicer({
    ...(options.budgetMs !== undefined ? { budgetMs: options.budgetMs } : {}),
    yieldNow: async () => {
      yields += 1;
      pause();
      await new Promise<void>((resolve) => setImmediate(resolve));
      resume();
    },
  });
  const slicer = {
    checkpoint: async (force = false): Promise<boolean> => {
      endStep(performance.now());
      const yielded = await inner.checkpoint(force);
      stepStart = performance.now();
      stepCpu = cpuNow();
      return yielded;
    },
  };
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
      await slicer.checkpoint();
    },
    slicer,
    io: around,
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
      longestBlockCpuMs = 0;
      mostBlockCpuMs = 0;
      longestStepMs = 0;
      mostStepCpuMs = 0;
      stepsOver10Ms = 0;
      yields = 0;
      resume();
    },
    finish: () => {
      pause();
      return { longestBlockMs, longestBlockCpuMs, mostBlockCpuMs, longestStepMs, mostStepCpuMs, stepsOver10Ms, yields };
    },
  };
}
