/**
 * A settings change while the index is still syncing: the running sync is cancelled and awaited
 * before the index opens again, so two syncs never run at once, the old one writes nothing after,
 * and vault events reach the new index. Driven by events (a call of the index's worker to the
 * main thread, which the test holds and releases), never by timing.
 */
import { App } from "obsidian-test-mocks/obsidian";
import { describe, expect, it } from "vitest";
import { IndexService } from "../../src/obsidian/index-service";
import { loadShards } from "../helpers/stored-shards";
import { DEFAULT_SETTINGS, type Settings } from "../../src/settings/schema";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { eventually } from "../helpers/eventually";
import { readyIndex } from "../helpers/index-internals";
import { inProcessWorker } from "../helpers/in-process-worker";

function files(): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < 150; i++) out[`notes/Note ${i}.md`] = `# Note ${i}\n\nA lighthouse on the coast, number ${i}.\n`;
  for (let i = 0; i < 60; i++) out[`private/Diary ${i}.md`] = `# Diary ${i}\n\nThe lighthouse keeper's secret ${i}.\n`;
  return out;
}

/**
 * A call of the index's worker the test can hold (a note read, a shard written…): the first one at
 * which `holdWhen()` is true waits until released (the test waits for a state, not for a count of
 * calls); the others pass at once.
 */
function heldCall(holdWhen: () => boolean = () => true) {
  let reached!: () => void;
  const firstCall = new Promise<void>((resolve) => (reached = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held = false;
  const onCall = async () => {
    if (!held && holdWhen()) {
      held = true;
      reached();
      await released;
    }
  };
  return { onCall, firstCall, release };
}

function service(app: App, settings: () => Settings, store: MemoryStateStore, onCall: () => Promise<void>, statuses: string[]) {
  return new IndexService({
    app: app.asOriginalType__(),
    worker: inProcessWorker({ onCall }),
    store,
    settings,
    status: (text) => statuses.push(text),
    flushDelayMs: 0,
    updateDelayMs: 0,
    reopenDelayMs: 0,
  });
}

describe("reopening the index while it syncs", () => {
  it("cancels the running sync and waits for it before the new one starts; nothing of the old one is written", async () => {
    const app = App.createConfigured__({ files: files() });
    let settings: Settings = DEFAULT_SETTINGS;
    const store = new MemoryStateStore();
    const statuses: string[] = [];
    const held = heldCall(() => statuses.includes("Indexing 0 / 210"));
    const index = service(app, () => settings, store, held.onCall, statuses);
    index.start();
    // The first sync (210 notes) has said so and waits for a note it asked for.
    await held.firstCall;
    expect(statuses).toContain("Indexing 0 / 210");

    settings = { ...DEFAULT_SETTINGS, excludedFolders: ["private"] };
    index.settingsChanged();
    const reopened = readyIndex(index);
    held.release();
    const opened = await reopened;

    expect(opened?.size).toBe(150);
    expect(opened?.paths().some((p) => p.startsWith("private/"))).toBe(false);
    // The old sync stopped at the note it waited for: none of its progress lines come after the new sync's first.
    const firstNew = statuses.indexOf("Indexing 0 / 150");
    expect(firstNew).toBeGreaterThan(0);
    expect(statuses.slice(firstNew).some((s) => s.endsWith("/ 210"))).toBe(false);
    expect(statuses.filter((s) => s.endsWith("/ 210")).length).toBe(1);

    // Vault events reach the index now in use, and what is persisted is the new index alone.
    index.changed(await app.vault.create("notes/Quasar.md", "# Quasar\n\nA quasar outshines its galaxy.\n"));
    await eventually(async () => {
      const hits = await (await index.retriever()).retrieve("outshines", { scope: { kind: "all" }, limit: 5 });
      expect(hits.map((h) => h.path)).toEqual(["notes/Quasar.md"]);
    });
    await index.dispose();
    const persisted = (await loadShards(store)).shards.flatMap((s) => s.notes.map((n) => n.path));
    expect(persisted).toHaveLength(151);
    expect(persisted.some((p) => p.startsWith("private/"))).toBe(false);
  });

  it("reopens once for a burst of settings changes, and every caller gets the index of the last settings", async () => {
    const app = App.createConfigured__({ files: files() });
    let settings: Settings = DEFAULT_SETTINGS;
    const held = heldCall();
    const statuses: string[] = [];
    const index = service(app, () => settings, new MemoryStateStore(), held.onCall, statuses);
    index.start();
    await held.firstCall;

    settings = { ...DEFAULT_SETTINGS, excludedFolders: ["private"] };
    const first = readyIndex(index);
    settings = { ...DEFAULT_SETTINGS, excludedFolders: ["notes"] };
    const second = readyIndex(index);
    held.release();
    const [a, b] = await Promise.all([first, second]);
    expect(a).toBe(b);
    expect(b?.size).toBe(60);
    // The middle settings never got a sync of their own: they were superseded before the first one stopped.
    expect(statuses).not.toContain("Indexing 0 / 150");
    expect(statuses).toContain("Indexing 0 / 60");
    await index.dispose();
  });

  it("stops the sync when Obsidian unloads the plugin, and writes none of it", async () => {
    const app = App.createConfigured__({ files: files() });
    const store = new MemoryStateStore();
    const held = heldCall();
    const index = service(app, () => DEFAULT_SETTINGS, store, held.onCall, []);
    index.start();
    await held.firstCall;
    const closed = index.dispose();
    held.release();
    await closed;
    expect(await readyIndex(index)).toBeNull();
    expect((await loadShards(store)).shards).toEqual([]);
  });
});
