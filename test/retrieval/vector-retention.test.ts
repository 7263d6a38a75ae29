/**
 * Retained vector records (vector-retention.ts): after a text-format bump every note of the vault
 * is retained at once, so releasing them and grouping them by shard go in steps with a checkpoint
 * between them. Counted, not timed; and the steps change nothing about what is kept.
 */
import { describe, expect, it } from "vitest";
import { shardOf } from "../../src/retrieval/shard-of";
import { VaultIndex } from "../../src/retrieval/vault-index";
import { readFrontmatter } from "../../src/retrieval/chunker";
import { VectorBackend } from "../../src/retrieval/vector-backend";
import { RETAINED_STEP, VectorRetention } from "../../src/retrieval/vector-retention";
import { loadVectorShards } from "../../src/retrieval/vector-shards";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { countingEmbedder } from "./vector-embedder";

const record = (i: number) => ({ path: `notes/n${i}.md`, hash: `h${i}`, keys: [`k${i}`, `shared`] });

describe("retained vector records", () => {
  it("releases those retained before a pass in steps, keeping the newer ones and their keys", async () => {
    const retention = new VectorRetention();
    const count = 3 * RETAINED_STEP + 5;
    for (let i = 0; i < count; i++) retention.retain(record(i), i < count - 1 ? 0 : 1);
    let checkpoints = 0;
    const released: string[] = [];
    await retention.releaseBefore(1, (path) => released.push(path), () => Promise.resolve(void (checkpoints += 1)));
    expect(checkpoints).toBe(3);
    expect(released).toHaveLength(count - 1);
    expect(retention.pinned(`k${count - 1}`)).toBe(true);
    expect(retention.pinned("shared")).toBe(true);
    expect(retention.pinned("k0")).toBe(false);
  });

  it("keeps a record retained anew during a checkpoint of the release", async () => {
    const retention = new VectorRetention();
    for (let i = 0; i < 2 * RETAINED_STEP; i++) retention.retain(record(i), 0);
    const late = { ...record(RETAINED_STEP + 1), keys: ["late"] };
    await retention.releaseBefore(1, () => undefined, () => Promise.resolve(retention.retain(late, 1)));
    expect(retention.pinned("late")).toBe(true);
    expect((await retention.byShard(new Set([shardOf(late.path)]))).get(shardOf(late.path))).toEqual([{ ...late, passes: 1 }]);
  });

  it("groups by shard in steps, and only for the shards asked", async () => {
    const retention = new VectorRetention();
    for (let i = 0; i < 2 * RETAINED_STEP + 1; i++) retention.retain(record(i), 0);
    let checkpoints = 0;
    const one = shardOf(record(0).path);
    const grouped = await retention.byShard(new Set([one]), () => Promise.resolve(void (checkpoints += 1)));
    expect(checkpoints).toBe(2);
    expect([...grouped.keys()]).toEqual([one]);
    expect(grouped.get(one)?.every((r) => shardOf(r.path) === one)).toBe(true);
    expect(await retention.byShard(new Set())).toEqual(new Map());
  });

  it("is released in steps by an embedding pass of a vault whose notes all left", async () => {
    const count = 2 * RETAINED_STEP + 1;
    const texts = new Map<string, string>();
    for (let i = 0; i < count; i++) texts.set(`notes/n${i}.md`, `# Note ${i}\n\nWords ${i}.`);
    const reader = { read: (path: string) => Promise.resolve(texts.get(path) ?? "") };
    const index = await VaultIndex.open({ frontmatter: readFrontmatter, store: new MemoryStateStore(), reader, wikiFolder: "wiki", excludedFolders: [], embedder: countingEmbedder() });
    for (const [path, text] of texts) index.upsert(path, text, { mtime: 1, size: text.length });
    expect((await index.embedPending()).notes).toBe(count);
    for (const path of texts.keys()) index.remove(path);
    let checkpoints = 0;
    await index.embedPending({ checkpoint: () => Promise.resolve(void (checkpoints += 1)) });
    // Nothing to embed: every checkpoint is the release's, one per RETAINED_STEP records.
    expect(checkpoints).toBe(2);
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
    // The checkpoint before the shard is written: the note leaves meanwhile, as the plugin's events may.
    await backend.flush(store, members, () => {
      if (!removed) {
        removed = true;
        backend.remove(path);
      }
      return Promise.resolve();
    });
    await backend.flush(store, members);

    const loaded = await loadVectorShards(store, embedder.modelId, embedder.modelId);
    expect(loaded.shards.flatMap((s) => s.notes.map((n) => n.path))).toEqual([path]);
  });
});
