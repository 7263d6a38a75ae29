import { describe, expect, it } from "vitest";
import { decodeShard, encodeShard, shardKey, shardOf } from "../../src/retrieval/shards";
import { TermDictionary } from "../../src/retrieval/term-dictionary";
import { syncIndex } from "../../src/retrieval/sync";
import { MemoryVault } from "../../src/vault/memory-vault";
import { aVault, indexed, openIndex, type TestVault } from "./index-builder";

const files: Record<string, string> = {};
for (let i = 0; i < 60; i++) files[`notes/n${i}.md`] = `# Note ${i}\n\nword${i} shared text about topic${i % 7}. [[n${(i + 1) % 60}]]`;

/** The shard of note `n` was dropped on reopening: the next sync indexes its notes again, and the index after that opens whole. */
async function expectDroppedAndReindexed(vault: TestVault, memory: MemoryVault, n: number): Promise<void> {
  const reopened = await openIndex(vault);
  expect(reopened.rejectedShards).toBe(1);
  expect(reopened.stateOf(`notes/n${n}.md`)).toBeUndefined();
  const result = await syncIndex(reopened, memory);
  expect(result.indexed).toBeGreaterThan(0);
  expect(result.indexed).toBeLessThan(60);
  expect((await reopened.retrieve(`word${n}`, { scope: { kind: "all" }, limit: 1 }))[0]?.path).toBe(`notes/n${n}.md`);
  expect((await openIndex(vault)).rejectedShards).toBe(0);
}

describe("the persisted index", () => {
  it("survives a restart: the reopened index answers the same", async () => {
    const vault = aVault(files);
    const index = await indexed(vault);
    const written = await index.flush();
    expect(written.shardsWritten).toBeGreaterThan(1);
    const again = await openIndex(vault);
    expect(again.size).toBe(60);
    expect(again.rejectedShards).toBe(0);
    for (const q of ["word17", "topic3 shared", "note"]) {
      expect(await again.retrieve(q, { scope: { kind: "all" }, limit: 10 })).toEqual(await index.retrieve(q, { scope: { kind: "all" }, limit: 10 }));
    }
  });

  it("rewrites only the shard of the note that changed", async () => {
    const vault = aVault(files);
    const index = await indexed(vault);
    await index.flush();
    index.upsert("notes/n5.md", "changed", { mtime: 1000, size: 7 });
    expect((await index.flush()).shardsWritten).toBe(1);
    expect((await index.flush()).shardsWritten).toBe(0);
  });

  it("detects a truncated shard, drops it, and the next sync indexes its notes again", async () => {
    const memory = new MemoryVault();
    for (const [path, text] of Object.entries(files)) await memory.create(path, text);
    const vault = aVault(files);
    const first = await openIndex(vault);
    await syncIndex(first, memory);
    const key = shardKey(shardOf("notes/n17.md"));
    const whole = (await vault.store.readBytes(key)) ?? new Uint8Array(0);
    expect(whole.length).toBeGreaterThan(100);
    await vault.store.write(key, whole.slice(0, Math.floor(whole.length / 2)));

    await expectDroppedAndReindexed(vault, memory, 17);
  });

  it("drops a shard of format 4 (UTF-8 dictionaries), 5 (chunk ranges in JSON), 6 (headings in JSON) or another version, and the next sync indexes its notes again", async () => {
    const memory = new MemoryVault(files);
    const vault = aVault(files);
    await syncIndex(await openIndex(vault), memory);
    const key = shardKey(shardOf("notes/n3.md"));
    for (const version of [4, 5, 6, 999]) {
      const older = ((await vault.store.readBytes(key)) ?? new Uint8Array(0)).slice();
      new DataView(older.buffer).setUint32(4, version, true); // the format version in the header
      await vault.store.write(key, older);
      await expectDroppedAndReindexed(vault, memory, 3);
    }
  });

  it("drops a shard with one flipped byte, and the shards of the first format (notes-XX.json)", async () => {
    const vault = aVault(files);
    const index = await indexed(vault);
    await index.flush();
    const key = shardKey(shardOf("notes/n9.md"));
    const bytes = ((await vault.store.readBytes(key)) ?? new Uint8Array(0)).slice();
    bytes[bytes.length - 3] = (bytes[bytes.length - 3] ?? 0) ^ 0x10; // inside the postings
    await vault.store.write(key, bytes);
    await vault.store.write("index/notes-0a.json", 'synapse-index 1 2 0000000000000000\n[]');
    const reopened = await openIndex(vault);
    expect(reopened.rejectedShards).toBe(2);
    expect(await vault.store.list("index")).not.toContain("index/notes-0a.json");
    expect(reopened.stateOf("notes/n9.md")).toBeUndefined();
  });

  it("rejects a shard whose postings are well summed but out of order, repeated or of frequency 0", () => {
    const links = { links: [], embeds: [], tags: [], sources: [] };
    const path = "notes/n1.md";
    const note = { path, mtime: 1, size: 1, hash: "h", links, chunks: [0, 1, 2].map((i) => ({ heading: "", start: i, end: i + 1, length: 1 })) };
    const shard = (postings: number[]) => decodeShard(encodeShard([note], { terms: TermDictionary.from(["word"]), offsets: Int32Array.of(0, postings.length), postings: Int32Array.from(postings) }), shardOf(path));
    expect(shard([0 * 256 + 1, 2 * 256 + 3])).not.toBeNull();
    expect(shard([2 * 256 + 1, 0 * 256 + 1])).toBeNull();
    expect(shard([1 * 256 + 1, 1 * 256 + 2])).toBeNull();
    expect(shard([0 * 256 + 1, 1 * 256 + 0])).toBeNull();
  });

  it("loads a shard as stored: the reopened index holds the same postings, no rebuild", async () => {
    const vault = aVault(files);
    const index = await indexed(vault);
    await index.flush();
    const again = await openIndex(vault);
    expect(again.text.termCount).toBe(index.text.termCount);
    expect(again.text.chunkCount).toBe(index.text.chunkCount);
    expect(again.searchText("shared text", { scope: { kind: "all" }, limit: 60 })).toEqual(index.searchText("shared text", { scope: { kind: "all" }, limit: 60 }));
  });

  it("syncs in batches with progress, and a second sync re-reads nothing", async () => {
    const memory = new MemoryVault();
    for (const [path, text] of Object.entries(files)) await memory.create(path, text);
    const index = await openIndex(aVault());
    const seen: number[] = [];
    const first = await syncIndex(index, memory, { batchSize: 10, progress: (p) => seen.push(p.done) });
    expect(first).toMatchObject({ total: 60, indexed: 60, removed: 0 });
    // A line before the first note, one after each full batch, and one at the end.
    expect(seen).toEqual([0, 10, 20, 30, 40, 50, 60]);
    expect(await syncIndex(index, memory)).toMatchObject({ indexed: 0, unchanged: 60, shardsWritten: 0 });
    await memory.remove("notes/n1.md");
    expect(await syncIndex(index, memory)).toMatchObject({ removed: 1, shardsWritten: 1 });
  });

  it("stops a sync when its signal is aborted", async () => {
    const memory = new MemoryVault();
    for (const [path, text] of Object.entries(files)) await memory.create(path, text);
    const index = await openIndex(aVault());
    const controller = new AbortController();
    await expect(syncIndex(index, memory, { batchSize: 5, signal: controller.signal, progress: (p) => p.done >= 10 && controller.abort() })).rejects.toThrow();
  });
});
