/**
 * A Map doubles its table when full, at a power of two, copying every entry: at 32,768 notes the
 * index's maps keyed by path did so inside one registration (~20 ms on the benchmark machine). On
 * the main thread, whoever registers notes — a warm start loading its shards, a sync indexing
 * notes — yields before that note, whatever is left of the slice, so that step has a slice of its
 * own. These tests count where the forced yields fall; they time nothing.
 */
import { describe, expect, it } from "vitest";
import { syncIndex } from "../../src/retrieval/sync";
import { VaultIndex } from "../../src/retrieval/vault-index";
import { readFrontmatter } from "../../src/retrieval/chunker";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";

const NOTES = 8200;
const files = Object.fromEntries(Array.from({ length: NOTES }, (_, i) => [`notes/n${i}.md`, `Note ${i}`]));

/** A checkpoint that never waits, and records the index's size whenever it was told to yield at once. */
function forcedAt(size: () => number) {
  const sizes: number[] = [];
  return {
    sizes,
    checkpoint: (force = false): Promise<boolean> => {
      if (force) sizes.push(size());
      return Promise.resolve(force);
    },
  };
}

describe("a note that makes the index's tables double", () => {
  it("starts a slice of its own when a sync indexes it and when a warm start loads it", async () => {
    const vault = new MemoryVault(files);
    const store = new MemoryStateStore();
    const built = await VaultIndex.open({ frontmatter: readFrontmatter, store, reader: vault, wikiFolder: "wiki", excludedFolders: [] });
    const building = forcedAt(() => built.size);
    // A batch larger than the vault: the only forced yields are the tables'.
    await syncIndex(built, vault, { slicer: building, batchSize: NOTES * 2 });
    expect(built.size).toBe(NOTES);
    expect(building.sizes).toEqual([8192]);

    // Loading: the index is not ours until open returns, so the forced yields are counted — one,
    // the only power of two from 8,192 that the notes pass.
    let forced = 0;
    const reopened = await VaultIndex.open({
      frontmatter: readFrontmatter,
      store,
      reader: vault,
      wikiFolder: "wiki",
      excludedFolders: [],
      checkpoint: (force) => {
        if (force) forced += 1;
        return Promise.resolve();
      },
    });
    expect(reopened.size).toBe(NOTES);
    expect(forced).toBe(1);
  });

  it("is the only one: a sync of an index of exactly 8,192 notes that finds nothing new forces no yield", async () => {
    const exact = Object.fromEntries(Array.from({ length: 8192 }, (_, i) => [`notes/n${i}.md`, `Note ${i}`]));
    const vault = new MemoryVault(exact);
    const index = await VaultIndex.open({ frontmatter: readFrontmatter, store: new MemoryStateStore(), reader: vault, wikiFolder: "wiki", excludedFolders: [] });
    await syncIndex(index, vault, { slicer: forcedAt(() => index.size), batchSize: 100_000 });
    expect(index.size).toBe(8192);
    // A note changed, none new: the tables do not grow.
    await vault.process("notes/n5.md", () => "Note 5, changed");
    const again = forcedAt(() => index.size);
    await syncIndex(index, vault, { slicer: again, batchSize: 100_000 });
    expect(again.sizes).toEqual([]);
    // The next new note does grow the tables.
    await vault.create("notes/new.md", "A new note");
    const growing = forcedAt(() => index.size);
    await syncIndex(index, vault, { slicer: growing, batchSize: 100_000 });
    expect(growing.sizes).toEqual([8192]);
  });
});
