/**
 * What Obsidian's main thread would feel while the index builds, loads or flushes: a slicer for the
 * index (`SyncOptions.slicer`, `VaultIndexOptions.checkpoint`, `flush({checkpoint})`) that yields
 * through a real TimeSlicer (the default slice, `setImmediate` as the host's yield), and a state store
 * whose writes count as yields too (in Obsidian they are asynchronous file operations; its reads,
 * which may run ahead of the work, are left to the busy clock below). It
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
import { performance, PerformanceObserver, type PerformanceEntry } from "node:perf_hooks";
import { TimeSlicer } from "../src/core/time-slice";
import type { StateStore } from "../src/vault/state-store";

export interface MainThreadFigures {
  /** The longest work between two yields, in wall time. */
  readonly longestBlockMs: number;
  /** The CPU time of that block. */
  readonly longestBlockCpuMs: number;
  /**
   * How long in that block the main thread was ready to run but waited for a core (Linux only, else
   * 0): the rest of its wall time beyond CPU and this wait, it was blocked (on a lock, a page fault, a
   * garbage collector's helper thread).
   */
  readonly longestBlockWaitMs: number;
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
  readonly checkpoint: (force?: boolean) => Promise<void>;
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
  const read = schedstat(0);
  if (read) return read;
  return () => {
    const used = process.cpuUsage();
    return (used.user + used.system) / 1000;
  };
}

/** Milliseconds the main thread has spent ready to run but waiting for a core (Linux), else always 0. */
function waitClock(): () => number {
  return schedstat(1) ?? (() => 0);
}

/** A field of Linux's schedstat for the main thread, in milliseconds (0: on the CPU, 1: waiting for it), or null elsewhere. */
function schedstat(field: number): (() => number) | null {
  try {
    const read = () => Number((readFileSync(SCHEDSTAT, "utf8").split(" ")[field] ?? "")) / 1e6;
    if (Number.isFinite(read())) return read;
  } catch {
    // not Linux
  }
  return null;
}

/** One of the longest steps, traced (SYNAPSE_METER_TRACE=1): where it began and ended, and the GC inside it. */
interface TracedStep {
  readonly ms: number;
  readonly cpuMs: number;
  /** performance.now() when it began (for the GC entries' times). */
  readonly start: number;
  readonly from: string;
  readonly to: string;
}

