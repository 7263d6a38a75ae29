/**
 * The index in a worker, where a worker can fail: every request settles when the worker dies or
 * sends what cannot be read (never a hang), a message the host cannot read is answered as an
 * error, and shard bytes cross the channel in its transfer list, moved rather than copied.
 */
import { describe, expect, it } from "vitest";
import { openIndex } from "../../../src/retrieval";
import type { IndexPort } from "../../../src/retrieval/worker/protocol";
import { RemoteIndex } from "../../../src/retrieval/worker/remote-index";
import { serveIndex } from "../../../src/retrieval/worker/host";
import { MemoryStateStore } from "../../../src/vault/memory-state-store";
import { MemoryVault } from "../../../src/vault/memory-vault";
import type { VaultPort } from "../../../src/vault/vault-port";
import { until } from "../../helpers/eventually";
import { channel } from "./harness";

const NOTES = { "a.md": "# Alpha\n\nGardens.\n", "b.md": "# Beta\n\nRivers.\n" };
const options = (store = new MemoryStateStore(), vault = new MemoryVault(NOTES)) => ({ store, reader: vault, wikiFolder: "wiki", excludedFolders: [] });

/** A worker end that answers nothing, so requests stay pending until it is declared lost. */
function silentWorker(): { port: IndexPort; received: unknown[]; post: (message: unknown) => void } {
  const ends = channel();
  const received: unknown[] = [];
  ends.worker.addEventListener("message", (event) => received.push(event.data));
  return { port: ends.main, received, post: (message) => ends.worker.postMessage(message) };
}

