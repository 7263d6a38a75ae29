/**
 * The plugin's size and start-up cost, measured on the built bundle (`npm run build` first):
 * - main.js size, minified (target ≤ 1,000,000 bytes), and its bytes per npm package (bench/plugin-size.ts);
 * - evaluating main.js, as Obsidian does when it loads the plugin;
 * - `onload()` against obsidian-test-mocks (target ≤ 20 ms): settings read, commands, ribbon,
 *   status bar, settings tab. Nothing heavy may happen here; SDKs load on first use.
 * - `onload()` cold: Obsidian runs it once, on a freshly evaluated bundle, so each cold figure
 *   comes from a new process (bench/plugin-cold.ts) that evaluates main.js and calls onload once;
 *   the warm median beside it is what the JIT makes of repeated runs.
 * Runs under plain Node: a happy-dom window stands in for Obsidian's renderer.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Window } from "happy-dom";
import { evaluateBundle } from "../test/obsidian/load-bundle";
import { measureBundle, sizeResults } from "./plugin-size";
import { percentile, type BenchResult } from "./stats";

const ROOT = process.cwd();
const RUNS = 50;
const ONLOAD_TARGET_MS = 20;
const COLD_RUNS = 7;

/** Median of onload in fresh processes, each evaluating main.js once as Obsidian does. */
function coldOnload(): { onloadMs: number; evalMs: number } {
  const onloads: number[] = [];
  const evals: number[] = [];
  for (let i = 0; i < COLD_RUNS; i++) {
    const child = spawnSync(process.execPath, ["--import", "tsx", join(ROOT, "bench", "plugin-cold.ts")], { cwd: ROOT, encoding: "utf8" });
    if (child.status !== 0) throw new Error(`plugin-cold.ts failed: ${child.stderr}`);
    const figures = JSON.parse(child.stdout.trim().split("\n").pop() ?? "{}") as { onloadMs: number; evalMs: number };
    onloads.push(figures.onloadMs);
    evals.push(figures.evalMs);
  }
  return { onloadMs: percentile(onloads, 50), evalMs: percentile(evals, 50) };
}

/** A happy-dom window's globals (those Node lacks), as a renderer has them. */
export function installDom(): void {
  const window = new Window({ url: "app://obsidian.md/" });
  const globals = globalThis as Record<string, unknown>;
  const source = window as unknown as Record<string, unknown>;
  for (const name of Object.getOwnPropertyNames(window)) {
    if (!(name in globals)) globals[name] = source[name];
  }
  globals.window = window;
  globals.document = window.document;
}

export async function benchPlugin(): Promise<BenchResult[]> {
  const bundle = join(ROOT, "main.js");
  const bundleSize = await measureBundle();
  const cold = coldOnload();
  installDom();
  const require = createRequire(join(ROOT, "package.json"));
  (require("obsidian-test-mocks/setup") as { setup(): void }).setup();
  const mocks = require("obsidian-test-mocks/obsidian") as {
    App: { createConfigured__(): { asOriginalType__(): unknown } };
  };
  const manifest = JSON.parse(readFileSync(join(ROOT, "manifest.json"), "utf8")) as unknown;
  const source = readFileSync(bundle, "utf8");

  const evalStart = performance.now();
  const module = evaluateBundle(source, (id) => (id === "obsidian" ? mocks : require(id)));
  const evalMs = performance.now() - evalStart;
  const SynapsePlugin = module.exports.default as new (app: unknown, manifest: unknown) => { onload(): Promise<void> };

  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const app = mocks.App.createConfigured__().asOriginalType__();
    const plugin = new SynapsePlugin(app, manifest);
    const start = performance.now();
    await plugin.onload();
    times.push(performance.now() - start);
  }
  const median = percentile(times, 50);
  return [
    ...sizeResults(bundleSize),
    { name: "plugin: evaluate main.js", value: evalMs, unit: "ms", note: "once, as Obsidian loads the plugin" },
    { name: `plugin: evaluate main.js, cold (median of ${COLD_RUNS} processes)`, value: cold.evalMs, unit: "ms" },
    {
      name: `plugin: onload, cold (median of ${COLD_RUNS} processes)`,
      value: cold.onloadMs,
      unit: "ms",
      target: `≤ ${ONLOAD_TARGET_MS} ms`,
      pass: cold.onloadMs <= ONLOAD_TARGET_MS,
      note: "once on a fresh bundle, as Obsidian runs it",
    },
    { name: "plugin: onload, first in this process", value: times[0] ?? Number.NaN, unit: "ms" },
    {
      name: `plugin: onload, warm median of ${RUNS}`,
      value: median,
      unit: "ms",
      target: `≤ ${ONLOAD_TARGET_MS} ms`,
      pass: median <= ONLOAD_TARGET_MS,
    },
  ];
}
