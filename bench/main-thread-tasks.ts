/**
 * What the main thread feels while the search index works in its worker: the longest task of a
 * phase, and what it was made of. A 1 ms timer ticks on the main thread; the longest time between
 * two ticks is the longest task (a message handled, a garbage collector's pause). Beside its wall
 * time: the CPU time the main thread spent in it and the time it waited for a core (Linux's
 * /proc/self/task/<pid>/schedstat; on a loaded machine a task's wall time is mostly other
 * processes'), the most CPU time of any task, the longest single message handled (by kind: the
 * parse of what the worker sent and the start of what it asks), and the longest garbage
 * collection of this thread.
 */
import { readFileSync } from "node:fs";
import { performance, PerformanceObserver } from "node:perf_hooks";

export interface PhaseTasks {
  /** The longest task of the phase, in wall ms. */
  readonly longestTaskMs: number;
  /** The main thread's CPU time in that task, and the time it waited for a core (NaN off Linux). */
  readonly longestTaskCpuMs: number;
  readonly longestTaskWaitMs: number;
  /** The most CPU time any task of the phase took (NaN off Linux). */
  readonly mostTaskCpuMs: number;
  /** The longest a single message kept the thread, and its kind ("call vault.read", "catalog", …). */
  readonly longestMessageMs: number;
  readonly longestMessageKind: string;
  /** The longest garbage collection of this thread, in ms. */
  readonly longestGcMs: number;
}

export interface MainThreadTasks {
  /** Wraps the port's message listener so each message is timed. */
  handler(listener: (data: unknown) => void): (data: unknown) => void;
  /** Runs one phase and returns its result with its figures. */
  phase<T>(run: () => Promise<T>): Promise<{ result: T; tasks: PhaseTasks }>;
}

/** SYNAPSE_TASKS_TRACE=1: every task over TRACE_MS printed to stderr with its time, and the messages and collections over a quarter of it. */
const TRACE = process.env.SYNAPSE_TASKS_TRACE === "1";
const TRACE_MS = 30;

const SCHEDSTAT = `/proc/self/task/${process.pid}/schedstat`;

/** The main thread's CPU and run-queue wait so far, in ms (Linux), else NaN. */
function threadClock(): () => { cpu: number; wait: number } {
  try {
    const read = () => {
      const [cpu = "", wait = ""] = readFileSync(SCHEDSTAT, "utf8").split(" ");
      return { cpu: Number(cpu) / 1e6, wait: Number(wait) / 1e6 };
    };
    if (Number.isFinite(read().cpu)) return read;
  } catch {
    // not Linux
  }
  return () => ({ cpu: Number.NaN, wait: Number.NaN });
}

/** A message's kind for the breakdown: its type, and the service a call asks for. */
function kindOf(data: unknown): string {
  const { type, service } = (data ?? {}) as { type?: unknown; service?: unknown };
  return typeof service === "string" ? `${String(type)} ${service}` : String(type);
}

export function mainThreadTasks(): MainThreadTasks {
  const clock = threadClock();
  const blank = (): { -readonly [K in keyof PhaseTasks]: PhaseTasks[K] } => ({
    longestTaskMs: 0,
    longestTaskCpuMs: 0,
    longestTaskWaitMs: 0,
    mostTaskCpuMs: 0,
    longestMessageMs: 0,
    longestMessageKind: "none",
    longestGcMs: 0,
  });
  let figures = blank();
  const gc = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      figures.longestGcMs = Math.max(figures.longestGcMs, entry.duration);
      if (TRACE && entry.duration > TRACE_MS / 4) process.stderr.write(`gc ${entry.duration.toFixed(1)} ms at ${entry.startTime.toFixed(0)}\n`);
    }
  });
  gc.observe({ entryTypes: ["gc"] });
  return {
    handler: (listener) => (data) => {
      const start = performance.now();
      listener(data);
      const ms = performance.now() - start;
      if (TRACE && ms > TRACE_MS / 4) process.stderr.write(`message ${kindOf(data)} ${ms.toFixed(1)} ms at ${start.toFixed(0)}\n`);
      if (ms > figures.longestMessageMs) {
        figures.longestMessageMs = ms;
        figures.longestMessageKind = kindOf(data);
      }
    },
    phase: async (run) => {
      figures = blank();
      let last = performance.now();
      let lastThread = clock();
      const tick = setInterval(() => {
        const now = performance.now();
        const thread = clock();
        const cpu = thread.cpu - lastThread.cpu;
        // A tick is due every millisecond: the rest of the gap, the thread was kept from it.
        if (now - last > figures.longestTaskMs) {
          figures.longestTaskMs = now - last;
          figures.longestTaskCpuMs = cpu;
          figures.longestTaskWaitMs = thread.wait - lastThread.wait;
        }
        if (!(cpu <= figures.mostTaskCpuMs)) figures.mostTaskCpuMs = cpu;
        if (TRACE && now - last > TRACE_MS) process.stderr.write(`task ${(now - last).toFixed(1)} ms at ${last.toFixed(0)}: ${cpu.toFixed(1)} ms CPU, ${(thread.wait - lastThread.wait).toFixed(1)} ms waiting for a core\n`);
        last = now;
        lastThread = thread;
      }, 1);
      try {
        const result = await run();
        // Entries of the phase's last collections are delivered asynchronously.
        await new Promise<void>((resolve) => setImmediate(resolve));
        return { result, tasks: { ...figures } };
      } finally {
        clearInterval(tick);
      }
    },
  };
}
