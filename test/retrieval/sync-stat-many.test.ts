/**
 * A sync over the Node vault checks the notes the index holds with `statMany`, in batches, and
 * reads only the new and changed ones: edits, deletions, new notes and a note that vanishes between
 * the listing and the check all come out as a rebuild would have them, without an error. The
 * batches are asked for a few ahead (in the worker each is a round trip to the main thread).
 */
import { appendFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { syncIndex } from "../../src/retrieval/sync";
import { VaultIndex } from "../../src/retrieval/vault-index";
import { readFrontmatter } from "../../src/retrieval/chunker";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { NodeVault } from "../../src/vault/node-vault";
import { until } from "../helpers/eventually";
import { makeVault } from "../helpers/temp-vault";

/** More notes than one batch of the check holds (STAT_BATCH, 256), so it takes several. */
const COUNT = 600;

function notes(): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < COUNT; i++) out[`folder-${i % 7}/note-${i}.md`] = `# Note ${i}\n\nPlain words number ${i}.`;
  return out;
}

/** The Node vault with its calls counted, and a hook run right after it lists the vault. */
function watched(root: string, afterList: () => void = () => undefined) {
  const vault = new NodeVault(root);
  const calls = { stat: 0, statMany: 0, statted: 0, read: 0 };
  const port = Object.create(vault) as NodeVault;
  Object.assign(port, {
    list: async (folder: string) => {
      const listed = await vault.list(folder);
      afterList();
      return listed;
    },
    stat: (path: string) => (calls.stat++, vault.stat(path)),
    statMany: (paths: readonly string[]) => ((calls.statMany++, (calls.statted += paths.length)), vault.statMany(paths)),
    read: (path: string) => (calls.read++, vault.read(path)),
    readWithStat: (path: string) => (calls.read++, vault.readWithStat(path)),
  });
  return { port, calls };
}

const open = (store: MemoryStateStore, root: string) => VaultIndex.open({ frontmatter: readFrontmatter, store, reader: new NodeVault(root), wikiFolder: "wiki", excludedFolders: [] });
const found = (index: VaultIndex, words: string) => index.searchText(words, { scope: { kind: "all" }, limit: 5 }).map((h) => h.path);

describe("a sync over the Node vault", () => {
  it("checks the indexed notes in batches and reads only what changed; a note gone since the listing is dropped", async () => {
    const root = makeVault(notes());
    const store = new MemoryStateStore();
    const index = await open(store, root);
    await syncIndex(index, new NodeVault(root), { flush: false });
    expect(index.size).toBe(COUNT);

    appendFileSync(join(root, "folder-1/note-1.md"), "\nZanzibar marmalade.");
    rmSync(join(root, "folder-2/note-2.md"));
    writeFileSync(join(root, "folder-3/new.md"), "# New\n\nQuokka sandwiches.");
    const { port, calls } = watched(root, () => rmSync(join(root, "folder-4/note-4.md")));
    const result = await syncIndex(index, port, { flush: false });

    expect(result).toMatchObject({ total: COUNT, indexed: 2, removed: 2, unchanged: COUNT - 3 });
    expect(calls.statMany).toBeGreaterThanOrEqual(Math.ceil(COUNT / 256));
    // Each indexed note once, in batches; no note stat'ed alone; only the changed and new note read.
    expect(calls.statted).toBe(COUNT - 1);
    expect(calls.stat).toBe(0);
    expect(calls.read).toBe(2);
    expect(found(index, "zanzibar marmalade")).toEqual(["folder-1/note-1.md"]);
    expect(found(index, "quokka")).toEqual(["folder-3/new.md"]);
    expect(index.paths()).not.toContain("folder-2/note-2.md");
    expect(index.paths()).not.toContain("folder-4/note-4.md");

    // As a rebuild has it.
    const fresh = await open(new MemoryStateStore(), root);
    await syncIndex(fresh, new NodeVault(root), { flush: false });
    expect(index.paths()).toEqual(fresh.paths());
    for (const path of fresh.paths()) expect(index.stateOf(path), path).toEqual(fresh.stateOf(path));
  });

  it("asks for the next batches' stats before the first answers, and reads a note indexed while its batch was asked for", async () => {
    const root = makeVault(notes());
    const store = new MemoryStateStore();
    const index = await open(store, root);
    await syncIndex(index, new NodeVault(root), { flush: false });
    // The vault's last note, in the last batch; left out of the index, so its batch asks no stat for it.
    const late = Object.keys(notes()).sort().at(-1) as string;
    index.remove(late);
    const vault = new NodeVault(root);
    let asks = 0;
    let inFlight = 0;
    let most = 0;
    const releases: (() => void)[] = [];
    const port = Object.create(vault) as NodeVault;
    Object.assign(port, {
      statMany: async (paths: readonly string[]) => {
        asks += 1;
        inFlight += 1;
        most = Math.max(most, inFlight);
        // The first answer waits until the batches after it are asked for (or none more come).
        if (releases.length === 0) await new Promise<void>((resolve) => releases.push(resolve));
        const stats = await vault.statMany(paths);
        inFlight -= 1;
        return stats;
      },
    });
    const syncing = syncIndex(index, port, { flush: false });
    await until(() => asks === Math.ceil(COUNT / 256), "every batch asked for");
    // An update indexes the last batch's note while its stats are on the way: the sync reads it, never drops it.
    index.upsert(late, "# Late\n\nWombat biscuits.", { mtime: 1, size: 1 });
    releases[0]?.();
    await syncing;
    expect(most).toBeGreaterThan(1);
    expect(index.paths()).toContain(late);
    // Read again by the sync: its text is the vault's, not the update's.
    expect(found(index, "wombat biscuits")).toEqual([]);
    expect(index.stateOf(late)?.size).not.toBe(1);
  });
});
