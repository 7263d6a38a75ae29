/**
 * One measurement of the retrieval benchmark, in a fresh process so that its time and peak memory
 * are its own (cold figures). Prints one JSON line. Run by bench/retrieval.bench.ts:
 *   node --import tsx bench/retrieval-child.ts <mode> <vaultRoot> <storeDir> <queriesFile>
 * Modes: synapse-build, synapse-warm, minisearch-build, minisearch-warm; and synapse-update: only
 * the one-note updates, against an index built once by synapse-build (queries file optional), e.g.
 *   node --import tsx bench/retrieval-child.ts synapse-update <vaultRoot> <storeDir>
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import MiniSearch from "minisearch";
import { syncIndex } from "../src/retrieval/sync";
import { VaultIndex } from "../src/retrieval/vault-index";
import { readFrontmatter } from "../src/retrieval/chunker";
import { NodeStateStore } from "../src/vault/node-state-store";
import { NodeVault } from "../src/vault/node-vault";
import { percentile } from "./stats";

const [mode = "", vaultRoot = "", storeDir = "", queriesFile = ""] = process.argv.slice(2);
const vault = new NodeVault(vaultRoot);
const queries = queriesFile ? (JSON.parse(readFileSync(queriesFile, "utf8")) as string[]) : [];
const UPDATES = 200;
const MINISEARCH_OPTIONS = { fields: ["title", "text"], storeFields: [] as string[] };
const MINISEARCH_FILE = () => join(storeDir, "minisearch.json");

const peakMb = () => process.resourceUsage().maxRSS / 1024;
const titleOf = (path: string) => path.slice(path.lastIndexOf("/") + 1).replace(/\.md$/, "");

/** Every few notes, one to edit: the same ones for both engines. */
async function editTargets(): Promise<string[]> {
  const all = await vault.list("");
  const step = Math.max(1, Math.floor(all.length / UPDATES));
  return all.filter((_, i) => i % step === 0).slice(0, UPDATES);
}

async function timeQueries(run: (q: string) => unknown): Promise<number[]> {
  const times: number[] = [];
  for (const q of queries.slice(0, 10)) await run(q); // warm the JIT, as a running plugin would be
  for (const q of queries) {
    const start = performance.now();
    await run(q);
    times.push(performance.now() - start);
  }
  return times;
}

async function synapseBuild(): Promise<Record<string, number>> {
  const store = new NodeStateStore(storeDir);
  const start = performance.now();
  const index = await VaultIndex.open({ frontmatter: readFrontmatter, store, reader: vault, wikiFolder: "wiki", excludedFolders: [] });
  const sync = await syncIndex(index, vault, { batchSize: 500, flush: false });
  // The first flush writes every shard (merging each segment first): the largest flush there is.
  await index.flush();
  return {
    buildMs: performance.now() - start,
    notes: sync.total,
    chunks: index.text.chunkCount,
    peakMb: peakMb(),
  };
}

async function synapseWarm(): Promise<Record<string, number>> {
  let start = performance.now();
  const index = await VaultIndex.open({ frontmatter: readFrontmatter, store: new NodeStateStore(storeDir), reader: vault, wikiFolder: "wiki", excludedFolders: [] });
  const warmMs = performance.now() - start;
  // Then every note's time and size is checked against the index.
  start = performance.now();
  const sync = await syncIndex(index, vault, { batchSize: 50, embed: false });
  const checkMs = performance.now() - start;
  const query = await timeQueries((q) => index.retrieve(q, { scope: { kind: "all" }, limit: 10 }));
  return {
    warmMs,
    checkMs,
    reindexed: sync.indexed,
    rejected: index.rejectedShards,
    queryP50: percentile(query, 50),
    queryP95: percentile(query, 95),
    ...(await timeUpdates(index)),
    peakMb: peakMb(),
  };
}

/**
 * One-note updates until searchable: each edit of a note, then a search that must see it, then the
 * flush that writes its shard (timed apart, as the plugin flushes after a pause).
 */
async function timeUpdates(index: VaultIndex): Promise<Record<string, number>> {
  const update: number[] = [];
  const upsert: number[] = [];
  const persist: number[] = [];
  let cpuMicros = 0;
  let n = 0;
  for (const path of await editTargets()) {
    const text = `${await vault.read(path)}\n\nEdited for the benchmark, edit ${n++}.`;
    const cpu = process.cpuUsage();
    const start = performance.now();
    index.upsert(path, text, { mtime: Date.now(), size: text.length });
    upsert.push(performance.now() - start);
    index.searchText("edited", { scope: { kind: "all" }, limit: 1 });
    update.push(performance.now() - start);
    const used = process.cpuUsage(cpu);
    cpuMicros += used.user + used.system;
    const flushStart = performance.now();
    await index.flush();
    persist.push(performance.now() - flushStart);
  }
  return {
    updates: update.length,
    updateP50: percentile(update, 50),
    updateP95: percentile(update, 95),
    upsertP50: percentile(upsert, 50),
    upsertP95: percentile(upsert, 95),
    /** CPU time per update (upsert and search), which the machine's load does not inflate as it does wall time. */
    updateCpuMs: cpuMicros / 1000 / Math.max(1, update.length),
    persistP50: percentile(persist, 50),
  };
}

async function synapseUpdate(): Promise<Record<string, number>> {
  const index = await VaultIndex.open({ frontmatter: readFrontmatter, store: new NodeStateStore(storeDir), reader: vault, wikiFolder: "wiki", excludedFolders: [] });
  const sync = await syncIndex(index, vault, { batchSize: 500 });
  return { reindexed: sync.indexed, ...(await timeUpdates(index)) };
}

async function notes(): Promise<{ id: string; title: string; text: string }[]> {
  const out = [];
  for (const path of await vault.list("")) out.push({ id: path, title: titleOf(path), text: await vault.read(path) });
  return out;
}

async function miniBuild(): Promise<Record<string, number>> {
  const start = performance.now();
  const mini = new MiniSearch(MINISEARCH_OPTIONS);
  const docs = await notes();
  mini.addAll(docs);
  const buildMs = performance.now() - start;
  const json = JSON.stringify(mini);
  writeFileSync(MINISEARCH_FILE(), json);
  return { buildMs, notes: docs.length, bytes: Buffer.byteLength(json), peakMb: peakMb() };
}

async function miniWarm(): Promise<Record<string, number>> {
  let start = performance.now();
  const mini = MiniSearch.loadJSON(readFileSync(MINISEARCH_FILE(), "utf8"), MINISEARCH_OPTIONS);
  const warmMs = performance.now() - start;
  const query = await timeQueries((q) => mini.search(q).slice(0, 10));
  const update: number[] = [];
  let n = 0;
  for (const path of await editTargets()) {
    const text = `${await vault.read(path)}\n\nEdited for the benchmark, edit ${n++}.`;
    start = performance.now();
    mini.replace({ id: path, title: titleOf(path), text });
    update.push(performance.now() - start);
  }
  return { warmMs, queryP50: percentile(query, 50), queryP95: percentile(query, 95), updateP50: percentile(update, 50), updateP95: percentile(update, 95), peakMb: peakMb() };
}

const modes: Record<string, () => Promise<Record<string, number>>> = {
  "synapse-build": synapseBuild,
  "synapse-warm": synapseWarm,
  "synapse-update": synapseUpdate,
  "minisearch-build": miniBuild,
  "minisearch-warm": miniWarm,
};
const run = modes[mode];
if (!run) throw new Error(`Unknown mode ${mode}`);
console.log(JSON.stringify(await run()));
