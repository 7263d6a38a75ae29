/**
 * The search index as the plugin runs it: in a worker (here a worker thread, in Obsidian a Web
 * Worker) behind a RemoteIndex, the main thread reading notes and writing shards. What counts is
 * the main thread's longest task in each phase — cold build, first flush, warm start, searches,
 * updates — against "no main-thread task over 50 ms", and how soon a warm start answers (≤ 3 s at
 * 50,000 notes). Each of the two runs (build; warm start, searches, updates) is a fresh process
 * (plugin-index-child.ts), so the warm start is a cold process's.
 *
 * Run by retrieval.bench.ts on its vaults (the corpus; 50,000 notes with `--retrieval-50k`), or alone:
 *   npx tsx bench/plugin-index.bench.ts                          # the corpus as it is
 *   SYNAPSE_BENCH_NOTES=50000 npx tsx bench/plugin-index.bench.ts # copies of its notes
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { CORPUS, requireCorpus } from "../test/helpers/corpus";
import { listNotes, queriesFor, syntheticVault } from "./bench-vaults";
import { childFigures } from "./child-figures";
import { printResults, type BenchResult } from "./stats";

const TASK_TARGET_MS = 50;
const WARM_TARGET_S = 3;

type Figures = Record<string, number | string>;

const fmt = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));

/** A phase's longest task, with what it was made of beside it. */
function taskRow(name: string, f: Partial<Figures>, prefix: string, what: string): BenchResult {
  const num = (key: string) => Number(f[`${prefix}${key}`] ?? 0);
  const task = num("TaskMs");
  return {
    name,
    value: task,
    unit: "ms",
    target: `≤ ${TASK_TARGET_MS} ms`,
    pass: task <= TASK_TARGET_MS,
    note: `${what}; ${fmt(num("TaskCpuMs"))} ms of CPU in that task and ${fmt(num("TaskWaitMs"))} ms waiting for a core, at most ${fmt(num("MostCpuMs"))} ms of CPU in any; longest message ${fmt(num("MessageMs"))} ms (${String(f[`${prefix}MessageKind`] ?? "none")}), longest garbage collection ${fmt(num("GcMs"))} ms`,
  };
}

/** The plugin's figures over the vault at `vaultRoot`, with the queries in `queriesFile`. */
export function benchPluginIndex(label: string, vaultRoot: string, queriesFile: string): BenchResult[] {
  const storeDir = mkdtempSync(join(tmpdir(), "synapse-bench-plugin-"));
  try {
    const build = childFigures<Figures>("plugin-index-child.ts", ["build", vaultRoot, storeDir, queriesFile]);
    const warm = childFigures<Figures>("plugin-index-child.ts", ["warm", vaultRoot, storeDir, queriesFile]);
    const num = (f: Partial<Figures>, key: string) => Number(f[key] ?? 0);
    const name = (what: string) => `plugin ${label}: ${what}`;
    const warmS = num(warm, "warmMs") / 1000;
    return [
      taskRow(name("cold build, main thread's longest task"), build, "build", `index in a worker; ${num(build, "notes")} notes read and indexed in ${fmt(num(build, "buildMs") / 1000)} s`),
      taskRow(name("first flush, main thread's longest task"), build, "flush", `${num(build, "shards")} shards written in ${fmt(num(build, "flushMs") / 1000)} s`),
      {
        name: name("warm start"),
        value: warmS,
        unit: "s",
        target: `≤ ${WARM_TARGET_S} s`,
        pass: warmS <= WARM_TARGET_S,
        note: `until it answers: the shards loaded in ${fmt(num(warm, "openMs") / 1000)} s, then every note's time and size checked (${num(warm, "reindexed")} re-indexed)`,
      },
      taskRow(name("warm start, main thread's longest task"), warm, "warm", "the shards read for the worker, every note stat'ed"),
      taskRow(name("searches, main thread's longest task"), warm, "search", `${num(warm, "searches")} searches, each answered in ${fmt(num(warm, "searchP50"))} ms median, ${fmt(num(warm, "searchP95"))} ms p95`),
      taskRow(name("updates, main thread's longest task"), warm, "update", `${num(warm, "updates")} one-note edits, each until searchable in ${fmt(num(warm, "updateP50"))} ms median, ${fmt(num(warm, "updateP95"))} ms p95, then flushed`),
    ];
  } finally {
    rmSync(storeDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  requireCorpus("the plugin's index benchmark");
  const count = process.env.SYNAPSE_BENCH_NOTES ? Number(process.env.SYNAPSE_BENCH_NOTES) : null;
  const root = count === null ? CORPUS : syntheticVault(count);
  const work = mkdtempSync(join(tmpdir(), "synapse-bench-queries-"));
  try {
    const queriesFile = join(work, "queries.json");
    writeFileSync(queriesFile, JSON.stringify(queriesFor(listNotes(root))));
    printResults(benchPluginIndex(`${listNotes(root).length.toLocaleString("en")} notes`, root, queriesFile));
  } finally {
    rmSync(work, { recursive: true, force: true });
    if (root !== CORPUS) rmSync(root, { recursive: true, force: true });
  }
}
