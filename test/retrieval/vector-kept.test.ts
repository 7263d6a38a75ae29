/**
 * Vectors are paid for once: a flush never sweeps vectors that a note about to be embedded will
 * find in the cache — after a text shard was dropped when the index opened, while an embedding pass
 * runs, after a rename — and what the pass no longer needs does leave.
 */
import { describe, expect, it } from "vitest";
import type { Embedder } from "../../src/retrieval/embedder";
import { syncIndex } from "../../src/retrieval/sync";
import { VaultIndex } from "../../src/retrieval/vault-index";
import { readFrontmatter } from "../../src/retrieval/chunker";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import { fakeEmbedding } from "../helpers/fake-embedding";
import { until } from "../helpers/eventually";
import { rename } from "./index-builder";
import { countingEmbedder, embeddedTexts } from "./vector-embedder";

function notes(count: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) files[`notes/n${i}.md`] = `# Note ${i}\n\nSome words about topic ${i} and apples.\n\n## More\n\nOther words ${i * 7}.`;
  return files;
}

const open = (store: MemoryStateStore, reader: MemoryVault, embedder: Embedder) => VaultIndex.open({ frontmatter: readFrontmatter, store, reader, wikiFolder: "wiki", excludedFolders: [], embedder });

/** Cuts the end off every text shard, as a damaged file would be. */
async function damageTextShards(store: MemoryStateStore): Promise<void> {
  for (const key of await textShardKeys(store)) {
    const bytes = (await store.readBytes(key)) as Uint8Array;
    await store.write(key, bytes.subarray(0, bytes.length - 4));
  }
}

/** Marks every text shard as written by format 4, as the shards of the release before format 5 are. */
async function olderFormatTextShards(store: MemoryStateStore): Promise<void> {
  for (const key of await textShardKeys(store)) {
    const bytes = ((await store.readBytes(key)) as Uint8Array).slice();
    new DataView(bytes.buffer).setUint32(4, 4, true); // the format version in the header
    await store.write(key, bytes);
  }
}

const textShardKeys = async (store: MemoryStateStore) => (await store.list("index")).filter((key) => /text-[0-9a-f]{2}\.bin$/.test(key));

/** Four notes embedded, then notes/n1.md moved to moved/n1.md (the index told, no pass since). */
async function renamedAfterEmbedding() {
  const store = new MemoryStateStore();
  const vault = new MemoryVault(notes(4));
  const embedder = countingEmbedder();
  const index = await open(store, vault, embedder);
  await syncIndex(index, vault);
  const before = embeddedTexts(embedder);
  const text = await vault.read("notes/n1.md");
  await vault.create("moved/n1.md", text);
  await vault.remove("notes/n1.md");
  await rename(index, "notes/n1.md", "moved/n1.md", text);
  return { store, vault, embedder, index, before };
}

describe("vectors kept for the notes that will need them", () => {
  it.each([
    ["a damaged text shard", damageTextShards],
    ["the text shards of format 4 (a format bump)", olderFormatTextShards],
  ])("survive %s dropped when the plugin flushes before its embedding pass", async (_, drop) => {
    const store = new MemoryStateStore();
    const vault = new MemoryVault(notes(40));
    const first = countingEmbedder();
    await syncIndex(await open(store, vault, first), vault);
    expect(embeddedTexts(first)).toBe(80);
    await drop(store);

    // The plugin's order (index-open.ts): a text-only sync that flushes, then the background pass.
    const upgraded = countingEmbedder();
    const index = await open(store, vault, upgraded);
    expect(index.rejectedShards).toBeGreaterThan(0);
    await syncIndex(index, vault, { embed: false });
    // Were Obsidian closed before the pass, the next session would find every vector on disk.
    const next = await open(store, vault, upgraded);
    expect(next.vectors?.index.noteCount).toBe(40);
    expect(next.vectors?.needing()).toEqual([]);
    const result = await index.embedPending();
    await index.flush();

    expect(embeddedTexts(upgraded)).toBe(0);
    expect(result.notes).toBe(40);
    expect(result.reused).toBe(80);
    expect((await open(store, vault, upgraded)).vectors?.index.noteCount).toBe(40);
  });

  it("commit every note of a pass that a flush interrupts", async () => {
    const files: Record<string, string> = {};
    // 3 chunks a note: notes straddle the requests of 32 texts, so some are half embedded at the flush.
    for (let i = 0; i < 20; i++) files[`notes/n${i}.md`] = `# A ${i}\n\nalpha ${i}\n\n## B ${i}\n\nbeta ${i}\n\n## C ${i}\n\ngamma ${i}`;
    const vault = new MemoryVault(files);
    let requests = 0;
    let release: (() => void) | null = null;
    const embedder: Embedder = {
      modelId: "fake",
      async embed(texts) {
        requests += 1;
        // The second request waits for the test: a slow server, during which the plugin flushes.
        if (requests === 2) await new Promise<void>((resolve) => (release = resolve));
        return texts.map((t) => Float32Array.from(fakeEmbedding(t)));
      },
    };
    const index = await open(new MemoryStateStore(), vault, embedder);
    await syncIndex(index, vault, { embed: false });
    const pass = index.embedPending();
    await until(() => release !== null, "the second request");
    await index.flush();
    (release as unknown as () => void)();
    const result = await pass;

    expect(result.error).toBeNull();
    expect(result.notes).toBe(20);
    expect(index.paths().filter((path) => index.vectors?.index.has(path))).toEqual(index.paths());
    expect(index.vectors?.needing()).toEqual([]);
  });

  it("are found again by a renamed note after a flush", async () => {
    const { embedder, index, before } = await renamedAfterEmbedding();
    // The plugin's flush comes 2 s after the rename; the pass may come later (a slow or absent server).
    await index.flush();
    const result = await index.embedPending();

    expect(embeddedTexts(embedder)).toBe(before);
    expect(result.reused).toBe(2);
  });

  it("are found again by a renamed note in the next session when Obsidian closed before the pass", async () => {
    const { store, vault, embedder, index, before } = await renamedAfterEmbedding();
    // The embedding server is down: the flush comes first, and Obsidian closes.
    await index.flush();
    const next = await open(store, vault, embedder);
    await syncIndex(next, vault, { embed: false });
    const result = await next.embedPending();

    expect(embeddedTexts(embedder)).toBe(before);
    expect(result.reused).toBe(2);
    expect(next.vectors?.index.has("moved/n1.md")).toBe(true);
  });

  it("leave once a pass has run: a deleted note's vectors are swept and its record rewritten away", async () => {
    const store = new MemoryStateStore();
    const vault = new MemoryVault(notes(4));
    const embedder = countingEmbedder();
    const index = await open(store, vault, embedder);
    await syncIndex(index, vault);
    expect(index.vectors?.index.vectorCount).toBe(8);
    index.remove("notes/n2.md");
    await index.flush();
    expect(index.vectors?.index.vectorCount).toBe(8); // kept until a pass has looked for them
    await index.embedPending();
    await index.flush();
    expect(index.vectors?.index.vectorCount).toBe(6);

    const reopened = await open(store, vault, countingEmbedder());
    expect([...(reopened.vectors?.index.paths() ?? [])].sort()).toEqual(["notes/n0.md", "notes/n1.md", "notes/n3.md"]);
    await reopened.embedPending();
    await reopened.flush();
    expect(reopened.vectors?.index.vectorCount).toBe(6);
  });
});
