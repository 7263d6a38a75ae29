/**
 * Each embedding model keeps its own vectors: a search with another model neither reads nor deletes
 * the configured model's, switching back embeds nothing new, and only the last two models keep
 * theirs on disk. Vectors of the first layout (one model beside the text shards) move into their
 * model's folder.
 */
import { describe, expect, it } from "vitest";
import { syncIndex } from "../../src/retrieval/sync";
import { VaultIndex } from "../../src/retrieval/vault-index";
import { MAX_VECTOR_MODELS, modelFolder, vectorShardKey, VECTORS_FOLDER } from "../../src/retrieval/vector-models";
import { shardOf } from "../../src/retrieval/shard-of";
import { MemoryVault } from "../../src/vault/memory-vault";
import { aVault, type TestVault } from "./index-builder";
import { countingEmbedder, embeddedTexts, type CountingEmbedder } from "./vector-embedder";

const FILES: Record<string, string> = {
  "notes/cars.md": "# Cars\n\nA car has four wheels and an engine.",
  "notes/doctors.md": "# Health\n\nThe doctor sees patients at the clinic.",
  "notes/garden.md": "# Garden\n\nTomatoes grow in summer beside the basil.",
  "wiki/Car.md": "# Car\n\nA wiki page about the car. See [[Engine]].",
};

/** Opens the vault's index with `embedder`, syncs (embedding what is missing) and writes it. */
async function session(vault: TestVault, embedder: CountingEmbedder): Promise<VaultIndex> {
  const index = await VaultIndex.open({ store: vault.store, reader: vault.reader, wikiFolder: "wiki", excludedFolders: [], embedder });
  await syncIndex(index, new MemoryVault(Object.fromEntries(vault.files)));
  return index;
}

const folders = async (vault: TestVault) => [...new Set((await vault.store.list(VECTORS_FOLDER)).filter((k) => k.endsWith(".bin")).map((k) => k.slice(0, k.lastIndexOf("/"))))].sort();

describe("vectors kept per embedding model", () => {
  it("a search with another model leaves the configured model's vectors: switching back embeds nothing new", async () => {
    const vault = aVault(FILES);
    const configured = countingEmbedder("ollama:nomic-embed-text");
    await session(vault, configured);
    expect(embeddedTexts(configured)).toBe(4);

    const other = countingEmbedder("openai:text-embedding-3-small");
    const tried = await session(vault, other);
    expect(embeddedTexts(other)).toBe(4); // its own vectors, in its own folder
    expect(tried.vectors?.rejectedShards).toBe(0);
    expect(await folders(vault)).toEqual([modelFolder("ollama:nomic-embed-text"), modelFolder("openai:text-embedding-3-small")].sort());

    const back = countingEmbedder("ollama:nomic-embed-text");
    const index = await session(vault, back);
    expect(back.calls).toEqual([]);
    expect(index.vectors?.rejectedShards).toBe(0);
    expect(index.vectors?.index.noteCount).toBe(4);
    expect((await index.retrieve("physician doctor", { scope: { kind: "all" }, limit: 1 }))[0]?.path).toBe("notes/doctors.md");
  });

  it(`keeps the vectors of the last ${MAX_VECTOR_MODELS} models only`, async () => {
    const vault = aVault(FILES);
    for (const model of ["fake:a", "fake:b", "fake:c"]) await session(vault, countingEmbedder(model));
    expect(await folders(vault)).toEqual([modelFolder("fake:b"), modelFolder("fake:c")].sort());
    // Using b again keeps c (used since), and a comes back only by embedding everything again.
    const b = countingEmbedder("fake:b");
    await session(vault, b);
    expect(b.calls).toEqual([]);
    expect(await folders(vault)).toEqual([modelFolder("fake:b"), modelFolder("fake:c")].sort());
    const a = countingEmbedder("fake:a");
    await session(vault, a);
    expect(embeddedTexts(a)).toBe(4);
    expect(await folders(vault)).toEqual([modelFolder("fake:a"), modelFolder("fake:b")].sort());
  });

  it("gives models whose names read alike folders of their own", () => {
    expect(modelFolder("ollama:nomic-embed-text")).toMatch(/^index\/vectors\/ollama-nomic-embed-text-[0-9a-f]{8}$/);
    expect(modelFolder("a:b")).not.toBe(modelFolder("a-b"));
    expect(modelFolder("../../..")).toMatch(/^index\/vectors\/model-[0-9a-f]{8}$/);
  });

  it("moves the vectors of the first layout into their model's folder, and drops another model's", async () => {
    const vault = aVault(FILES);
    await session(vault, countingEmbedder("fake:bow"));
    // Put the store back into the first layout: the same shards under index/vectors-XX.bin, no model list.
    const legacy: string[] = [];
    for (const key of await vault.store.list(VECTORS_FOLDER)) {
      const bytes = await vault.store.readBytes(key);
      await vault.store.remove(key);
      if (!key.endsWith(".bin") || !bytes) continue;
      const moved = `index/${key.slice(key.lastIndexOf("/") + 1)}`;
      legacy.push(moved);
      await vault.store.write(moved, bytes);
    }
    expect(legacy.length).toBeGreaterThan(0);

    const again = countingEmbedder("fake:bow");
    const index = await session(vault, again);
    expect(again.calls).toEqual([]);
    expect(index.vectors?.index.noteCount).toBe(4);
    for (const key of legacy) expect(await vault.store.readBytes(key)).toBeNull();
    expect(await vault.store.readBytes(vectorShardKey("fake:bow", shardOf("notes/cars.md")))).not.toBeNull();

    // Shards of the first layout made by another model go (they were that model's only copy; it re-embeds).
    await vault.store.write("index/vectors-00.bin", (await vault.store.readBytes(vectorShardKey("fake:bow", shardOf("notes/cars.md")))) ?? new Uint8Array(0));
    const other = await session(vault, countingEmbedder("fake:other"));
    expect(other.vectors?.rejectedShards).toBe(1);
    expect(await vault.store.readBytes("index/vectors-00.bin")).toBeNull();
  });

  it("survives an unreadable model list: the model in use keeps its vectors", async () => {
    const vault = aVault(FILES);
    await session(vault, countingEmbedder("fake:bow"));
    await vault.store.write(`${VECTORS_FOLDER}/models.json`, "{not json");
    const again = countingEmbedder("fake:bow");
    await session(vault, again);
    expect(again.calls).toEqual([]);
  });
});
