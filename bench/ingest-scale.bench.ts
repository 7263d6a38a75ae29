/**
 * Does one ingest cost the same on a big wiki as on a small one? On disk (NodeVault), in a vault
 * holding the user's notes (corpus notes in several languages) beside a wiki of real-sized pages
 * (bodies of corpus notes), an index.md listing every page and a log.md, with the vault's search
 * index open as `synapse ingest` opens it (the index is built first; that time is reported apart),
 * and the write path's state on disk as `synapse ingest` keeps it: the journal, the history of runs
 * and the registry of ingested notes (one note recorded per source page, as a wiki built by Synapse
 * has):
 * - one ingest's orchestration cost (wall time minus the time inside the Offline provider) at
 *   1,000 and at 20,000 wiki pages, and their ratio (target: at most 1.5), the two wikis open at
 *   once and their ingests alternating, so that a shared machine's load falls on both alike; beside
 *   it the same ratio in CPU time (process.cpuUsage, the provider's CPU time subtracted), which other
 *   jobs on the machine move much less. Each ingest is of a note never ingested before ("cold":
 *   nothing about it is cached or recorded), and includes retrieval, planning, writing, index.md,
 *   log.md, the run's journal and history, and indexing what it wrote (the index's shards are
 *   written after the ingest, as `synapse ingest` does, and not timed). The notes ingested come from
 *   every language of the corpus, and so do the wiki's pages at both sizes, as a user's wiki is in
 *   the language of the user's notes; no page's body is a twin of a note ingested;
 * - building a wiki note by note: the cost of each ingest against the pages the wiki had, as a
 *   slope (µs per existing page), which is zero when building a wiki is linear.
 * Sizes: SYNAPSE_BENCH_PAGES="1000,20000" (comma-separated), SYNAPSE_BENCH_BUILD=200 notes.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import type { InferenceProvider } from "../src/core/provider";
import { splitFrontmatter } from "../src/core/markdown";
import { OfflineProvider } from "../src/providers/offline/offline-provider";
import { indexCatalog } from "../src/retrieval/catalog";
import { syncIndex } from "../src/retrieval/sync";
import { VaultIndex } from "../src/retrieval/vault-index";
import { readFrontmatter } from "../src/retrieval/chunker";
import { DEFAULT_SETTINGS } from "../src/settings/schema";
import { NodeStateStore, STATE_FOLDER } from "../src/vault/node-state-store";
import { NodeVault } from "../src/vault/node-vault";
import { nodeWriteContext } from "../src/node/write-context";
import type { WriteContext } from "../src/write/apply";
import { upsertIndex } from "../src/write/index-log";
import { ingestNote } from "../src/wiki/ingest-note";
import { migrateWholeRegistry } from "../src/write/source-registry-shards";
import type { WikiCatalog } from "../src/wiki/ingest-types";
import { corpusNotes } from "../test/helpers/corpus";
import { percentile, type BenchResult } from "./stats";

const SIZES = (process.env.SYNAPSE_BENCH_PAGES ?? "1000,20000").split(",").map(Number).filter((n) => n > 0);
const BUILD_NOTES = Number(process.env.SYNAPSE_BENCH_BUILD ?? 200);
/** Enough that one ingest slowed by another job cannot move the median. */
const INGESTS_PER_SIZE = 24;
const USER_NOTES = 2000;
const LANGUAGES = ["en", "de", "fr", "es", "ja", "ru", "zh", "pt", "it", "ko", "ar", "pl"];

/** CPU time this process has used, user and system, in milliseconds. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Times provider calls (wall and CPU) so they can be subtracted from an ingest's. */
function timed(provider: InferenceProvider, clock: { ms: number; cpu: number }): InferenceProvider {
  const time = async <T>(work: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    const cpu = cpuMs();
    try {
      return await work();
    } finally {
      clock.ms += performance.now() - start;
      clock.cpu += cpuMs() - cpu;
    }
  };
  return {
    capabilities: () => provider.capabilities(),
    analyze: (text, context, run) => time(() => provider.analyze(text, context, run)),
    generate: (input, run) => time(() => provider.generate(input, run)),
    chat: (messages, context, run) => provider.chat(messages, context, run),
  };
}