/** Code frames of a stack, without the meter's own and Node's. */
function where(stack: string | undefined): string {
  return (stack ?? "")
    .split("\n")
    .slice(1)
    .filter((line) => !line.includes("main-thread.ts") && !line.includes("node:internal"))
    .slice(0, 6)
    .map((line) => line.trim().replace(/^at /, "").replace(/\(?file:\/\/[^)]*\/(src|bench)\//, "$1/").replace(/\)$/, ""))
    .join(" < ");
}

/**
 * With SYNAPSE_METER_TRACE=1, the meter keeps the few longest steps with the code that began and
 * ended each, and the garbage collections that overlapped them, and prints them to stderr when it
 * finishes: which step to split, and whether its wall time was work or a collector's pause.
 */
function stepTracer(enabled: boolean) {
  const KEEP = 6;
  const longest: TracedStep[] = [];
  const gc: PerformanceEntry[] = [];
  let from = "";
  let start = 0;
  const observer = enabled ? new PerformanceObserver((list) => gc.push(...list.getEntries())) : null;
  observer?.observe({ entryTypes: ["gc"] });
  return {
    began: () => {
      if (!enabled) return;
      from = where(new Error().stack);
      start = performance.now();
    },
    /** Ranked by CPU time: on a loaded machine wall time is mostly other processes'. */
    ended: (ms: number, cpuMs: number) => {
      if (!enabled || (longest.length >= KEEP && cpuMs <= (longest.at(-1)?.cpuMs ?? 0))) return;
      longest.push({ ms, cpuMs, start, from, to: where(new Error().stack) });
      longest.sort((a, b) => b.cpuMs - a.cpuMs);
      longest.length = Math.min(longest.length, KEEP);
    },
    report: () => {
      if (!enabled) return;
      const gcTotal = gc.reduce((sum, e) => sum + e.duration, 0);
      process.stderr.write(`meter trace: ${gc.length} GCs, ${gcTotal.toFixed(0)} ms in all, longest ${Math.max(0, ...gc.map((e) => e.duration)).toFixed(1)} ms\n`);
      for (const step of longest) {
        const end = step.start + step.ms;
        const inside = gc.filter((e) => e.startTime < end && e.startTime + e.duration > step.start);
        const gcMs = inside.reduce((sum, e) => sum + e.duration, 0);
        process.stderr.write(`  step ${step.ms.toFixed(1)} ms (${step.cpuMs.toFixed(1)} ms CPU, ${gcMs.toFixed(1)} ms in ${inside.length} GCs)\n    from ${step.from}\n    to   ${step.to}\n`);
      }
      longest.length = 0;
      gc.length = 0;
    },
  };
}

/**
 * Wall milliseconds the main thread was not idle: wall time minus the time the event loop sat
 * waiting (for a note being read, say). In Obsidian a note's read is asynchronous too, and while
 * the plugin awaits it the main thread is free to paint and answer input: that wait is no block.
 */
function busyClock(): () => number {
  return () => performance.now() - performance.eventLoopUtilization().idle;
}

export function mainThreadMeter(options: { readonly budgetMs?: number } = {}): MainThreadMeter {
  const tracer = stepTracer(process.env.SYNAPSE_METER_TRACE === "1");
  const busyNow = busyClock();
  let blockStart = busyNow();
  const cpuNow = cpuClock();
  let blockCpu = cpuNow();
  const waitNow = waitClock();
  let blockWait = waitNow();
  let stepStart = blockStart;
  let stepCpu = blockCpu;
  let mostStepCpuMs = 0;
  let longestBlockMs = 0;
  let longestBlockCpuMs = 0;
  let longestBlockWaitMs = 0;
  let mostBlockCpuMs = 0;
  let longestStepMs = 0;
  let stepsOver10Ms = 0;
  let yields = 0;
  const endStep = (now: number) => {
    const step = now - stepStart;
    longestStepMs = Math.max(longestStepMs, step);
    if (step > 10) stepsOver10Ms += 1;
    const cpu = cpuNow();
    tracer.ended(step, cpu - stepCpu);
    stepStart = now;
    mostStepCpuMs = Math.max(mostStepCpuMs, cpu - stepCpu);
    stepCpu = cpu;
  };
  const pause = () => {
    const now = busyNow();
    const cpu = cpuNow() - blockCpu;
    if (now - blockStart > longestBlockMs) {
      longestBlockMs = now - blockStart;
      longestBlockCpuMs = cpu;
      longestBlockWaitMs = waitNow() - blockWait;
    }
    mostBlockCpuMs = Math.max(mostBlockCpuMs, cpu);
    endStep(now);
  };
  const resume = () => {
    blockStart = busyNow();
    blockCpu = cpuNow();
    blockWait = waitNow();
    stepStart = blockStart;
    stepCpu = blockCpu;
    tracer.began();
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
      endStep(busyNow());
      const yielded = await inner.checkpoint(force);
      stepStart = busyNow();
      stepCpu = cpuNow();
      tracer.began();
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
    checkpoint: async (force = false) => {
      await slicer.checkpoint(force);
    },
    slicer,
    io: around,
    store: (inner) => ({
      // Reads may run ahead of the work (a warm start reads the next shards while it decodes one), so
      // they are no yield: the time the main thread waits for one is the event loop's idle time,
      // which the busy clock leaves out.
      read: (key: string) => inner.read(key),
      readBytes: (key: string) => inner.readBytes(key),
      write: around((key: string, content: string | Uint8Array) => inner.write(key, content)),
      append: around((key: string, text: string) => inner.append(key, text)),
      remove: around((key: string) => inner.remove(key)),
      list: around((prefix: string) => inner.list(prefix)),
      createExclusive: around((key: string, content: string) => inner.createExclusive(key, content)),
    }),
    reset: () => {
      longestBlockMs = 0;
      longestBlockCpuMs = 0;
      longestBlockWaitMs = 0;
      mostBlockCpuMs = 0;
      longestStepMs = 0;
      mostStepCpuMs = 0;
      stepsOver10Ms = 0;
      yields = 0;
      resume();
    },
    finish: () => {
      pause();
      tracer.report();
      return { longestBlockMs, longestBlockCpuMs, longestBlockWaitMs, mostBlockCpuMs, longestStepMs, mostStepCpuMs, stepsOver10Ms, yields };
    },
  };
}
