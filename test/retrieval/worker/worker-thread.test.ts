/**
 * The index in a real worker thread (node:worker_threads, the host bundled by esbuild as the
 * plugin's worker would be): it answers as in process, its shards come back to this thread's
 * store, and when the thread dies every waiting request is rejected instead of hanging.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import esbuild from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IndexPort } from "../../../src/retrieval/worker/protocol";
import { RemoteIndex } from "../../../src/retrieval/worker/remote-index";
import { MemoryStateStore } from "../../../src/vault/memory-state-store";
import { MemoryVault } from "../../../src/vault/memory-vault";

const NOTES = { "a.md": "# Alpha\n\nGardens and [[b]].\n", "b.md": "# Beta\n\nRivers.\n", "wiki/c.md": "# Gamma\n\nGardens.\n" };
let script = "";
const workers: Worker[] = [];

beforeAll(async () => {
  script = join(mkdtempSync(join(tmpdir(), "synapse-worker-test-")), "index-worker.cjs");
  await esbuild.build({ entryPoints: ["bench/index-worker-node.ts"], bundle: true, platform: "node", format: "cjs", outfile: script, logLevel: "error" });
});

afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.terminate()));
});

function start(): { worker: Worker; port: IndexPort } {
  const worker = new Worker(script);
  workers.push(worker);
  const port: IndexPort = { postMessage: (message, transfer = []) => worker.postMessage(message, transfer), addEventListener: (_type, listener) => worker.on("message", (data: unknown) => listener({ data })) };
  return { worker, port };
}

describe("the index in a worker thread", () => {
  it("syncs, answers and writes its shards to this thread's store", async () => {
    const { worker, port } = start();
    const store = new MemoryStateStore();
    const vault = new MemoryVault(NOTES);
    const index = await RemoteIndex.open(port, { store, reader: vault, wikiFolder: "wiki", excludedFolders: [] }, () => void worker.terminate());
    expect((await index.sync(vault, { embed: false })).indexed).toBe(3);
    expect((await index.retrieve("gardens", { scope: { kind: "wiki" }, limit: 5 })).map((h) => h.path)).toEqual(["wiki/c.md"]);
    expect(index.catalog(vault).pathsNamed("B")).toEqual(["b.md"]);
    expect([...store.entries.keys()].some((key) => key.startsWith("index/text-"))).toBe(true);
    await index.close();
  });

  it("rejects the waiting requests when the thread dies, and every later one", async () => {
    const { worker, port } = start();
    const vault = new MemoryVault(NOTES);
    // The sync waits on a listing that never comes, so it is still waiting when the thread goes.
    const stuck = new MemoryVault(NOTES);
    stuck.list = () => new Promise(() => undefined);
    const index = await RemoteIndex.open(port, { store: new MemoryStateStore(), reader: vault, wikiFolder: "wiki", excludedFolders: [] });
    worker.on("exit", (code) => index.lost(new Error(`the worker exited with code ${code}`)));
    const syncing = index.sync(stuck, { embed: false });
    await worker.terminate();
    await expect(syncing).rejects.toMatchObject({ kind: "unavailable", message: expect.stringMatching(/exited with code 1/) });
    await expect(index.retrieve("gardens", { scope: { kind: "all" }, limit: 5 })).rejects.toMatchObject({ kind: "unavailable" });
  });
});
