/**
 * How fast the CLI starts, as a ratio to a bare `node -e 0` on the same machine in the same run
 * (target: `--version` and `--help` within 1.5×). Runs are interleaved so a machine that gets
 * busier during the bench slows both sides alike. Needs `npm run build` first.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { percentile, type BenchResult } from "./stats";

const RUNS = 15;
const RATIO_TARGET = 1.5;

function timeOf(args: readonly string[]): number {
  const start = performance.now();
  const result = spawnSync(process.execPath, [...args], { stdio: "ignore" });
  if (result.status !== 0) throw new Error(`node ${args.join(" ")} exited with ${result.status}`);
  return performance.now() - start;
}

export function benchCli(): BenchResult[] {
  const cli = join(process.cwd(), "dist", "cli.mjs");
  const cases: Record<string, readonly string[]> = {
    "node -e 0": ["-e", "0"],
    "synapse --version": [cli, "--version"],
    "synapse --help": [cli, "--help"],
    "synapse ingest --help": [cli, "ingest", "--help"],
  };
  const times = new Map<string, number[]>(Object.keys(cases).map((name) => [name, []]));
  for (let i = 0; i < RUNS; i++) {
    for (const [name, args] of Object.entries(cases)) times.get(name)?.push(timeOf(args));
  }
  const bare = percentile(times.get("node -e 0") ?? [], 50);
  const results: BenchResult[] = [{ name: "cli: node -e 0, median", value: bare, unit: "ms", note: "the floor" }];
  for (const name of Object.keys(cases).slice(1)) {
    const median = percentile(times.get(name) ?? [], 50);
    const ratio = median / bare;
    results.push({ name: `cli: ${name}, median / node -e 0`, value: ratio, unit: "×", target: `≤ ${RATIO_TARGET}×`, pass: ratio <= RATIO_TARGET, note: `${median.toFixed(0)} ms` });
  }
  return results;
}
