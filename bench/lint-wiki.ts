/**
 * Runs lint's exact checks once on a wiki folder on disk as the plugin runs them — the core's
 * `runLint`, its long pass yielding to the event loop between time slices — and prints one JSON
 * line: how long it took, the longest the event loop was held (Obsidian's main thread would have
 * been blocked that long), and the process's peak resident memory; then the duplicate pass alone,
 * with its longest time slice. Run as its own process by
 * lint.bench.ts, so the peak is lint's alone.
 */
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { isExcluded } from "../src/core/perimeter";
import { runLint } from "../src/lint/run-lint";
import { similarPages } from "../src/lint/similar-pages";
import { loadSnapshot } from "../src/lint/snapshot";
import { DEFAULT_SETTINGS } from "../src/settings/schema";
import { MemoryStateStore } from "../src/vault/memory-state-store";
import { NodeVault } from "../src/vault/node-vault";

const root = process.argv[2];
if (!root) throw new Error("Usage: lint-wiki.ts <vault>");
const delay = monitorEventLoopDelay({ resolution: 5 });
delay.enable();
const start = performance.now();
const startCpu = process.cpuUsage();
const report = await runLint({
  vault: new NodeVault(root),
  settings: DEFAULT_SETTINGS,
  store: new MemoryStateStore(),
  // As the plugin yields (a zero-delay timer), so pending events run between slices.
  yieldNow: () => new Promise((resolve) => setTimeout(resolve, 0)),
});
const ms = performance.now() - start;
const cpuMs = process.cpuUsage(startCpu).user / 1000;
delay.disable();
if (report.error) throw new Error(report.error.message);
// The histogram is in nanoseconds.
const longestBlockMs = delay.max / 1e6;
const peakMb = process.resourceUsage().maxRSS / 1024;

// The duplicate pass alone (the part that time-slices), on the same pages.
const snapshot = await loadSnapshot(new NodeVault(root), DEFAULT_SETTINGS.wikiFolder, (p) => isExcluded(p, []));
// Each slice is timed from the pass's resumption to its next yield, in wall time and in CPU time
// (a machine busy with other work stretches the first, not the second).
let resumed = performance.now();
let resumedCpu = process.cpuUsage();
let longestSliceMs = 0;
let longestSliceCpuMs = 0;
const endSlice = () => {
  longestSliceMs = Math.max(longestSliceMs, performance.now() - resumed);
  longestSliceCpuMs = Math.max(longestSliceCpuMs, process.cpuUsage(resumedCpu).user / 1000);
};
const passStart = performance.now();
const passCpu = process.cpuUsage();
await similarPages(snapshot, {
  yieldNow: async () => {
    endSlice();
    await new Promise((resolve) => setTimeout(resolve, 0));
    resumed = performance.now();
    resumedCpu = process.cpuUsage();
  },
});
endSlice();
const passMs = performance.now() - passStart;
const passCpuMs = process.cpuUsage(passCpu).user / 1000;
console.log(JSON.stringify({ ms, cpuMs, longestBlockMs, passMs, passCpuMs, longestSliceMs, longestSliceCpuMs, peakMb, pages: report.pages, findings: report.findings.length }));
