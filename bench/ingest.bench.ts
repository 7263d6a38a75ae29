/**
 * Ingest overhead: 200 corpus notes ingested one after another with the Offline provider into a
 * vault whose wiki already has 1,000 pages.
 * - Orchestration overhead: wall time minus the time inside the provider, on an in-memory vault, so
 *   it measures Synapse's own work (perimeter, wiki context, validation, planning, index and log).
 * - On disk: the same ingests through the file-system vault, where the writes of ~7 files a note
 *   add whatever the disk costs.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import type { InferenceProvider } from "../src/core/provider";
import { OfflineProvider } from "../src/providers/offline/offline-provider";
import { DEFAULT_SETTINGS } from "../src/settings/schema";
import { MemoryVault } from "../src/vault/memory-vault";
import { NodeVault } from "../src/vault/node-vault";
import type { VaultPort } from "../src/vault/vault-port";
import { upsertIndex } from "../src/write/index-log";
import { ingestNote } from "../src/wiki/ingest-note";
import { corpusNotes } from "../test/helpers/corpus";
import { percentile, type BenchResult } from "./stats";

const WIKI_PAGES = 1000;
const NOTES = 200;
const TARGET_MS = 20;

/** Times every provider call so it can be subtracted from the ingest's wall time. */
function timed(provider: InferenceProvider, clock: { ms: number }): InferenceProvider {
  const time = async <T>(work: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    try {
      return await work();
    } finally {
      clock.ms += performance.now() - start;
    }
  };
  return {
    capabilities: () => provider.capabilities(),
    analyze: (text, context, run) => time(() => provider.analyze(text, context, run)),
    generate: (input, run) => time(() => provider.generate(input, run)),
    chat: (messages, context, run) => provider.chat(messages, context, run),
  };
}

/** The files of a vault with 1,000 wiki pages, an index, and the notes to ingest. */
function vaultFiles(notes: readonly { path: string; text: string }[]): Record<string, string> {
  const files: Record<string, string> = {};
  const entries = [];
  for (let i = 0; i < WIKI_PAGES; i++) {
    const title = `Seed concept ${i}`;
    const path = `wiki/concepts/${title}.md`;
    files[path] = `---\ntype: concept\ntitle: ${title}\nsources:\n  - seed.md\nlang: en\ntags: []\n---\n\nA seeded page about topic ${i}, linking [[Seed concept ${(i + 1) % WIKI_PAGES}]].\n`;
    entries.push({ path, type: "concept", title });
  }
  files["wiki/index.md"] = upsertIndex("", entries);
  for (const note of notes) files[`sources/${note.path}`] = note.text;
  return files;
}

interface Series {
  totals: number[];
  overheads: number[];
  written: number;
  failures: number;
  peakRss: number;
}

async function ingestAll(vault: VaultPort, notes: readonly { path: string }[]): Promise<Series> {
  const offline = new OfflineProvider();
  const series: Series = { totals: [], overheads: [], written: 0, failures: 0, peakRss: process.memoryUsage().rss };
  for (const note of notes) {
    const clock = { ms: 0 };
    const start = performance.now();
    const report = await ingestNote({ vault, provider: timed(offline, clock), settings: DEFAULT_SETTINGS }, { notePath: `sources/${note.path}` });
    const total = performance.now() - start;
    series.totals.push(total);
    series.overheads.push(total - clock.ms);
    series.written += report.pages.length;
    if (!report.converged) series.failures += 1;
    series.peakRss = Math.max(series.peakRss, process.memoryUsage().rss);
  }
  return series;
}

export async function benchIngest(): Promise<BenchResult[]> {
  const english = corpusNotes("en", NOTES);
  const notes = [...english, ...corpusNotes("de", NOTES - english.length).map((n) => ({ ...n, path: `de/${n.path}` }))];
  const files = vaultFiles(notes);

  const memory = await ingestAll(new MemoryVault(files), notes);

  const root = mkdtempSync(join(tmpdir(), "synapse-bench-"));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  const disk = await ingestAll(new NodeVault(root), notes);
  rmSync(root, { recursive: true, force: true });

  const median = percentile(memory.overheads, 50);
  return [
    { name: "ingest: notes", value: notes.length, unit: "notes", note: `${memory.failures} not converged, ${memory.written} pages written, wiki of ${WIKI_PAGES}+ pages` },
    { name: "ingest: orchestration overhead (median)", value: median, unit: "ms", target: `< ${TARGET_MS} ms`, pass: median < TARGET_MS },
    { name: "ingest: orchestration overhead (p95)", value: percentile(memory.overheads, 95), unit: "ms" },
    { name: "ingest: Offline provider time (median)", value: percentile(memory.totals.map((t, i) => t - (memory.overheads[i] ?? 0)), 50), unit: "ms" },
    { name: "ingest on disk: total per note (median)", value: percentile(disk.totals, 50), unit: "ms", note: "includes writing ~7 files" },
    { name: "ingest on disk: total per note (p95)", value: percentile(disk.totals, 95), unit: "ms" },
    { name: "ingest: peak RSS", value: Math.max(memory.peakRss, disk.peakRss) / (1024 * 1024), unit: "MB" },
  ];
}
