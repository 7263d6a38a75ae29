/**
 * "No main-thread block over 50 ms", tested without timing the machine: a fake clock makes every
 * note read cost a known number of milliseconds, and the yields are recorded on that clock. Between
 * two yields the sync may spend at most its slice; a count of notes per batch could not promise it.
 */
import { describe, expect, it } from "vitest";
import { syncIndex } from "../../src/retrieval/sync";
import { checkSliceBudget, DEFAULT_SLICE_MS, MAX_SLICE_MS, TimeSlicer } from "../../src/core/time-slice";
import { VaultIndex } from "../../src/retrieval/vault-index";
import { readFrontmatter } from "../../src/retrieval/chunker";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import { countingEmbedder } from "./vector-embedder";

/**
 * A vault of `count` notes and a fake clock on which indexing a note (`upsert`, the work done on
 * the main thread: parsing and tokenising) costs `costOf(path)` ms; reads are I/O and cost nothing,
 * except in the embedding pass, where each note is read and parsed in turn. Each yield closes a
 * slice, whose length on the fake clock is recorded.
 */
function costlyVault(count: number, costOf: (path: string) => number) {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) files[`notes/n${String(i).padStart(4, "0")}.md`] = `# Note ${i}\n\nWords about compost number ${i}.\n`;
  const vault = new MemoryVault(files);
  let clock = 0;
  let textPassOver = () => false;
  const read = vault.read.bind(vault);
  vault.read = async (path: string) => {
    if (textPassOver()) clock += costOf(path);
    return read(path);
  };
  const slices: number[] = [];
  let sliceStart = 0;
  const yieldNow = () => {
    slices.push(clock - sliceStart);
    sliceStart = clock;
    return Promise.resolve();
  };
  const lastSlice = () => clock - sliceStart;
  /** Gives the index's preparation of a note its cost; once every note is indexed, the embedding pass's reads cost too. */
  const charge = (index: VaultIndex): VaultIndex => {
    const prepare = index.prepare.bind(index);
    index.prepare = (path, markdown, stat) => {
      clock += costOf(path);
      return prepare(path, markdown, stat);
    };
    textPassOver = () => index.size === count;
    return index;
  };
  return { vault, now: () => clock, yieldNow, slices, lastSlice, charge };
}

async function openEmpty(reader: MemoryVault = new MemoryVault(), embedder: ReturnType<typeof countingEmbedder> | null = null) {
  return VaultIndex.open({ frontmatter: readFrontmatter, store: new MemoryStateStore(), reader, wikiFolder: "wiki", excludedFolders: [], embedder });
}

