/**
 * The main thread's longest task while the search index runs in a worker (node:worker_threads,
 * bench/index-worker-node.ts) behind a RemoteIndex: a cold build, a warm start, searches and an
 * update, over generated notes served from memory. The longest task is read from Node's event loop
 * delay histogram (the longest time a timer waited for the thread), per phase.
 *
 *   npx tsx bench/index-worker.ts            # 10,000 notes
 *   SYNAPSE_BENCH_NOTES=50000 npx tsx bench/index-worker.ts
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import esbuild from "esbuild";
import type { IndexPort } from "../src/retrieval/worker/protocol";
import { RemoteIndex } from "../src/retrieval/worker/remote-index";
import { MemoryStateStore } from "../src/vault/memory-state-store";
import { MemoryVault } from "../src/vault/memory-vault";

const NOTES = Number(process.env.SYNAPSE_BENCH_NOTES ?? 10_000);
const WORDS = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}${"aeiou"[i % 5]}`);

function notes(count: number): Record<string, string> {
  let seed = 1;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const out: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    const words = Array.from({ length: 250 }, () => WORDS[Math.floor(next() ** 2 * WORDS.length)]).join(" ");
    out[`folder${i % 50}/note ${i}.md`] = `# Note ${i}\n\n${words}\n\nSee [[note ${Math.floor(next() * count)}]].\n\n## More\n\n${words.slice(0, 400)}\n`;
  }
  return out;
}

/** The worker's script, bundled once as the plugin's would be (a worker thread does not take tsx's loader). */
const SCRIPT = join(mkdtempSync(join(tmpdir(), "synapse-index-worker-")), "index-worker.cjs");
await esbuild.build({ entryPoints: [new URL("./index-worker-node.ts", import.meta.url).pathname], bundle: true, platform: "node", format: "cjs", outfile: SCRIPT, logLevel: "error" });

function startWorker(): { port: IndexPort; stop: () => void; onError: (listener: (error: Error) => void) => void } {
  const worker = new Worker(SCRIPT);
  return {
    port: {
      postMessage: (message, transfer = []) => worker.postMessage(message, transfer),
      addEventListener: (_type, listener) =>
        worker.on("message", (data: unknown) => {
          const start = performance.now();
          listener({ data });
          const took = performance.now() - start;
          handling.longest = Math.max(handling.longest, took);
          const kind = messageKind(data);
          if (took > (handling.byKind.get(kind) ?? 0)) handling.byKind.set(kind, took);
        }),
    },
    stop: () => void worker.terminate(),
    onError: (listener) => worker.on("error", listener),
  };
}

/** The longest a message from the worker kept the main thread (parsing it, the catalogue copy, starting the call it asks for), overall and by kind. */
const handling = { longest: 0, byKind: new Map<string, number>() };

/** A message's kind for the breakdown: its type, and the service a call asks for. */
function messageKind(data: unknown): string {
  const { type, service } = data as { type?: unknown; service?: unknown };
  return typeof service === "string" ? `${String(type)} ${service}` : String(type);
}

async function phase<T>(name: string, run: () => Promise<T>): Promise<T> {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  handling.longest = 0;
  handling.byKind.clear();
  const start = performance.now();
  const result = await run();
  histogram.disable();
  console.log(`${name}: ${((performance.now() - start) / 1000).toFixed(1)} s; main thread's longest task ${(histogram.max / 1e6).toFixed(1)} ms (p99 ${(histogram.percentile(99) / 1e6).toFixed(1)} ms), longest message ${handling.longest.toFixed(1)} ms`);
  const slowest = [...handling.byKind].sort((a, b) => b[1] - a[1]).slice(0, 3);
  console.log(`  slowest messages: ${slowest.map(([kind, ms]) => `${kind} ${ms.toFixed(1)} ms`).join(", ")}`);
  return result;
}

async function open(store: MemoryStateStore, vault: MemoryVault) {
  const worker = startWorker();
  const index = await RemoteIndex.open(worker.port, { store, reader: vault, wikiFolder: "wiki", excludedFolders: [] }, worker.stop);
  worker.onError((error) => index.lost(error));
  return index;
}

const vault = new MemoryVault(notes(NOTES));
const store = new MemoryStateStore();
console.log(`${NOTES.toLocaleString("en")} notes`);
const cold = await phase("cold build (open, sync, flush)", async () => {
  const index = await open(store, vault);
  await index.sync(vault, { embed: false });
  return index;
});
await phase("searches (20)", async () => {
  for (let i = 0; i < 20; i++) await cold.retrieve(`${WORDS[i * 7]} ${WORDS[i * 13 + 1]}`, { scope: { kind: "all" }, limit: 10 });
});
await phase("update (one note, then flush)", async () => {
  await cold.apply([{ kind: "upsert", path: "folder0/note 0.md", text: "# Note 0\n\nchanged", stat: { mtime: 5, size: 17 } }]);
  await cold.flush();
});
await cold.close();
const warm = await phase("warm start (open from shards, sync)", async () => {
  const index = await open(store, vault);
  await index.sync(vault, { embed: false });
  return index;
});
await warm.close();
