/**
 * Retained vector records (vector-retention.ts): the records of notes that left the index, kept
 * with their keys until an embedding pass begun after they left has finished, and written into
 * their shards meanwhile.
 */
import { describe, expect, it } from "vitest";
import { shardOf } from "../../src/retrieval/shard-of";
import { VaultIndex } from "../../src/retrieval/vault-index";
import { readFrontmatter } from "../../src/retrieval/chunker";
import { VectorBackend } from "../../src/retrieval/vector-backend";
import { VectorRetention } from "../../src/retrieval/vector-retention";
import { loadVectorShards } from "../../src/retrieval/vector-shards";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { countingEmbedder } from "./vector-embedder";

const record = (i: number) => ({ path: `notes/n${i}.md`, hash: `h${i}`, keys: [`k${i}`, `shared`] });

describe("retained vector records", () => {
  it("releases those retained before a pass, keeping the newer ones and their keys", () => {
    const retention = new VectorRetention();
    const count = 6000;
    for (let i = 0; i < count; i++) retention.retain(record(i), i < count - 1 ? 0 : 1);
    const released: string[] = [];
    retention.releaseBefore(1, (path) => released.push(path));
    expect(released).toHaveLength(count - 1);
    expect(retention.pinned(`k${count - 1}`)).toBe(true);
    expect(retention.pinned("shared")).toBe(true);
    expect(retention.pinned("k0")).toBe(false);
  });

  it("groups by shard, and only for the shards asked", () => {
    const retention = new VectorRetention();
    for (let i = 0; i < 4000; i++) retention.retain(record(i), 0);
    const one = shardOf(record(0).path);
    const grouped = retention.byShard(new Set([one]));
    expect([...grouped.keys()]).toEqual([one]);
    expect(grouped.get(one)?.every((r) => shardOf(r.path) === one)).toBe(true);
    expect(grouped.get(one)?.length).toBe(Array.from({ length: 4000 }, (_, i) => record(i)).filter((r) => shardOf(r.path) === one).length);
    expect(retention.byShard(new Set())).toEqual(new Map());
  });

  it("are released by an embedding pass of a vault whose notes all left, and leave the shards", async () => {
    const count = 4097;
    const texts = new Map<string, string>();
    for (let i = 0; i < count; i++) texts.set(`notes/n${i}.md`, `# Note ${i}\n\nWords ${i}.`);
    const reader = { read: (path: string) => Promise.resolve(texts.get(path) ?? "") };
    const store = new MemoryStateStore();
    const embedder = countingEmbedder();
    const index = await VaultIndex.open({ frontmatter: readFrontmatter, store, reader, wikiFolder: "wiki", excludedFolders: [], embedder });
    for (const [path, text] of texts) index.upsert(path, text, { mtime: 1, size: text.length });
    expect((await index.embedPending()).notes).toBe(count);
    for (const path of texts.keys()) index.remove(path);
    await index.flush();
    // Retained, so written as they were read: another pass may find their vectors again.
    expect((await loadVectorShards(store, embedder.modelId, embedder.modelId)).shards.flatMap((s) => s.notes)).toHaveLength(count);
    await index.embedPending();
    await index.flush();
    expect((await loadVectorShards(store, embedder.modelId, embedder.modelId)).shards.flatMap((s) => s.notes)).toEqual([]);
  });
});

describe("a note removed while a flush writes its vector shard", () => {
  it("is written again as retained by the next flush, not lost from disk", async () => {
    const store = new MemoryStateStore();
    const embedder = countingEmbedder();
    const backend = new VectorBackend(embedder);
    const path = "notes/a.md";
    const text = "# A\n\nSome words about apples.";
    backend.changed(path);
    await backend.embedPending([path], { read: () => Promise.resolve(text) });
    let removed = false;
    const members = (shard: number) => (shard === shardOf(path) && !removed ? [path] : []);
    // The note leaves while the shard's write is awaited, as the plugin's events may.
    const write = store.write.bind(store);
    store.write = async (key, content) => {
      if (!removed) {
        removed = true;
        backend.remove(path);
      }
      await write(key, content);
    };
    await backend.flush(store, members);
    await backend.flush(store, members);

    const loaded = await loadVectorShards(store, embedder.modelId, embedder.modelId);
    expect(loaded.shards.flatMap((s) => s.notes.map((n) => n.path))).toEqual([path]);
  });
});
