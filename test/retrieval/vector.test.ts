/**
 * The vector backend through VaultIndex: its contract (ordering, scope, excluded folders, argument
 * errors), fusion with text and graph, the chunk cache, persistence, and failure handling.
 */
import { describe, expect, it } from "vitest";
import { SynapseError } from "../../src/core/errors";
import { shardOf } from "../../src/retrieval/shards";
import { syncIndex } from "../../src/retrieval/sync";
import { VaultIndex } from "../../src/retrieval/vault-index";
import { readFrontmatter } from "../../src/retrieval/chunker";
import { vectorShardKey } from "../../src/retrieval/vector-shards";
import { MemoryVault } from "../../src/vault/memory-vault";
import { aVault, type TestVault } from "./index-builder";
import { countingEmbedder, embeddedTexts, type CountingEmbedder } from "./vector-embedder";

const FILES: Record<string, string> = {
  "notes/cars.md": "# Cars\n\nA car has four wheels and an engine.\n\n## Repairs\n\nThe garage fixes the car engine.",
  "notes/doctors.md": "# Health\n\nThe doctor sees patients at the clinic.",
  "notes/garden.md": "# Garden\n\nTomatoes grow in summer beside the basil.",
  "wiki/Car.md": "# Car\n\nA wiki page about the car and its engine. See [[Engine]].",
  "wiki/Engine.md": "# Engine\n\nPistons and fuel.",
  "private/diary.md": "# Diary\n\nMy car broke down again; the automobile is old.",
};

/** The index reads notes (for snippets and embedding) from `reader`: the MemoryVault the syncs see. */
async function open(vault: TestVault, embedder: CountingEmbedder, reader: { read(path: string): Promise<string> } = vault.reader): Promise<VaultIndex> {
  return VaultIndex.open({ frontmatter: readFrontmatter, store: vault.store, reader, wikiFolder: "wiki", excludedFolders: ["private"], embedder });
}

async function built(files = FILES, embedder = countingEmbedder()): Promise<{ vault: TestVault; memory: MemoryVault; index: VaultIndex; embedder: CountingEmbedder }> {
  const vault = aVault(files);
  const memory = new MemoryVault(files);
  const index = await open(vault, embedder, memory);
  await syncIndex(index, memory);
  return { vault, memory, index, embedder };
}

const all = { scope: { kind: "all" as const }, limit: 10 };

