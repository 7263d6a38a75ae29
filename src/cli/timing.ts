/**
 * Where a CLI command's time goes, for the benchmarks: with SYNAPSE_TIMING=1 in the environment the
 * command marks its phases (settings read, index loaded, notes checked, query answered) and, when it
 * ends, writes one line to stderr: `synapse-timing {"loadedMs":…,"phases":{…},"cpuMs":…}`. Times are
 * milliseconds since the process started (`performance.now()` counts from the process's time
 * origin), so the first mark also says how long Node took to start and load the CLI's modules.
 */
export const TIMING_ENV = "SYNAPSE_TIMING";
export const TIMING_PREFIX = "synapse-timing ";

export interface PhaseTimer {
  /** Notes that a phase has just ended. */
  mark(phase: string): void;
  /** The line the command writes at its end. */
  line(): string;
}

export function phaseTimer(env: NodeJS.ProcessEnv, now: () => number = () => performance.now()): PhaseTimer | undefined {
  if (env[TIMING_ENV] !== "1") return undefined;
  const loadedMs = now();
  const phases: Record<string, number> = {};
  return {
    mark(phase) {
      phases[phase] = round(now());
    },
    line() {
      const cpu = process.cpuUsage();
      return `${TIMING_PREFIX}${JSON.stringify({ loadedMs: round(loadedMs), phases, endMs: round(now()), cpuMs: round((cpu.user + cpu.system) / 1000) })}\n`;
    },
  };
}

const round = (ms: number) => Math.round(ms * 10) / 10;
