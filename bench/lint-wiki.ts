/**
 * Runs lint's exact checks once on a wiki folder on disk as the plugin runs them — the core's
 * `runLint`, every pass (reading the pages, the source fingerprints, the exact checks, the
 * duplicate pass) yielding to the event loop between time slices — and prints one JSON line: how
 * long it took, the longest the event loop was held (Obsidian's main thread would have been blocked
 * that long), the longest time slice of the whole run, and the process's peak resident memory; then
 * the duplicate pass alone, with its longest time slice. Run as its own process by lint.bench.ts,
 * so the peak is lint's alone.
 */
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { isExcluded } from "../src/core/perimeter";
import { runLint } from "../src/lint/run-lint";
import { similarPages } from "../src/lint/similar-pages";
import { loadSnapshot } from "../src/lint/snapshot";
import { DEFAULT_SETTINGS } from "../src/settings/schema";
import { MemoryStateStore } from "../src/vault/memory-state-store";
import { NodeVault } from "../src/vault/node-vault";

/**
 * Times each slice from the work's resumption to its next yield, in wall time and in CPU time (a
 * machine busy with other work stretches the first, not the second). The yield is the plugin's: a
 * zero-delay timer, so pending events run between slices.
 */
function sliceTimer() {
  let resumed = performance.now();
  let resumedCpu = process.cpuUsage();
  const longest = { ms: 0, cpuMs: 0 };
  const end = () => {
    longest.ms = Math.max(longest.ms, performance.now() - resumed);
    longest.cpuMs = Math.max(longest.cpuMs, process.cpuUsage(resumedCpu).user / 1000);
  };
  const yieldNow = async () => {
    end();
    await new Promise((resolve) => setTimeout(resolve, 0));
    resumed = performance.now();
    resumedCpu = process.cpuUsage();
  };
  return { yieldNow, end, longest };
}

const root = process.argv[2];
if (!root) throw new Error("Usage: lint-wiki.ts <vault>");
const delay = monitorEventLoopDelay({ resolution: 5 });
delay.enable();
const start = performance.now();
const startCpu = process.cpuUsage();
const run = sliceTimer();
const report = await runLint({ vault: new NodeVault(root), settings: DEFAULT_SETTINGS, store: new MemoryStateStore(), yieldNow: run.yieldNow });
run.end();
const ms = performance.now() - start;
const cpuMs = process.cpuUsage(startCpu).user / 1000;
delay.disable();
if (report.error) throw new Error(report.error.message);
// The histogram is in nanoseconds.
const longestBlockMs = delay.max / 1e6;
const peakMb = process.resourceUsage().maxRSS / 1024;

// The duplicate pass alone, on the same pages.
const snapshot = await loadSnapshot(new NodeVault(root), DEFAULT_SETTINGS.wikiFolder, (p) => isExcluded(p, []));
const pass = sliceTimer();
const passStart = performance.now();
const passCpu = process.cpuUsage();
await similarPages(snapshot, { yieldNow: pass.yieldNow });
pass.end();
const passMs = performance.now() - passStart;
const passCpuMs = process.cpuUsage(passCpu).user / 1000;
console.log(
  JSON.stringify({
    ms,
    cpuMs,
    longestBlockMs,
    longestSliceMs: run.longest.ms,
    longestSliceCpuMs: run.longest.cpuMs,
    passMs,
    passCpuMs,
    passLongestSliceMs: pass.longest.ms,
    passLongestSliceCpuMs: pass.longest.cpuMs,
    peakMb,
    pages: report.pages,
    findings: report.findings.length,
  }),
);