/** The corpus's notes, the languages interleaved (one note of each in turn), so any prefix holds them all alike. */
export function corpus(): { path: string; text: string }[] {
  const byLanguage = LANGUAGES.map((lang) => corpusNotes(lang).map((n) => ({ path: `${lang}/${n.path}`, text: n.text })));
  const out: { path: string; text: string }[] = [];
  for (let i = 0; byLanguage.some((notes) => i < notes.length); i++) for (const notes of byLanguage) if (i < notes.length) out.push(notes[i] as { path: string; text: string });
  return out;
}

/** The user's notes, the ones ingested (the last of them) and the one ingested first to warm up. */
export function notesOf(notes: readonly { path: string; text: string }[]): { user: typeof notes; ingested: typeof notes; warmUp: (typeof notes)[number] | undefined } {
  const user = notes.slice(0, USER_NOTES);
  return { user, ingested: user.slice(-INGESTS_PER_SIZE), warmUp: user.at(-INGESTS_PER_SIZE - 1) };
}

function write(root: string, path: string, content: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
}

/**
 * A vault on disk with the user's notes and a wiki of `pages` real-sized pages, their bodies those
 * of the corpus's notes but the ones ingested (a page the twin of the note ingested would be found
 * at one size and not the other).
 */
export function buildVault(notes: readonly { path: string; text: string }[], pages: number): string {
  const root = mkdtempSync(join(tmpdir(), "synapse-scale-"));
  const { user, ingested, warmUp } = notesOf(notes);
  for (const note of user) write(root, `notes/${note.path}`, note.text);
  const ingestedPaths = new Set([...ingested, ...(warmUp ? [warmUp] : [])].map((n) => n.path));
  const bodies = notes.filter((n) => !ingestedPaths.has(n.path));
  const entries = [];
  const types = ["concept", "entity", "source"] as const;
  const folders = { concept: "concepts", entity: "entities", source: "sources" };
  for (let i = 0; i < pages; i++) {
    const from = bodies[i % bodies.length] ?? { path: "x.md", text: "" };
    const type = types[i % 3] ?? "concept";
    const title = `${from.path.slice(from.path.lastIndexOf("/") + 1).replace(/\.md$/, "")} ${i}`;
    const path = `wiki/${folders[type]}/${title}.md`;
    const body = splitFrontmatter(from.text).body.trim();
    write(root, path, `---\ntype: ${type}\ntitle: "${title.replace(/"/g, "'")}"\nsources:\n  - "[[notes/${from.path.replace(/\.md$/, "")}]]"\nlang: en\n---\n\n${body}\n`);
    entries.push({ path, type, title });
  }
  write(root, "wiki/index.md", upsertIndex("", entries));
  // The registry of ingested notes as a wiki built note by note has it: one note per source page.
  const registry: Record<string, unknown> = {};
  for (const [i, entry] of entries.entries()) {
    if (entry.type !== "source") continue;
    registry[`notes/ingested/${i}.md`] = { hash: `sha256:${i.toString(16).padStart(64, "0")}`, ingestedAt: "2026-11-01T00:00:00.000Z", wikiFolder: "wiki", pages: [entry.path], runId: null };
  }
  write(root, `${STATE_FOLDER}/sources.json`, `${JSON.stringify({ version: 1, notes: registry }, null, 1)}\n`);
  const log = ["# Synapse log", ""];
  for (let i = 0; i < Math.floor(pages / 3); i++) log.push(`## [2026-11-01] ingest | n${i}`, "", `- created [[wiki/concepts/n${i}|n${i}]]`, "");
  write(root, "wiki/log.md", `${log.join("\n")}\n`);
  return root;
}

interface Opened {
  readonly vault: NodeVault;
  readonly index: VaultIndex;
  readonly catalog: WikiCatalog;
  readonly write: WriteContext;
  readonly buildMs: number;
}