describe("the index in a worker, when the worker fails", () => {
  it("rejects every waiting request, and every later one, with an index error when the worker dies", async () => {
    const ends = channel();
    serveIndex(ends.worker);
    let ended = 0;
    const index = await RemoteIndex.open(ends.main, options(), () => (ended += 1));
    // The host answers a sync only once the vault's calls come back: a slow vault keeps it waiting.
    let release: () => void = () => undefined;
    const slow = new MemoryVault(NOTES);
    const list = slow.list.bind(slow);
    slow.list = (folder) => new Promise((resolve) => (release = () => void list(folder).then(resolve)));
    const syncing = index.sync(slow, { embed: false });
    const searching = index.retrieve("gardens", { scope: { kind: "all" }, limit: 5 });
    index.lost(new Error("the worker's script threw"));
    await expect(syncing).rejects.toMatchObject({ kind: "unavailable", message: expect.stringMatching(/stopped working \(the worker's script threw\)/) });
    await expect(searching).rejects.toMatchObject({ kind: "unavailable" });
    await expect(index.flush()).rejects.toMatchObject({ kind: "unavailable" });
    expect(ended).toBe(1);
    release();
    ends.close();
  });

  it("gives up on a worker that sends a message it cannot read", async () => {
    const worker = silentWorker();
    const opening = RemoteIndex.open(worker.port, options());
    await until(() => worker.received.length === 1, "the open request");
    worker.post({ type: "reply", id: 1, ok: true });
    await expect(opening).rejects.toMatchObject({ kind: "unavailable", message: expect.stringMatching(/cannot read/) });
  });

  it("rejects a reply whose value is not what the request asked for, and goes on", async () => {
    const worker = silentWorker();
    const opening = RemoteIndex.open(worker.port, options());
    await until(() => worker.received.length === 1, "the open request");
    const state = { notes: 0, chunks: 0, rejectedShards: 0, wikiPages: 0, vectors: null };
    worker.post({ type: "reply", id: 1, ok: true, value: null, state });
    const index = await opening;
    const searching = index.retrieve("x", { scope: { kind: "all" }, limit: 1 });
    await until(() => worker.received.length === 2, "the search request");
    worker.post({ type: "reply", id: 2, ok: true, value: [{ path: 3 }], state });
    await expect(searching).rejects.toMatchObject({ message: expect.stringMatching(/answered "retrieve" with a value/) });
    const again = index.retrieve("x", { scope: { kind: "all" }, limit: 1 });
    await until(() => worker.received.length === 3, "the second search");
    worker.post({ type: "reply", id: 3, ok: true, value: [], state });
    await expect(again).resolves.toEqual([]);
  });

  it("answers a request it cannot read with an error for that request, and a shapeless message with a fatal one", async () => {
    const ends = channel();
    serveIndex(ends.worker);
    const replies: unknown[] = [];
    ends.main.addEventListener("message", (event) => replies.push(event.data));
    ends.main.postMessage({ type: "request", id: 7, op: "retreive", query: "x" });
    ends.main.postMessage("garbage");
    // The worker checks envelopes only (inbound.ts): a known request with a wrong payload fails as that request.
    ends.main.postMessage({ type: "request", id: 8, op: "retrieve", query: 42 });
    await until(() => replies.length === 3, "three replies");
    expect(replies[0]).toMatchObject({ type: "reply", id: 7, ok: false, error: { message: expect.stringMatching(/cannot read.*no request "retreive"/) } });
    expect(replies[1]).toMatchObject({ type: "fatal", error: { message: expect.stringMatching(/cannot read/) } });
    expect(replies[2]).toMatchObject({ type: "reply", id: 8, ok: false, error: { message: expect.any(String) } });
    ends.close();
  });
});

describe("a cancelled request", () => {
  it("cancels the embedding it waits on, on this thread, and rejects with its signal's reason", async () => {
    const ends = channel();
    serveIndex(ends.worker);
    const vault = new MemoryVault(NOTES);
    const seen: (AbortSignal | undefined)[] = [];
    const embedder = {
      modelId: "test:hang",
      embed: (_texts: readonly string[], signal?: AbortSignal) =>
        new Promise<Float32Array[]>((_resolve, reject) => {
          seen.push(signal);
          signal?.addEventListener("abort", () => reject(signal.reason as Error), { once: true });
        }),
    };
    const index = await RemoteIndex.open(ends.main, { ...options(new MemoryStateStore(), vault), embedder });
    await index.sync(vault, { embed: false });
    const controller = new AbortController();
    const reason = new Error("The question was closed.");
    const embedding = index.embedPending({ signal: controller.signal });
    await until(() => seen.length === 1, "the embedding call");
    expect(seen[0]).toBe(controller.signal);
    controller.abort(reason);
    await expect(embedding).rejects.toBe(reason);
    // Cancelled, not failed: vectors stay on.
    expect(index.vectors?.active).toBe(true);
    ends.close();
  });
});

describe("shard bytes across the channel", () => {
  it("are moved in the transfer list to the main thread, and written as encoded", async () => {
    const ends = channel();
    serveIndex(ends.worker);
    const store = new MemoryStateStore();
    const vault = new MemoryVault(NOTES);
    const index = await RemoteIndex.open(ends.main, options(store, vault));
    await index.sync(vault, { embed: false });
    const writes = ends.fromWorker.filter(({ message }) => (message as { service?: string }).service === "store.write");
    expect(writes.length).toBeGreaterThan(0);
    for (const { message, transfer } of writes) {
      const content = (message as { content: Uint8Array }).content;
      expect(transfer).toEqual([content.buffer]);
      // Moved: the worker's copy is gone (detached) once posted.
      expect(content.byteLength).toBe(0);
    }
    const written = [...store.entries.keys()].filter((key) => key.startsWith("index/text-"));
    expect(written).toHaveLength(writes.length);
    ends.close();
  });
});

describe("the vault's listing", () => {
  it("is asked for in the vault's own order where it offers one, and sorted in the worker", async () => {
    const ends = channel();
    serveIndex(ends.worker);
    const store = new MemoryStateStore();
    const index = await RemoteIndex.open(ends.main, options(store));
    const vault = new MemoryVault({ ...NOTES, "c.md": "# Gamma\n\nGardens and rivers.\n" });
    let sortedCalls = 0;
    const list = vault.list.bind(vault);
    vault.list = (folder) => ((sortedCalls += 1), list(folder));
    const unsorted: VaultPort["listInAnyOrder"] = async (folder) => (await list(folder)).reverse();
    Object.assign(vault, { listInAnyOrder: unsorted });
    const reads: string[] = [];
    const read = vault.read.bind(vault);
    vault.read = (path) => (reads.push(path), read(path));
    expect((await index.sync(vault, { embed: false })).indexed).toBe(3);
    expect(sortedCalls).toBe(0);
    // Read in sorted order, as from a sorted listing, and the same shards as in process.
    expect(reads).toEqual(["a.md", "b.md", "c.md"]);
    const inProcess = new MemoryStateStore();
    const local = await openIndex(options(inProcess));
    await local.sync(new MemoryVault({ ...NOTES, "c.md": "# Gamma\n\nGardens and rivers.\n" }), { embed: false });
    await index.close();
    await local.close();
    expect(store.entries).toEqual(inProcess.entries);
    ends.close();
  });
});