describe("time-sliced indexing", () => {
  it("yields whenever the slice's budget is used, however few notes that is", async () => {
    // 7 ms a note: a batch of 50 notes would block for 350 ms.
    const t = costlyVault(200, () => 7);
    const index = t.charge(await openEmpty());
    await syncIndex(index, t.vault, { batchSize: 50, yieldNow: t.yieldNow, now: t.now });
    expect(index.size).toBe(200);
    const slices = [...t.slices, t.lastSlice()];
    expect(Math.max(...slices)).toBeLessThanOrEqual(DEFAULT_SLICE_MS);
    // Not one yield per note either: each slice holds as many 7 ms notes as fit in its budget.
    expect(slices.slice(1, -1).every((s) => s >= DEFAULT_SLICE_MS - 7)).toBe(true);
    expect(t.slices.length).toBeGreaterThanOrEqual(Math.floor((200 * 7) / DEFAULT_SLICE_MS));
  });

  it("keeps every slice within 50 ms at the default budget, for any mix of notes of up to 20 ms", async () => {
    // The guess from the last note is sometimes too low (a 1 ms note before a 20 ms one).
    const costs = [1, 20, 7, 13, 20, 1, 1, 13];
    const t = costlyVault(300, (path) => costs[Number(/n(\d+)/.exec(path)?.[1]) % costs.length] as number);
    const index = t.charge(await openEmpty());
    await syncIndex(index, t.vault, { batchSize: 1000, yieldNow: t.yieldNow, now: t.now });
    expect(Math.max(...t.slices, t.lastSlice())).toBeLessThanOrEqual(MAX_SLICE_MS);
    expect(t.slices.length).toBeGreaterThan(0);
  });

  it("yields after every note when a single note takes longer than the whole budget", async () => {
    const t = costlyVault(10, () => 80);
    const index = t.charge(await openEmpty());
    await syncIndex(index, t.vault, { yieldNow: t.yieldNow, now: t.now });
    // After each of the ten: between two notes, and after the last before the shards are written.
    expect(t.slices.length).toBe(10);
    expect(t.slices.every((s) => s === 80)).toBe(true);
  });

  it("does not yield at all while the notes are cheap and fewer than a batch", async () => {
    const t = costlyVault(40, () => 0.1);
    const index = t.charge(await openEmpty());
    await syncIndex(index, t.vault, { batchSize: 50, yieldNow: t.yieldNow, now: t.now });
    expect(t.slices).toEqual([]);
  });

  it("slices the embedding pass too", async () => {
    const t = costlyVault(60, () => 6);
    const index = t.charge(await openEmpty(t.vault, countingEmbedder()));
    const sync = await syncIndex(index, t.vault, { batchSize: 1000, yieldNow: t.yieldNow, now: t.now });
    expect(sync.vectorError).toBeNull();
    expect(index.vectors?.index.noteCount).toBe(60);
    // Text pass and embedding pass each read 60 notes at 6 ms.
    expect(Math.max(...t.slices, t.lastSlice())).toBeLessThanOrEqual(30);
    expect(t.slices.length).toBeGreaterThanOrEqual(Math.floor((120 * 6) / 30) - 1);
  });

  it("loads a persisted index in time slices too: a warm start yields between shards when the slice is spent", async () => {
    const t = costlyVault(300, () => 1);
    const store = new MemoryStateStore();
    const embedder = countingEmbedder();
    const built = await VaultIndex.open({ frontmatter: readFrontmatter, store, reader: t.vault, wikiFolder: "wiki", excludedFolders: [], embedder });
    await syncIndex(built, t.vault);
    const textShards = (await store.list("index")).filter((k) => /text-/.test(k)).length;
    const vectorShards = (await store.list("index")).filter((k) => /vectors-/.test(k)).length;
    expect(textShards).toBeGreaterThan(100);

    // Loading one shard costs 12 ms on the fake clock: a slice holds one or two of them.
    let clock = 0;
    let checkpoints = 0;
    const slices: number[] = [];
    let sliceStart = 0;
    const slicer = new TimeSlicer({
      now: () => clock,
      yieldNow: () => {
        slices.push(clock - sliceStart);
        sliceStart = clock;
        return Promise.resolve();
      },
    });
    const warm = await VaultIndex.open({
      frontmatter: readFrontmatter,
      store,
      reader: t.vault,
      wikiFolder: "wiki",
      excludedFolders: [],
      embedder,
      checkpoint: async () => {
        checkpoints += 1;
        await slicer.checkpoint();
        clock += 12;
      },
    });
    expect(warm.size).toBe(300);
    // One before each shard is loaded, and more between the pieces of its decoding (shard-pieces.test.ts).
    expect(checkpoints).toBeGreaterThanOrEqual(textShards + vectorShards);
    expect(Math.max(...slices, clock - sliceStart)).toBeLessThanOrEqual(DEFAULT_SLICE_MS);
    expect(slices.length).toBeGreaterThanOrEqual(Math.floor(((textShards + vectorShards) * 12) / DEFAULT_SLICE_MS) - 1);
  });

  it("refuses a budget over 50 ms, or none, in one sentence", async () => {
    expect(() => checkSliceBudget(51)).toThrow("The time slice must be more than 0 and at most 50 ms (got 51).");
    expect(() => new TimeSlicer({ budgetMs: 0 })).toThrow(/at most 50 ms/);
    expect(() => new TimeSlicer({ budgetMs: Number.NaN })).toThrow(/at most 50 ms/);
    const index = await openEmpty();
    await expect(syncIndex(index, new MemoryVault({ "a.md": "a" }), { sliceMs: 200 })).rejects.toThrow(/at most 50 ms/);
  });
});