describe("the vector backend", () => {
  it("finds a note by meaning when no word of the query is in it, fused with text and graph", async () => {
    const { index } = await built();
    expect(index.searchText("automobile", all)).toEqual([]);
    const hits = await index.retrieve("automobile", all);
    expect(hits[0]?.path).toMatch(/^(notes\/cars|wiki\/Car)\.md$/);
    expect(hits.map((h) => h.path)).toContain("wiki/Engine.md"); // lent a share through the link from wiki/Car
    const scores = hits.map((h) => h.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(Object.isFrozen(hits)).toBe(true);
  });

  it("gives the same answer twice and orders ties by path", async () => {
    const { index } = await built();
    const first = await index.retrieve("physician", all);
    expect(first[0]?.path).toBe("notes/doctors.md");
    expect(await index.retrieve("physician", all)).toEqual(first);
  });

  it("respects the scope", async () => {
    const { index } = await built();
    const wiki = await index.retrieve("automobile", { scope: { kind: "wiki" }, limit: 10 });
    expect(wiki.length).toBeGreaterThan(0);
    expect(wiki.every((h) => h.path.startsWith("wiki/"))).toBe(true);
    const notes = await index.retrieve("automobile", { scope: { kind: "notes" }, limit: 10 });
    expect(notes.every((h) => h.path.startsWith("notes/"))).toBe(true);
    const garden = await index.retrieve("vehicle", { scope: { kind: "folders", folders: ["notes"] }, limit: 1 });
    expect(garden.map((h) => h.path)).toEqual(["notes/cars.md"]);
  });

  it("never embeds or returns a note in an excluded folder", async () => {
    const { index, embedder } = await built();
    expect(embedder.calls.flat().some((t) => t.includes("Diary") || t.includes("broke down"))).toBe(false);
    expect(index.vectors?.index.has("private/diary.md")).toBe(false);
    expect((await index.retrieve("automobile old", { scope: { kind: "all" }, limit: 50 })).some((h) => h.path.startsWith("private/"))).toBe(false);
  });

  it("never embeds a page drawn from a note in an excluded folder, and drops its vectors when it becomes one", async () => {
    const drawn = "---\nsources:\n  - \"[[private/diary]]\"\n---\n# Breakdown\n\nThe engine stalled on the motorway.\n";
    const { index, embedder, memory } = await built({ ...FILES, "wiki/Breakdown.md": drawn });
    expect(embedder.calls.flat().some((t) => t.includes("motorway"))).toBe(false);
    expect(index.vectors?.index.has("wiki/Breakdown.md")).toBe(false);
    expect(index.vectors?.index.has("wiki/Car.md")).toBe(true);
    // Still found by its words: only the embedding model never sees it.
    expect((await index.retrieve("motorway", all)).map((h) => h.path)).toContain("wiki/Breakdown.md");

    // A page that later cites an excluded note loses the vectors it had.
    const cites = "---\nsources:\n  - private/diary.md\n---\n# Car\n\nA wiki page about the car and its engine.\n";
    await memory.process("wiki/Car.md", () => cites);
    index.upsert("wiki/Car.md", cites, { mtime: 99, size: cites.length });
    await index.embedPending();
    expect(index.vectors?.index.has("wiki/Car.md")).toBe(false);
    // Embedded once, in its first version; never in the version that cites the diary.
    expect(embedder.calls.flat().filter((t) => t.includes("A wiki page about the car"))).toHaveLength(1);
  });

  it("refuses bad arguments with a clear error, before embedding anything", async () => {
    const { index, embedder } = await built();
    const before = embedder.calls.length;
    await expect(index.retrieve("car", { scope: { kind: "all" }, limit: 0 })).rejects.toThrow(/limit must be a whole number/);
    await expect(index.retrieve("x".repeat(10_001), all)).rejects.toThrow(/longer than 10,000/);
    await expect(index.retrieve("car", { scope: { kind: "folders", folders: [] }, limit: 5 })).rejects.toThrow(/at least one folder/);
    expect(embedder.calls.length).toBe(before);
  });

  it("batches the chunks, and never embeds an unchanged chunk twice, even after every file's time changed", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 50; i++) files[`notes/n${i}.md`] = `# Note ${i}\n\nText ${i} about topic ${i % 5}.\n\n## Part two\n\nMore on ${i}.`;
    const { index, memory, embedder } = await built(files);
    expect(embeddedTexts(embedder)).toBe(100);
    expect(embedder.calls.length).toBe(Math.ceil(100 / 32));
    expect(embedder.calls.every((c) => c.length <= 32)).toBe(true);
    for (const path of Object.keys(files)) await memory.process(path, (t) => `${t}\n`); // new mtime, same chunks once trimmed
    const again = await syncIndex(index, memory);
    expect(again.embedded).toBe(0);
    expect(embeddedTexts(embedder)).toBe(100);
    await memory.process("notes/n7.md", (t) => t.replace("More on 7.", "Something new."));
    const edited = await syncIndex(index, memory);
    expect(edited.embedded).toBe(1); // only the edited chunk
  });

  it("re-embeds nothing when a note is renamed or its text comes back", async () => {
    const { index, memory, embedder } = await built();
    const before = embeddedTexts(embedder);
    const text = await memory.read("notes/garden.md");
    await memory.remove("notes/garden.md");
    await memory.create("notes/plants.md", text);
    await syncIndex(index, memory);
    expect(embeddedTexts(embedder)).toBe(before);
    expect((await index.retrieve("tomatoes", all))[0]?.path).toBe("notes/plants.md");
  });

  it("survives a restart: persisted vectors load, and nothing is embedded again", async () => {
    const { vault, memory, index } = await built();
    const answer = await index.retrieve("automobile", all);
    const embedder = countingEmbedder();
    const reopened = await open(vault, embedder);
    expect(reopened.vectors?.rejectedShards).toBe(0);
    expect(reopened.vectors?.index.noteCount).toBe(index.vectors?.index.noteCount);
    await syncIndex(reopened, memory);
    expect(embedder.calls).toEqual([["automobile"]].slice(0, 0));
    expect(await reopened.retrieve("automobile", all)).toEqual(answer);
  });

  it("detects a truncated vector shard, drops it and embeds only its notes again", async () => {
    const { vault, memory } = await built();
    const key = vectorShardKey("fake:bow", shardOf("notes/doctors.md"));
    const bytes = (await vault.store.readBytes(key)) ?? new Uint8Array(0);
    expect(bytes.length).toBeGreaterThan(64);
    await vault.store.write(key, bytes.slice(0, bytes.length - 7));
    const embedder = countingEmbedder();
    const reopened = await open(vault, embedder);
    expect(reopened.vectors?.rejectedShards).toBe(1);
    expect(reopened.vectors?.index.has("notes/doctors.md")).toBe(false);
    const result = await syncIndex(reopened, memory);
    expect(result.embedded).toBeGreaterThan(0);
    expect(embedder.calls.flat().some((t) => t.includes("doctor sees patients"))).toBe(true);
    expect(embedder.calls.flat().some((t) => t.includes("Tomatoes"))).toBe(shardOf("notes/garden.md") === shardOf("notes/doctors.md"));
    expect((await reopened.retrieve("physician", all))[0]?.path).toBe("notes/doctors.md");
    expect((await open(vault, countingEmbedder())).vectors?.rejectedShards).toBe(0);
  });

  it("never loads vectors made by another model", async () => {
    const { vault } = await built();
    const other = await open(vault, countingEmbedder("fake:other"));
    expect(other.vectors?.index.noteCount).toBe(0);
    // A shard of another model found in this model's folder (copied by hand) is dropped.
    const key = vectorShardKey("fake:bow", shardOf("notes/doctors.md"));
    await vault.store.write(vectorShardKey("fake:other", shardOf("notes/doctors.md")), (await vault.store.readBytes(key)) ?? new Uint8Array(0));
    expect((await open(vault, countingEmbedder("fake:other"))).vectors?.rejectedShards).toBe(1);
  });

  it("keeps answering from text and graph when the embedding server is down, with one clear error", async () => {
    const embedder = countingEmbedder();
    embedder.failWith = new SynapseError("transport", "Could not reach Ollama at http://127.0.0.1:1.");
    const { index } = await built(FILES, embedder);
    const calls = embedder.calls.length;
    expect(calls).toBe(1);
    expect(index.vectors?.error).toBe("Vector search is off for now (Could not reach Ollama at http://127.0.0.1:1); search uses text and links only.");
    const hits = await index.retrieve("engine", all);
    expect(hits.map((h) => h.path)).toContain("wiki/Engine.md");
    expect(embedder.calls.length).toBe(calls); // no further attempts this session
  });

  it("falls back to text when only the query fails to embed", async () => {
    const { index, embedder } = await built();
    embedder.failWith = new Error("boom");
    const hits = await index.retrieve("engine", all);
    expect(hits.length).toBeGreaterThan(0);
    expect(index.vectors?.error).toMatch(/boom/);
  });

  it("stops embedding when cancelled, keeping what was done", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 100; i++) files[`notes/n${i}.md`] = `# N${i}\n\nUnique text number ${i}.`;
    const vault = aVault(files);
    const memory = new MemoryVault(files);
    const controller = new AbortController();
    const embedder = countingEmbedder();
    const inner = embedder.embed.bind(embedder);
    embedder.embed = (texts, signal) => {
      if (embedder.calls.length === 1) controller.abort(new DOMException("stopped", "AbortError"));
      return inner(texts, signal);
    };
    const index = await open(vault, embedder);
    await expect(syncIndex(index, memory, { signal: controller.signal })).rejects.toThrow(/stopped/);
    expect(index.vectors?.error).toBeNull();
    expect(index.vectors?.index.noteCount).toBe(32);
    const rest = await syncIndex(index, memory);
    expect(rest.embedded).toBe(68);
  });

  it("refuses a vector of another dimension than the index holds", async () => {
    const { index, memory, embedder } = await built();
    const inner = embedder.embed.bind(embedder);
    embedder.embed = async (texts, signal) => (await inner(texts, signal)).map((v) => Float32Array.from([...v, 1]));
    await memory.process("notes/garden.md", (t) => `${t}\n\nPeppers too.`);
    const result = await syncIndex(index, memory);
    expect(result.vectorError).toMatch(/257 dimensions where the index holds 256/);
  });
});
