/**
 * Retrieval at scale: Synapse's index against a plain MiniSearch index over whole notes, measured
 * in the same run on the same notes and queries, each figure printed with its ratio.
 * - The 6,287 notes of the obsidian-help corpus (test/helpers/corpus.ts; read in place, never written).
 * - Opt-in (`npm run bench -- --retrieval-50k`, or SYNAPSE_BENCH_50K=1): a 50,000-note vault written
 *   to a temporary folder from the corpus notes (copies in numbered folders, each with its own line).
 * Each measurement runs in a fresh process (bench/retrieval-child.ts), so build, warm start (loading
 * the persisted index) and peak memory (maxRSS, the Node runtime included) are cold figures. These
 * run the index in process, as the CLI does; the same vaults indexed as the plugin indexes them, in
 * a worker, follow (plugin-index.bench.ts).
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CORPUS, requireCorpus } from "../test/helpers/corpus";
import { listNotes, queriesFor, syntheticVault } from "./bench-vaults";
import { childFigures } from "./child-figures";
import { benchPluginIndex } from "./plugin-index.bench";
import type { BenchResult } from "./stats";

const TARGETS = { buildMs: 60_000, peakMb: 1024, queryP95: 50, updateP95: 10, warmMs: 5000 };
const SYNTHETIC_NOTES = 50_000;

type Figures = Record<string, number>;

function child(mode: string, vaultRoot: string, storeDir: string, queriesFile: string): Partial<Figures> {
  return childFigures<Figures>("retrieval-child.ts", [mode, vaultRoot, storeDir, queriesFile]);
}

function sizeOf(dir: string, skip: (name: string) => boolean = () => false): number {
  let bytes = 0;
  for (const name of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    if (skip(name)) continue;
    const s = statSync(join(dir, name));
    if (s.isFile()) bytes += s.size;
  }
  return bytes;
}

function ratio(synapse: number, mini: number, other = "MiniSearch"): string {
  return mini > 0 ? `${(synapse / mini).toFixed(2)}× ${other} (${fmt(mini)})` : `${other}: n/a`;
}

const fmt = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(2));

function benchCase(label: string, vaultRoot: string): BenchResult[] {
  const work = mkdtempSync(join(tmpdir(), "synapse-bench-index-"));
  try {
    const storeDir = join(work, "state");
    const miniDir = join(work, "minisearch");
    mkdirSync(storeDir);
    mkdirSync(miniDir);
    const queriesFile = join(work, "queries.json");
    writeFileSync(queriesFile, JSON.stringify(queriesFor(listNotes(vaultRoot))));
    const build = child("synapse-build", vaultRoot, storeDir, queriesFile);
    const persisted = sizeOf(storeDir);
    const warm = child("synapse-warm", vaultRoot, storeDir, queriesFile);
    const miniBuild = child("minisearch-build", vaultRoot, miniDir, queriesFile);
    const miniWarm = child("minisearch-warm", vaultRoot, miniDir, queriesFile);
    const name = (what: string) => `retrieval ${label}: ${what}`;
    const peak = Math.max(build.peakMb ?? 0, warm.peakMb ?? 0);
    const miniPeak = Math.max(miniBuild.peakMb ?? 0, miniWarm.peakMb ?? 0);
    return [
      { name: name("build"), value: (build.buildMs ?? 0) / 1000, unit: "s", target: "< 60 s", pass: (build.buildMs ?? 0) < TARGETS.buildMs, note: `${build.notes} notes, ${build.chunks} chunks; ${ratio((build.buildMs ?? 0) / 1000, (miniBuild.buildMs ?? 0) / 1000)} s` },
      { name: name("peak memory"), value: peak, unit: "MB", target: "< 1 GB", pass: peak < TARGETS.peakMb, note: ratio(peak, miniPeak) },
      { name: name("persisted size"), value: persisted / 1e6, unit: "MB", note: `${ratio(persisted / 1e6, (miniBuild.bytes ?? 0) / 1e6)} MB, one JSON string` },
      { name: name("warm start"), value: (warm.warmMs ?? 0) / 1000, unit: "s", target: "< 5 s", pass: (warm.warmMs ?? 0) < TARGETS.warmMs, note: `${ratio((warm.warmMs ?? 0) / 1000, (miniWarm.warmMs ?? 0) / 1000)} s; then ${fmt(warm.checkMs ?? 0)} ms to check every note, ${warm.reindexed} re-indexed` },
      { name: name("query p50"), value: warm.queryP50 ?? 0, unit: "ms", note: ratio(warm.queryP50 ?? 0, miniWarm.queryP50 ?? 0) },
      { name: name("query p95"), value: warm.queryP95 ?? 0, unit: "ms", target: "< 50 ms", pass: (warm.queryP95 ?? 0) < TARGETS.queryP95, note: `${ratio(warm.queryP95 ?? 0, miniWarm.queryP95 ?? 0)}; fused text + graph with snippets` },
      { name: name("one-note update p95"), value: warm.updateP95 ?? 0, unit: "ms", target: "< 10 ms", pass: (warm.updateP95 ?? 0) < TARGETS.updateP95, note: `${ratio(warm.updateP95 ?? 0, miniWarm.updateP95 ?? 0)}; ${warm.updates} updates, each until searchable: median ${fmt(warm.updateP50 ?? 0)} ms, ${fmt(warm.updateCpuMs ?? 0)} ms CPU; writing its shard: ${fmt(warm.persistP50 ?? 0)} ms median` },
      // The same vault as the plugin indexes it, in a worker.
      ...benchPluginIndex(label, vaultRoot, queriesFile),
    ];
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export function wants50k(argv: readonly string[] = process.argv): boolean {
  return argv.includes("--retrieval-50k") || process.env.SYNAPSE_BENCH_50K === "1";
}

export function benchRetrieval(): BenchResult[] {
  requireCorpus("the retrieval benchmark");
  const results = benchCase(`${listNotes(CORPUS).length.toLocaleString("en")} notes`, CORPUS);
  if (!wants50k()) {
    results.push({ name: "retrieval 50,000 notes", value: 0, unit: "", note: "skipped; run `npm run bench -- --retrieval-50k` (takes several minutes)" });
    return results;
  }
  const root = syntheticVault(SYNTHETIC_NOTES);
  try {
    results.push(...benchCase("50,000 notes", root));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return results;
}
