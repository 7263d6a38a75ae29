/**
 * One run of the plugin's index benchmark (plugin-index.bench.ts), in a fresh process: the index in
 * a worker thread behind a RemoteIndex, as the plugin runs it in a Web Worker, each phase's
 * longest main-thread task measured (main-thread-tasks.ts). Prints one JSON line.
 *   node --import tsx bench/plugin-index-child.ts <build|warm> <vaultRoot> <storeDir> <queriesFile>
 * - build: an empty store; open and sync as the plugin does (batches of 50, no embedding), then the
 *   first flush, which writes every shard, as a phase of its own.
 * - warm: the store the build wrote; open and sync (every note checked, none read), then searches,
 *   then one-note updates, each applied, searched for and flushed as the plugin's edit events are.
 *
 * The vault is Obsidian's as the plugin sees it (obsidian-vault.ts): listed and stat'ed from memory
 * (Obsidian keeps every file's path and stat once it has opened the vault; here they are taken
 * before the first phase), the listing in the order of Obsidian's file tree (no useful order: here
 * a fixed shuffle) for the worker to sort, each note read from disk when asked for, one a call (no
 * readWithStat), and the shards written to disk. The main thread thus holds no copy of the vault's text or of the
 * shards, as the plugin's does not: a vault and a store kept in memory would give this thread's
 * garbage collector a heap of 50,000 notes that Obsidian's main thread never has.
 */
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import type { RemoteIndex } from "../src/retrieval/worker/remote-index";
import { NodeStateStore } from "../src/vault/node-state-store";
import { NodeVault } from "../src/vault/node-vault";
import type { VaultPort } from "../src/vault/vault-port";
import { openInWorkerThread, workerScript } from "./index-worker-thread";
import { mainThreadTasks, type PhaseTasks } from "./main-thread-tasks";
import { percentile } from "./stats";

const [mode = "", vaultRoot = "", storeDir = "", queriesFile = ""] = process.argv.slice(2);
const UPDATES = 50;

/** The disk vault as Obsidian's is to a sync: listing and stats from memory, one note read a call (the call it lacks answers undefined). */
async function asObsidianHasIt(disk: NodeVault): Promise<VaultPort> {
  const sorted = await disk.list("");
  const stats = await disk.statMany(sorted);
  const statOf = new Map(sorted.map((path, i) => [path, stats[i] ?? null]));
  // Obsidian's order, which the worker sorts: a fixed shuffle (Fisher–Yates, an LCG).
  const tree = [...sorted];
  let seed = 1;
  for (let i = tree.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const j = seed % (i + 1);
    [tree[i], tree[j]] = [tree[j] as string, tree[i] as string];
  }
  const listInAnyOrder = async (folder: string) => (folder === "" ? [...tree] : tree.filter((path) => path.startsWith(`${folder}/`)));
  const own: Partial<Record<keyof VaultPort, unknown>> = {
    list: async (folder: string) => (await listInAnyOrder(folder)).sort(),
    listInAnyOrder,
    stat: async (path: string) => statOf.get(path) ?? null,
    statMany: async (paths: readonly string[]) => paths.map((path) => statOf.get(path) ?? null),
    readWithStat: undefined,
  };
  return new Proxy(disk, { get: (target, key, receiver) => (Object.hasOwn(own, key) ? own[key as keyof VaultPort] : Reflect.get(target, key, receiver)) as unknown });
}

const vault = await asObsidianHasIt(new NodeVault(vaultRoot));
const store = new NodeStateStore(storeDir);
const tasks = mainThreadTasks();
const queries = queriesFile ? (JSON.parse(readFileSync(queriesFile, "utf8")) as string[]) : [];

/** A phase's figures under a prefix, e.g. buildTaskMs. */
function figures(prefix: string, t: PhaseTasks): Record<string, number | string> {
  return {
    [`${prefix}TaskMs`]: t.longestTaskMs,
    [`${prefix}TaskCpuMs`]: t.longestTaskCpuMs,
    [`${prefix}TaskWaitMs`]: t.longestTaskWaitMs,
    [`${prefix}MostCpuMs`]: t.mostTaskCpuMs,
    [`${prefix}MessageMs`]: t.longestMessageMs,
    [`${prefix}MessageKind`]: t.longestMessageKind,
    [`${prefix}GcMs`]: t.longestGcMs,
  };
}

const open = () => openInWorkerThread({ store, reader: vault, wikiFolder: "wiki", excludedFolders: [] }, tasks);
const sync = (index: RemoteIndex, flush: boolean) => index.sync(vault, { batchSize: 50, embed: false, flush });

async function build(): Promise<Record<string, number | string>> {
  let start = performance.now();
  const built = await tasks.phase(async () => {
    const index = await open();
    return { index, sync: await sync(index, false) };
  });
  const buildMs = performance.now() - start;
  const { index } = built.result;
  start = performance.now();
  const flushed = await tasks.phase(() => index.flush());
  const flushMs = performance.now() - start;
  await index.close();
  return { notes: built.result.sync.total, buildMs, flushMs, shards: flushed.result.shardsWritten, ...figures("build", built.tasks), ...figures("flush", flushed.tasks) };
}

/** Every few notes, one to edit. */
async function editTargets(): Promise<string[]> {
  const all = await vault.list("");
  const step = Math.max(1, Math.floor(all.length / UPDATES));
  return all.filter((_, i) => i % step === 0).slice(0, UPDATES);
}

async function warm(): Promise<Record<string, number | string>> {
  let openMs = 0;
  let start = performance.now();
  const warmed = await tasks.phase(async () => {
    const index = await open();
    openMs = performance.now() - start;
    return { index, sync: await sync(index, true) };
  });
  const warmMs = performance.now() - start;
  const { index } = warmed.result;
  const searchTimes: number[] = [];
  const searched = await tasks.phase(async () => {
    for (const query of queries) {
      start = performance.now();
      await index.retrieve(query, { scope: { kind: "all" }, limit: 10 });
      searchTimes.push(performance.now() - start);
    }
  });
  const updateTimes: number[] = [];
  const targets = await editTargets();
  const updated = await tasks.phase(async () => {
    for (const [n, path] of targets.entries()) {
      const text = `${await vault.read(path)}\n\nEdited for the benchmark, edit ${n}.`;
      start = performance.now();
      await index.apply([{ kind: "upsert", path, text, stat: { mtime: Date.now(), size: text.length } }]);
      await index.retrieve("edited", { scope: { kind: "all" }, limit: 1 });
      updateTimes.push(performance.now() - start);
      await index.flush();
    }
  });
  await index.close();
  return {
    notes: warmed.result.sync.total,
    reindexed: warmed.result.sync.indexed,
    openMs,
    warmMs,
    searches: searchTimes.length,
    searchP50: percentile(searchTimes, 50),
    searchP95: percentile(searchTimes, 95),
    updates: updateTimes.length,
    updateP50: percentile(updateTimes, 50),
    updateP95: percentile(updateTimes, 95),
    ...figures("warm", warmed.tasks),
    ...figures("search", searched.tasks),
    ...figures("update", updated.tasks),
  };
}

await workerScript();
const modes: Record<string, () => Promise<Record<string, number | string>>> = { build, warm };
const run = modes[mode];
if (!run) throw new Error(`Unknown mode ${mode}`);
console.log(JSON.stringify(await run()));
