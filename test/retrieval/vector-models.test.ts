/**
 * Each embedding model keeps its own vectors: a search with another model neither reads nor deletes
 * the configured model's, switching back embeds nothing new, and only two models keep theirs on
 * disk — the configured one, whatever was tried since, and the most recent other one. Vectors of
 * the first layout (one model beside the text shards) move into the folder of the model that made
 * them, whichever model opens the index first.
 */
import { describe, expect, it } from "vitest";
import { syncIndex } from "../../src/retrieval/sync";
import { VaultIndex } from "../../src/retrieval/vault-index";
import { readFrontmatter } from "../../src/retrieval/chunker";
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

/**
 * Opens the vault's index with `embedder`, syncs (embedding what is missing) and writes it.
 * `configured` is the model the settings choose (default: the embedder's own).
 */
async function session(vault: TestVault, embedder: CountingEmbedder, configured?: string | null): Promise<VaultIndex> {
  const index = await VaultIndex.open({
    frontmatter: readFrontmatter,
    store: vault.store,
    reader: vault.reader,
    wikiFolder: "wiki",
    excludedFolders: [],
    embedder,
    ...(configured === undefined ? {} : { configuredEmbeddingModel: configured }),
  });
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

  it(`with no model configured, keeps the vectors of the last ${MAX_VECTOR_MODELS} models used`, async () => {
    const vault = aVault(FILES);
    for (const model of ["fake:a", "fake:b", "fake:c"]) await session(vault, countingEmbedder(model), null);
    expect(await folders(vault)).toEqual([modelFolder("fake:b"), modelFolder("fake:c")].sort());
    // Using b again keeps c (used since), and a comes back only by embedding everything again.
    const b = countingEmbedder("fake:b");
    await session(vault, b, null);
    expect(b.calls).toEqual([]);
    expect(await folders(vault)).toEqual([modelFolder("fake:b"), modelFolder("fake:c")].sort());
    const a = countingEmbedder("fake:a");
    await session(vault, a, null);
    expect(embeddedTexts(a)).toBe(4);
    expect(await folders(vault)).toEqual([modelFolder("fake:a"), modelFolder("fake:b")].sort());
  });

  it("two models tried in a row keep the configured model's vectors: switching back embeds nothing new", async () => {
    const vault = aVault(FILES);
    const configured = "ollama:nomic-embed-text";
    await session(vault, countingEmbedder(configured), configured);
    for (const tried of ["ollama:all-minilm", "ollama:mxbai-embed-large", "openai:text-embedding-3-small"]) {
      const embedder = countingEmbedder(tried);
      await session(vault, embedder, configured);
      expect(embeddedTexts(embedder)).toBe(4);
      // The configured model and the one tried last; the ones tried before are gone.
      expect(await folders(vault)).toEqual([modelFolder(configured), modelFolder(tried)].sort());
    }
    const back = countingEmbedder(configured);
    const index = await session(vault, back, configured);
    expect(back.calls).toEqual([]);
    expect(index.vectors?.rejectedShards).toBe(0);
    expect(index.vectors?.index.noteCount).toBe(4);
    // Back on the configured model, the model tried last keeps its vectors too.
    expect(await folders(vault)).toEqual([modelFolder(configured), modelFolder("openai:text-embedding-3-small")].sort());
    const last = countingEmbedder("openai:text-embedding-3-small");
    await session(vault, last, configured);
    expect(last.calls).toEqual([]);
  });

  it("keeps the configured model's vectors when the model list is lost and another model is tried", async () => {
    const vault = aVault(FILES);
    await session(vault, countingEmbedder("fake:configured"), "fake:configured");
    await vault.store.remove(`${VECTORS_FOLDER}/models.json`);
    await session(vault, countingEmbedder("fake:tried"), "fake:configured");
    const back = countingEmbedder("fake:configured");
    await session(vault, back, "fake:configured");
    expect(back.calls).toEqual([]);
  });

  it("gives models whose names read alike folders of their own", () => {
    expect(modelFolder("ollama:nomic-embed-text")).toMatch(/^index\/vectors\/ollama-nomic-embed-text-[0-9a-f]{8}$/);
    expect(modelFolder("a:b")).not.toBe(modelFolder("a-b"));
    expect(modelFolder("../../..")).toMatch(/^index\/vectors\/model-[0-9a-f]{8}$/);
  });

  /** Puts the store back into the first layout: the same shards under index/vectors-XX.bin, no model list. */
  async function toFirstLayout(vault: TestVault): Promise<string[]> {
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
    return legacy;
  }

  it("moves the vectors of the first layout into their model's folder", async () => {
    const vault = aVault(FILES);
    await session(vault, countingEmbedder("fake:bow"));
    const legacy = await toFirstLayout(vault);

    const again = countingEmbedder("fake:bow");
    const index = await session(vault, again);
    expect(again.calls).toEqual([]);
    expect(index.vectors?.index.noteCount).toBe(4);
    for (const key of legacy) expect(await vault.store.readBytes(key)).toBeNull();
    expect(await vault.store.readBytes(vectorShardKey("fake:bow", shardOf("notes/cars.md")))).not.toBeNull();
  });

  it("moves the first layout's vectors into their own model's folder when another model opens the index first", async () => {
    const vault = aVault(FILES);
    await session(vault, countingEmbedder("fake:configured"));
    const legacy = await toFirstLayout(vault);

    // After the upgrade, a search with another model comes first: it embeds for itself, takes nothing.
    const tried = countingEmbedder("fake:tried");
    const other = await session(vault, tried, "fake:configured");
    expect(embeddedTexts(tried)).toBe(4);
    expect(other.vectors?.rejectedShards).toBe(0);
    for (const key of legacy) expect(await vault.store.readBytes(key)).toBeNull();
    expect(JSON.parse((await vault.store.read(`${VECTORS_FOLDER}/models.json`)) ?? "{}")).toEqual({ models: ["fake:tried", "fake:configured"] });

    // The configured model finds its vectors where they moved: nothing embedded again.
    const back = countingEmbedder("fake:configured");
    const index = await session(vault, back, "fake:configured");
    expect(back.calls).toEqual([]);
    expect(index.vectors?.rejectedShards).toBe(0);
    expect(index.vectors?.index.noteCount).toBe(4);
    expect((await index.retrieve("physician doctor", { scope: { kind: "all" }, limit: 1 }))[0]?.path).toBe("notes/doctors.md");
  });

  it("drops an unreadable shard of the first layout, and only that one", async () => {
    const vault = aVault(FILES);
    await session(vault, countingEmbedder("fake:bow"));
    const legacy = await toFirstLayout(vault);
    const damaged = legacy[0] as string;
    const bytes = (await vault.store.readBytes(damaged)) ?? new Uint8Array(0);
    await vault.store.write(damaged, bytes.subarray(0, bytes.length - 1));

    const again = countingEmbedder("fake:bow");
    const index = await session(vault, again);
    expect(index.vectors?.rejectedShards).toBe(1);
    expect(await vault.store.readBytes(damaged)).toBeNull();
    expect(embeddedTexts(again)).toBeGreaterThan(0);
    expect(embeddedTexts(again)).toBeLessThan(4);
    expect(index.vectors?.index.noteCount).toBe(4);
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