/** Opens and builds the vault's index as `synapse ingest` does. */
export async function openIndex(root: string): Promise<Opened> {
  const vault = new NodeVault(root);
  // The registry is written whole above, as an earlier version kept it; split it as the first start does.
  await migrateWholeRegistry(NodeStateStore.forVault(root));
  const start = performance.now();
  const index = await VaultIndex.open({ frontmatter: readFrontmatter, store: NodeStateStore.forVault(root), reader: vault, wikiFolder: "wiki", excludedFolders: [] });
  await syncIndex(index, vault, { batchSize: 200 });
  const buildMs = performance.now() - start;
  // As in `synapse ingest`, the changed shards are written after the ingest, not during it.
  return { vault, index, catalog: indexCatalog(index, vault), write: nodeWriteContext(root, { kind: "cli", env: {} }), buildMs };
}

/**
 * What `synapse ingest` spends bringing an index that is already up to date up to date again, once
 * per command: the vault listed, only the wiki and the note checked (as it does), against every
 * note checked (as it did), medians of 5 in the same run.
 */
async function catchUpCost(opened: Opened, size: number): Promise<BenchResult[]> {
  const note = (await opened.vault.list("notes"))[0] ?? "notes/none.md";
  const median = async (only?: { folders: string[]; notes: string[] }) => {
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const start = performance.now();
      await syncIndex(opened.index, opened.vault, { batchSize: 200, flush: false, ...(only ? { only } : {}) });
      times.push(performance.now() - start);
    }
    return percentile(times, 50);
  };
  const part = await median({ folders: ["wiki"], notes: [note] });
  const whole = await median();
  const at = `ingest at ${size.toLocaleString("en-US")} pages`;
  return [
    { name: `${at}: index catch-up per command (wiki + note)`, value: part, unit: "ms", note: `nothing changed; the whole vault: ${whole.toFixed(1)} ms (${(whole / part).toFixed(1)}× more)` },
  ];
}

async function ingestCost(opened: Opened, notePath: string): Promise<{ overhead: number; cpu: number; pages: number }> {
  const clock = { ms: 0, cpu: 0 };
  const start = performance.now();
  const cpu = cpuMs();
  const report = await ingestNote(
    { vault: opened.vault, provider: timed(new OfflineProvider(), clock), settings: DEFAULT_SETTINGS, retriever: opened.index, catalog: opened.catalog, write: opened.write },
    { notePath },
  );
  if (report.error) throw new Error(`The benchmark's ingest of ${notePath} failed: ${report.error.message}`);
  const overhead = performance.now() - start - clock.ms;
  const cpuOverhead = cpuMs() - cpu - clock.cpu;
  await opened.index.flush();
  return { overhead, cpu: cpuOverhead, pages: report.pages.length };
}

