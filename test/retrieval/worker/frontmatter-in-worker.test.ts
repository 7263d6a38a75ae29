/**
 * The index's worker has no YAML parser: the main thread reads each note's frontmatter and sends
 * its values with the text (note-frontmatter.ts). Over frontmatter only the full `yaml` parser reads
 * (flow lists, numbers, unquoted links, block scalars, anchors), the index in a worker writes the
 * same shards and answers the same as the index in process, through a sync and through changes.
 */
import { describe, expect, it } from "vitest";
import type { SearchIndex } from "../../../src/retrieval";
import { MemoryStateStore } from "../../../src/vault/memory-state-store";
import { MemoryVault } from "../../../src/vault/memory-vault";
import { inProcess, inWorker, type Opener } from "./harness";

const NOTES = {
  "notes/flow.md": "---\ntitle: 'Flow Title'\naliases: [Quick Name, Other Name]\ntags: [2024, history]\n---\n# Flow\n\nGardens by the river.\n",
  "notes/links.md": "---\nsources:\n  - [[notes/flow]]\n  - notes/plain.md\ntag: '#solo'\n---\n# Links\n\nRivers and gardens.\n",
  "notes/block.md": "---\ntitle: >\n  Folded\n  title\nbase: &b [one, two]\naliases: *b\n---\nBody about gardens.\n",
  "notes/broken.md": "---\ntitle: [unclosed\n---\n# Broken\n\nGardens anyway.\n",
  "notes/plain.md": "# Plain\n\nNo frontmatter, gardens.\n",
};

interface Run {
  readonly index: SearchIndex;
  readonly store: MemoryStateStore;
  readonly vault: MemoryVault;
}

async function built(open: Opener): Promise<Run> {
  const store = new MemoryStateStore();
  const vault = new MemoryVault(NOTES);
  const index = await open({ store, reader: vault, wikiFolder: "wiki", excludedFolders: [] });
  await index.sync(vault, { embed: false });
  return { index, store, vault };
}

const answers = async (index: SearchIndex) =>
  Promise.all(["gardens", "quick name", "folded title", "history", "flow title", "one", "fresh alias", "moved"].map(async (q) => (await index.retrieve(q, { scope: { kind: "all" }, limit: 10 })).map((h) => [h.path, h.heading, h.score])));

const shards = (store: MemoryStateStore) => [...store.entries].filter(([key]) => key.startsWith("index/")).sort(([a], [b]) => (a < b ? -1 : 1));

describe("frontmatter read on the main thread for the worker", () => {
  it("gives the same shards and results as the index in process, after a sync and after changes", async () => {
    const here = await built(inProcess);
    const there = await built(inWorker);
    expect(await answers(there.index)).toEqual(await answers(here.index));
    // Aliases, titles and tags count: the folded title and the alias from an anchor are found.
    expect((await there.index.retrieve("quick name", { scope: { kind: "all" }, limit: 1 }))[0]?.path).toBe("notes/flow.md");
    expect((await there.index.retrieve("folded title", { scope: { kind: "all" }, limit: 1 }))[0]?.path).toBe("notes/block.md");

    const fresh = "---\naliases: [Fresh Alias]\n---\nNew gardens.\n";
    const moved = "---\ntitle: Moved [[x]]\ntags: [moved]\n---\nMoved gardens.\n";
    for (const run of [here, there]) {
      // The vault holds what the changes bring: a hit's snippet is read from it.
      await run.vault.create("notes/new.md", fresh);
      await run.vault.remove("notes/plain.md");
      await run.vault.create("notes/moved.md", moved);
      await run.index.apply([
        { kind: "upsert", path: "notes/new.md", text: fresh, stat: { mtime: 9, size: 40 } },
        { kind: "rename", from: "notes/plain.md", to: "notes/moved.md", text: moved },
      ]);
      await run.index.flush();
    }
    expect(await answers(there.index)).toEqual(await answers(here.index));
    expect((await there.index.retrieve("fresh alias", { scope: { kind: "all" }, limit: 1 }))[0]?.path).toBe("notes/new.md");
    expect(shards(there.store)).toEqual(shards(here.store));
    expect(shards(there.store).length).toBeGreaterThan(0);
    await Promise.all([here.index.close(), there.index.close()]);
  });
});
