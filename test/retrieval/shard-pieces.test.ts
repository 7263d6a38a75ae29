/**
 * A shard is decoded and encoded in pieces, with a checkpoint between them, so a warm start or a
 * flush of a large vault yields inside a shard, not only between shards. Tested on a fake clock on
 * which every piece costs a known time (never by timing the machine): the index's checkpoint runs
 * at least once per PIECE_BYTES of each shard, and no slice passes its budget.
 */
import { describe, expect, it } from "vitest";
import type { Embedder } from "../../src/retrieval/embedder";
import { shardOf } from "../../src/retrieval/shard-of";
import { decodeShard, decodeShardPieces, shardKey } from "../../src/retrieval/shards";
import { syncIndex } from "../../src/retrieval/sync";
import { PIECE_BYTES, runPieces, TimeSlicer } from "../../src/core/time-slice";
import { VaultIndex } from "../../src/retrieval/vault-index";
import { readFrontmatter } from "../../src/retrieval/chunker";
import { vectorShardKey } from "../../src/retrieval/vector-models";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";

const DIMS = 768;
/** 768 dimensions, as nomic-embed-text: a vector shard's size is what it would be. */
const wideEmbedder: Embedder = {
  modelId: "fake:wide",
  embed: (texts) => Promise.resolve(texts.map((t) => Float32Array.from({ length: DIMS }, (_, i) => Math.sin(i + t.length)))),
};

/** 240 notes that all fall in shard 0, each with three sections of distinct words: one large text shard and one large vector shard. */
function oneLargeShard(): MemoryVault {
  const files: Record<string, string> = {};
  for (let i = 0; Object.keys(files).length < 240; i++) {
    const path = `notes/n${i}.md`;
    if (shardOf(path) !== 0) continue;
    const words = (section: number) => Array.from({ length: 150 }, (_, j) => `w${i}s${section}t${j}`).join(" ");
    files[path] = `# Note ${i}\n\n${words(0)}\n\n## Two\n\n${words(1)}\n\n## Three\n\n${words(2)}\n`;
  }
  return new MemoryVault(files);
}

/** A checkpoint on a fake clock: every piece of work after it costs `cost` ms; slices are recorded at each yield. */
function fakeClockCheckpoint(cost: number) {
  let clock = 0;
  let sliceStart = 0;
  const slices: number[] = [];
  const slicer = new TimeSlicer({
    now: () => clock,
    yieldNow: () => {
      slices.push(clock - sliceStart);
      sliceStart = clock;
      return Promise.resolve();
    },
  });
  const state = {
    calls: 0,
    slices,
    longest: () => Math.max(...slices, clock - sliceStart),
    checkpoint: async () => {
      state.calls += 1;
      await slicer.checkpoint();
      clock += cost;
    },
  };
  return state;
}

async function built(): Promise<{ store: MemoryStateStore; vault: MemoryVault; textBytes: number; vectorBytes: number }> {
  const vault = oneLargeShard();
  const store = new MemoryStateStore();
  const index = await VaultIndex.open({ frontmatter: readFrontmatter, store, reader: vault, wikiFolder: "wiki", excludedFolders: [], embedder: wideEmbedder });
  await syncIndex(index, vault);
  const textBytes = (await store.readBytes(shardKey(0)))?.length ?? 0;
  const vectorBytes = (await store.readBytes(vectorShardKey("fake:wide", 0)))?.length ?? 0;
  return { store, vault, textBytes, vectorBytes };
}