export async function benchIngestScale(): Promise<BenchResult[]> {
  const notes = corpus();
  const results: BenchResult[] = [];
  const medians = new Map<number, { wall: number; cpu: number }>();
  // The notes ingested are ones the vault holds: the last of the user's notes, in every language.
  const { user: userNotes, ingested: toIngest, warmUp } = notesOf(notes);
  // Both wikis are open at once and their ingests alternate (in turn reversed), so that the load of
  // a shared machine, which drifts over minutes, falls on both sizes alike.
  const wikis: { size: number; root: string; opened: Opened; costs: number[]; cpu: number[] }[] = [];
  try {
    for (const size of SIZES) {
      const root = buildVault(notes, size);
      wikis.push({ size, root, opened: await openIndex(root), costs: [], cpu: [] });
    }
    for (const { size, opened } of wikis) {
      results.push({ name: `ingest at ${size.toLocaleString("en-US")} pages: index build`, value: opened.buildMs / 1000, unit: "s", note: `${opened.index.size.toLocaleString("en-US")} notes and pages, the first time only` });
      results.push(...(await catchUpCost(opened, size)));
      if (warmUp) await ingestCost(opened, `notes/${warmUp.path}`); // JIT and file-system caches, for both sizes alike
    }
    for (const [round, note] of toIngest.entries()) {
      for (const wiki of round % 2 === 0 ? wikis : [...wikis].reverse()) {
        const cost = await ingestCost(wiki.opened, `notes/${note.path}`);
        wiki.costs.push(cost.overhead);
        wiki.cpu.push(cost.cpu);
      }
    }
    for (const { size, costs, cpu } of wikis) {
      const median = { wall: percentile(costs, 50), cpu: percentile(cpu, 50) };
      medians.set(size, median);
      results.push({
        name: `ingest at ${size.toLocaleString("en-US")} pages: orchestration (median)`,
        value: median.wall,
        unit: "ms",
        note: `on disk, ${USER_NOTES.toLocaleString("en-US")} user notes, ${INGESTS_PER_SIZE} notes, p95 ${percentile(costs, 95).toFixed(1)} ms; CPU time median ${median.cpu.toFixed(1)} ms`,
      });
    }
  } finally {
    for (const { root } of wikis) rmSync(root, { recursive: true, force: true });
  }
  const small = medians.get(Math.min(...SIZES));
  const large = medians.get(Math.max(...SIZES));
  if (small !== undefined && large !== undefined && SIZES.length > 1) {
    const ratio = large.wall / small.wall;
    results.push({ name: "ingest: largest / smallest wiki", value: ratio, unit: "×", target: "≤ 1.5×", pass: ratio <= 1.5, note: "both wikis ingest in turn, so a shared machine's drifting load falls on both alike" });
    results.push({ name: "ingest: largest / smallest wiki, CPU time", value: large.cpu / small.cpu, unit: "×", note: "the same ingests' CPU time, which other jobs move less than wall time" });
  }

  // Building a wiki note by note, from empty.
  if (BUILD_NOTES > 0) {
    const root = buildVault(notes, 0);
    try {
      const opened = await openIndex(root);
      const xs: number[] = [];
      const ys: number[] = [];
      for (const note of userNotes.slice(0, BUILD_NOTES)) {
        const before = opened.catalog.pageCount();
        const { overhead } = await ingestCost(opened, `notes/${note.path}`);
        xs.push(before);
        ys.push(overhead);
      }
      // Medians of the first and last tenth, against the pages the wiki had then: robust to the
      // outliers a loaded machine throws in, where a least-squares slope is not.
      const tenth = Math.max(1, Math.floor(ys.length / 10));
      const first = { cost: percentile(ys.slice(0, tenth), 50), pages: percentile(xs.slice(0, tenth), 50) };
      const last = { cost: percentile(ys.slice(-tenth), 50), pages: percentile(xs.slice(-tenth), 50) };
      const perPage = last.pages > first.pages ? ((last.cost - first.cost) / (last.pages - first.pages)) * 1000 : 0;
      results.push({
        name: "building a wiki: cost growth per existing page",
        value: perPage,
        unit: "µs",
        note: `${ys.length} ingests up to ${xs.at(-1) ?? 0} pages; median ${first.cost.toFixed(1)} ms at ~${first.pages} pages, ${last.cost.toFixed(1)} ms at ~${last.pages}`,
      });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }
  return results;
}

/** The measured ingests at one size, with hooks around them alone (bench/profile-ingest.ts). */
export async function profileIngests(pages: number, start: () => Promise<void>, stop: () => Promise<void>): Promise<number> {
  const notes = corpus();
  const { ingested, warmUp } = notesOf(notes);
  const root = buildVault(notes, pages);
  try {
    const opened = await openIndex(root);
    if (warmUp) await ingestCost(opened, `notes/${warmUp.path}`);
    const costs: number[] = [];
    await start();
    for (const note of ingested) costs.push((await ingestCost(opened, `notes/${note.path}`)).overhead);
    await stop();
    return percentile(costs, 50);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

// `tsx bench/ingest-scale.bench.ts` runs this benchmark alone.
if (import.meta.url === `file://${process.argv[1] ?? ""}`) {
  const { printResults } = await import("./stats");
  printResults(await benchIngestScale());
}
