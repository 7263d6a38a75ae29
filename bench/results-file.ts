/**
 * `npm run bench` writes its figures to bench/RESULTS.md: the latest run only, with the machine it
 * ran on, so a figure quoted anywhere can be traced to one file and one machine instead of being
 * copied into prose where it goes stale.
 */
import { writeFileSync } from "node:fs";
import { availableParallelism, cpus, totalmem } from "node:os";
import type { BenchResult } from "./stats";

export interface Machine {
  readonly cpu: string;
  readonly cores: number;
  readonly memoryBytes: number;
  readonly node: string;
  readonly platform: string;
}

export function describeMachine(): Machine {
  return {
    cpu: cpus()[0]?.model.trim() || "unknown",
    cores: availableParallelism(),
    memoryBytes: totalmem(),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  };
}

export interface ResultsRun {
  readonly results: readonly BenchResult[];
  readonly machine: Machine;
  readonly ranAt: Date;
  /** The options the bench was run with (`--retrieval-50k`, …), shown so a reader knows what ran. */
  readonly args: readonly string[];
}

/** A table cell: pipes and line breaks would end the cell or the row. */
function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}

function formatValue(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

function verdict(result: BenchResult): string {
  if (result.pass === undefined) return "";
  return result.pass ? "met" : "**missed**";
}

export function renderResultsFile(run: ResultsRun): string {
  const { machine, results } = run;
  const missed = results.filter((r) => r.pass === false).length;
  const lines = [
    "# Benchmark results",
    "",
    "Written by `npm run bench` (bench/run.ts): the latest run only. Do not edit by hand; run the bench again.",
    "Figures depend on the machine and on what else ran on it; compare runs on one machine, and prefer ratios.",
    "",
    "| machine | |",
    "|---|---|",
    `| CPU | ${cell(machine.cpu)} |`,
    `| cores | ${machine.cores} |`,
    `| memory | ${(machine.memoryBytes / 2 ** 30).toFixed(1)} GiB |`,
    `| Node.js | ${cell(machine.node)} |`,
    `| platform | ${cell(machine.platform)} |`,
    `| run | ${run.ranAt.toISOString()} |`,
    `| options | ${run.args.length === 0 ? "none" : cell(run.args.map((a) => `\`${a}\``).join(" "))} |`,
    "",
    "| figure | value | unit | target | verdict | note |",
    "|---|---:|---|---|---|---|",
    ...results.map((r) => `| ${cell(r.name)} | ${formatValue(r.value)} | ${cell(r.unit)} | ${cell(r.target ?? "")} | ${verdict(r)} | ${cell(r.note ?? "")} |`),
    "",
    missed === 0 ? "All targets met." : `${missed} target(s) missed.`,
    "",
  ];
  return lines.join("\n");
}

export function writeResultsFile(path: string | URL, run: ResultsRun): void {
  writeFileSync(path, renderResultsFile(run));
}