describe("shards in pieces", () => {
  it("a warm start yields inside a large shard: a checkpoint at least every PIECE_BYTES, every slice within its budget", async () => {
    const { store, vault, textBytes, vectorBytes } = await built();
    expect(textBytes).toBeGreaterThan(3 * PIECE_BYTES);
    expect(vectorBytes).toBeGreaterThan(3 * PIECE_BYTES);
    expect((await store.list("index")).filter((k) => k.endsWith(".bin"))).toHaveLength(2);

    const clock = fakeClockCheckpoint(12);
    const warm = await VaultIndex.open({ frontmatter: readFrontmatter, store, reader: vault, wikiFolder: "wiki", excludedFolders: [], embedder: wideEmbedder, checkpoint: clock.checkpoint });
    expect(warm.size).toBe(240);
    expect(warm.vectors?.index.noteCount).toBe(240);
    expect(warm.rejectedShards + (warm.vectors?.rejectedShards ?? 0)).toBe(0);
    // Two shards, yet many checkpoints: the decoding of each one is cut into pieces.
    expect(clock.calls).toBeGreaterThanOrEqual(Math.floor(textBytes / PIECE_BYTES) + Math.floor(vectorBytes / PIECE_BYTES));
    expect(clock.longest()).toBeLessThanOrEqual(30);
    expect(clock.slices.length).toBeGreaterThan(clock.calls / 3);
  });

  it("a flush encodes a large shard in pieces too", async () => {
    const { store, vault, textBytes, vectorBytes } = await built();
    const index = await VaultIndex.open({ frontmatter: readFrontmatter, store, reader: vault, wikiFolder: "wiki", excludedFolders: [], embedder: wideEmbedder });
    const path = (await vault.list("")).sort()[0] as string;
    const text = `${await vault.read(path)}\nOne more line.\n`;
    index.upsert(path, text, { mtime: 2, size: text.length });
    await index.embedPending();
    const clock = fakeClockCheckpoint(12);
    const result = await index.flush({ checkpoint: clock.checkpoint });
    expect(result.shardsWritten).toBe(2);
    expect(clock.calls).toBeGreaterThanOrEqual(Math.floor(textBytes / PIECE_BYTES) + Math.floor(vectorBytes / PIECE_BYTES));
    expect(clock.longest()).toBeLessThanOrEqual(30);
    // What was written in pieces reads back whole.
    const reopened = await VaultIndex.open({ frontmatter: readFrontmatter, store, reader: vault, wikiFolder: "wiki", excludedFolders: [], embedder: wideEmbedder });
    expect(reopened.rejectedShards + (reopened.vectors?.rejectedShards ?? 0)).toBe(0);
    expect(reopened.searchText("more", { scope: { kind: "all" }, limit: 1 })[0]?.path).toBe(path);
  });

  it("a sync writes the shards in its own time slices", async () => {
    const vault = oneLargeShard();
    const index = await VaultIndex.open({ frontmatter: readFrontmatter, store: new MemoryStateStore(), reader: vault, wikiFolder: "wiki", excludedFolders: [], embedder: wideEmbedder });
    let clock = 0;
    let yields = 0;
    let yieldsWhileFlushing = 0;
    const flush = index.flush.bind(index);
    index.flush = async (options) => {
      const before = yields;
      const result = await flush(options);
      yieldsWhileFlushing = yields - before;
      return result;
    };
    // Every look at the clock costs 5 ms: a slice holds a few steps.
    const result = await syncIndex(index, vault, { now: () => (clock += 5), yieldNow: () => Promise.resolve(void (yields += 1)) });
    expect(result.shardsWritten).toBe(2);
    expect(yieldsWhileFlushing).toBeGreaterThan(2);
  });

  it("decodes the same shard whether its pieces run at once or one by one", async () => {
    const { store } = await built();
    const bytes = (await store.readBytes(shardKey(0))) ?? new Uint8Array(0);
    const pieces = decodeShardPieces(bytes, 0);
    let steps = 0;
    let next = pieces.next();
    while (!next.done) {
      steps += 1;
      next = pieces.next();
    }
    expect(steps).toBeGreaterThan(2);
    expect(next.value?.notes).toEqual(decodeShard(bytes, 0)?.notes);
    expect(runPieces(decodeShardPieces(bytes.slice(0, bytes.length - 4), 0))).toBeNull();
  });
});
