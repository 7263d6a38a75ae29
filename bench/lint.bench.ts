/**
 * Lint's exact checks on a 5,000-page wiki on disk (target: under 5 s and under 300 MB), the
 * duplicates by similarity included (see lint-wiki-maker.ts for the wiki). Measured twice, each
 * run in a fresh process so its peak memory is lint's alone:
 * - as a user runs `synapse lint --vault <dir> --json` (the built CLI, best of 3, wall time from
 *   spawn to exit; the files are in the OS cache after the first run);
 * - as the plugin runs them (lint-wiki.ts: the core's runLint with a yield between time slices),
 *   with the longest time the event loop was held — in Obsidian, the main thread — and the longest
 *   time slice of the whole run (reading the pages, the exact checks, the duplicate pass).
 * CPU time is printed beside wall time: a machine busy with other work stretches the second only.
 * Needs `npm run build` first (npm run bench does it).
 */
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import * as z from "zod";
import { makeLintWiki, PAGES, PLANTED_DUPLICATES } from "./lint-wiki-maker";
import type { BenchResult } from "./stats";

const TARGET_MS = 5000;
const TARGET_MB = 300;
const SLICE_MS = 50;
const RUNS = 3;

const Peak = z.object({ peakMb: z.number(), cpuMs: z.number() });
const CliReport = z.object({ findings: z.array(z.object({ check: z.string(), message: z.string() })) });
const PluginRun = z.object({
  ms: z.number(),
  cpuMs: z.number(),
  longestBlockMs: z.number(),
  passMs: z.number(),
  passCpuMs: z.number(),
  longestSliceMs: z.number(),
  longestSliceCpuMs: z.number(),
  passLongestSliceMs: z.number(),
  passLongestSliceCpuMs: z.number(),
  peakMb: z.number(),
  pages: z.number(),
  findings: z.number(),
});

function lastJsonLine(text: string): unknown {
  return JSON.parse(text.trim().split("\n").pop() ?? "") as unknown;
}

function cliRun(root: string): { ms: number; cpuMs: number; peakMb: number; similar: number; findings: number } {
  const start = performance.now();
  const child = spawnSync(process.execPath, ["--import", join(import.meta.dirname, "peak-rss.mjs"), join(process.cwd(), "dist", "cli.mjs"), "lint", "--vault", root, "--json"], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - start;
  // Exit 1: findings remain (the wiki has dangling links and duplicates planted).
  if (child.status !== 1) throw new Error(`synapse lint exited with ${child.status}: ${child.stderr}`);
  const report = CliReport.parse(JSON.parse(child.stdout) as unknown);
  const { peakMb, cpuMs } = Peak.parse(lastJsonLine(child.stderr));
  return { ms, cpuMs, peakMb, similar: report.findings.filter((f) => f.check === "duplicate" && f.message.includes("alike in their words")).length, findings: report.findings.length };
}

function pluginRun(root: string): z.infer<typeof PluginRun> {
  const child = spawnSync(process.execPath, ["--import", "tsx", join(import.meta.dirname, "lint-wiki.ts"), root], { encoding: "utf8" });
  if (child.status !== 0) throw new Error(`lint-wiki.ts failed: ${child.stderr}`);
  return PluginRun.parse(lastJsonLine(child.stdout));
}

function peakOfBareNode(): number {
  const run = spawnSync(process.execPath, ["-e", "console.log(process.resourceUsage().maxRSS / 1024)"], { encoding: "utf8" });
  return Number(run.stdout.trim());
}

const best = <T extends { ms: number }>(runs: readonly T[]): T => runs.reduce((a, b) => (b.ms < a.ms ? b : a));

export function benchLint(): BenchResult[] {
  const root = makeLintWiki();
  try {
    const cli = Array.from({ length: RUNS }, () => cliRun(root));
    const plugin = Array.from({ length: RUNS }, () => pluginRun(root));
    const fastest = best(cli);
    const cliPeak = Math.max(...cli.map((r) => r.peakMb));
    const inPlugin = best(plugin);
    const slice = Math.max(...plugin.map((r) => r.longestSliceCpuMs));
    const sliceWall = Math.max(...plugin.map((r) => r.longestSliceMs));
    const block = Math.max(...plugin.map((r) => r.longestBlockMs));
    const passSlice = Math.max(...plugin.map((r) => r.passLongestSliceCpuMs));
    const pass = plugin.reduce((a, b) => (b.passMs < a.passMs ? b : a));
    const pluginPeak = Math.max(...plugin.map((r) => r.peakMb));
    const bare = peakOfBareNode().toFixed(0);
    return [
      { name: `lint: synapse lint --json, ${PAGES} pages on disk (best of ${RUNS})`, value: fastest.ms, unit: "ms", target: `< ${TARGET_MS} ms`, pass: fastest.ms < TARGET_MS, note: `${fastest.findings} findings, fresh process, ${fastest.cpuMs.toFixed(0)} ms of CPU` },
      { name: "lint: peak memory of that process", value: cliPeak, unit: "MB", target: `< ${TARGET_MB} MB`, pass: cliPeak < TARGET_MB, note: `a bare node process peaks at ${bare} MB` },
      { name: "lint: planted duplicates found by similarity", value: fastest.similar, unit: "pairs", target: `${PLANTED_DUPLICATES}`, pass: fastest.similar === PLANTED_DUPLICATES, note: "rewrites with a fifth of their words changed; no other pair" },
      { name: `lint: as the plugin runs it (best of ${RUNS})`, value: inPlugin.ms, unit: "ms", target: `< ${TARGET_MS} ms`, pass: inPlugin.ms < TARGET_MS, note: `${inPlugin.cpuMs.toFixed(0)} ms of CPU; peak ${pluginPeak.toFixed(0)} MB with tsx loaded; longest event-loop block ${inPlugin.longestBlockMs.toFixed(0)} ms` },
      { name: "lint: as the plugin runs it, longest time slice of the whole run (CPU)", value: slice, unit: "ms", target: `≤ ${SLICE_MS} ms`, pass: slice <= SLICE_MS, note: `${sliceWall.toFixed(0)} ms of wall time; longest event-loop block of ${RUNS} runs ${block.toFixed(0)} ms; the duplicate pass alone took ${pass.passMs.toFixed(0)} ms (${pass.passCpuMs.toFixed(0)} ms of CPU), its longest slice ${passSlice.toFixed(0)} ms of CPU` },
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
