/**
 * Vault events that arrive while the index opens and syncs are never lost: a note modified,
 * deleted, renamed or moved into an excluded folder during the first sync — cold, or warm from the
 * shards of a previous session — ends up in the index (and in its shards) exactly as a fresh build
 * of the final vault has it. Events are wired as in main.ts and fired by the mocked vault itself,
 * at the calls the index's worker makes to the main thread while it loads and syncs (a shard read, a
 * note read: the test runs them before the call is answered), never raced against a timer.
 */
import fc from "fast-check";
import { App } from "obsidian-test-mocks/obsidian";
import { describe, expect, it } from "vitest";
import { IndexService } from "../../src/obsidian/index-service";
import { loadShards } from "../helpers/stored-shards";
import type { VaultIndex } from "../../src/retrieval/vault-index";
import { DEFAULT_SETTINGS, type Settings } from "../../src/settings/schema";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { nextMacrotask } from "../helpers/eventually";
import { readyIndex } from "../helpers/index-internals";
import { inProcessWorker } from "../helpers/in-process-worker";

const SETTINGS: Settings = { ...DEFAULT_SETTINGS, excludedFolders: ["private"] };

/**
 * Runs the next step of a script at each call of the opening index's worker, once `gate` says so
 * (from the first call, while the shards load, or from the sync's first progress line); the first
 * step's call also tells the test it was reached.
 */
function scriptedCalls(steps: (() => Promise<void>)[], gate: () => boolean = () => true) {
  let reached!: () => void;
  const firstCall = new Promise<void>((resolve) => (reached = resolve));
  const onCall = async () => {
    if (gate()) {
      reached();
      const step = steps.shift();
      if (step) await step();
    }
    // One macrotask, so the vault events the step queued run before the call is answered.
    await nextMacrotask();
  };
  /** The steps the sync did not reach, taken out of the script. */
  const rest = () => steps.splice(0);
  return { onCall, firstCall, rest };
}

type VaultEvent = { kind: "write"; path: string; text: string } | { kind: "delete"; path: string } | { kind: "rename"; path: string; to: string };

/** Makes the change in the mocked vault, which fires its events; a change that cannot be made (no such note) is skipped. */
async function apply(app: App, event: VaultEvent): Promise<void> {
  const existing = app.vault.getFileByPath(event.path);
  if (event.kind === "write") {
    if (existing) await app.vault.modify(existing, event.text);
    else {
      await ensureFolder(app, event.path);
      await app.vault.create(event.path, event.text);
    }
  } else if (event.kind === "delete") {
    if (existing) await app.fileManager.trashFile(existing);
  } else if (existing && !app.vault.getFileByPath(event.to)) {
    await ensureFolder(app, event.to);
    await app.fileManager.renameFile(existing, event.to);
  }
}

/**
 * A mocked app whose metadata cache follows a note when it is renamed and forgets it when it is
 * deleted, as Obsidian's does (the mock keeps the cache under the old path, so a note renamed onto
 * the path of a deleted one would get the deleted note's links).
 */
function vaultApp(files: Record<string, string>): App {
  const app = App.createConfigured__({ files });
  const caches = app.metadataCache.cache__;
  app.vault.on("rename", (file, oldPath) => {
    const cache = caches.get(oldPath as string);
    caches.delete(oldPath as string);
    if (cache) caches.set((file as { path: string }).path, cache);
  });
  app.vault.on("delete", (file) => caches.delete((file as { path: string }).path));
  return app;
}

/** The plugin's service over `app`, with vault events wired as main.ts wires them; `onCall` runs at each call of its worker. */
function service(app: App, store: MemoryStateStore, onCall: () => Promise<void>, status: (text: string) => void = () => undefined): IndexService {
  const svc = new IndexService({
    app: app.asOriginalType__(),
    worker: inProcessWorker({ onCall }),
    store,
    settings: () => SETTINGS,
    status,
    flushDelayMs: 0,
    updateDelayMs: 0,
    reopenDelayMs: 0,
  });
  app.vault.on("create", (file) => svc.changed(file));
  app.vault.on("modify", (file) => svc.changed(file));
  app.vault.on("delete", (file) => svc.deleted(file));
  app.vault.on("rename", (file, oldPath) => svc.renamed(file, oldPath as string));
  app.metadataCache.on("changed", (file, _data, cache) => svc.changed(file, cache as never));
  return svc;
}

function file(app: App, path: string) {
  const found = app.vault.getFileByPath(path);
  if (!found) throw new Error(`no ${path}`);
  return found;
}

async function ensureFolder(app: App, path: string): Promise<void> {
  const folder = path.slice(0, path.lastIndexOf("/"));
  if (folder && !app.vault.getFolderByPath(folder)) await app.vault.createFolder(folder);
}

/** What the index holds, for comparison with a fresh build: every note's path and content hash, links resolved, a search. */
async function summary(index: VaultIndex) {
  const notes = index.paths().map((path) => [path, index.stateOf(path)?.hash, index.graph.neighbours(path)] as const);
  const hits = (await index.retrieve("lighthouse keeper", { scope: { kind: "all" }, limit: 20 })).map((h) => [h.path, h.heading]);
  return { notes, hits };
}

async function persistedPaths(store: MemoryStateStore): Promise<string[]> {
  return (await loadShards(store)).shards.flatMap((s) => s.notes.map((n) => `${n.path} ${n.hash}`)).sort();
}

async function markdownFiles(app: App): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const f of app.vault.getMarkdownFiles()) out[f.path] = await app.vault.cachedRead(f);
  return out;
}

/** A session that indexed the vault and closed, leaving its shards for a warm start. */
async function previousSession(app: App, store: MemoryStateStore): Promise<void> {
  const first = service(app, store, nextMacrotask);
  first.start();
  await readyIndex(first);
  await first.dispose();
}

/** The index a fresh start builds over `files`, and the shards it writes. */
async function rebuilt(files: Record<string, string>) {
  const app = vaultApp(files);
  const store = new MemoryStateStore();
  const svc = service(app, store, nextMacrotask);
  svc.start();
  const index = await readyIndex(svc);
  if (!index) throw new Error("the fresh index did not open");
  await svc.flush();
  const result = { summary: await summary(index), persisted: await persistedPaths(store) };
  await svc.dispose();
  return result;
}

/** A gate that opens at the sync's first progress line ("Indexing 0 / 12"), after the shards are loaded. */
function syncGate() {
  let syncing = false;
  return { open: () => syncing, status: (text: string) => (syncing ||= /^Indexing \d/.test(text)) };
}

/** Applies every change still waiting, writes the shards, and says what the index and its shards hold. */
async function settled(svc: IndexService, store: MemoryStateStore) {
  const index = await readyIndex(svc);
  if (!index) throw new Error("the index did not open");
  await svc.retriever();
  await svc.flush();
  return { summary: await summary(index), persisted: await persistedPaths(store) };
}

function notes(n: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < n; i++) out[`notes/Note ${i}.md`] = `# Note ${i}\n\nA lighthouse keeper's log, number ${i}. See [[Note ${(i + 1) % n}]].\n`;
  return out;
}

describe("vault events during the index's first sync", () => {
  it.each([
    ["cold", false],
    ["warm, from the shards of a previous session", true],
  ])("a note deleted, one renamed, one renamed then modified and one modified are all in step afterwards (%s)", async (_case, warm) => {
    const app = vaultApp(notes(12));
    const store = new MemoryStateStore();
    if (warm) await previousSession(app, store);
    const gate = syncGate();
    const script = scriptedCalls(
      [
        async () => {
          await app.fileManager.trashFile(file(app, "notes/Note 0.md"));
          await app.vault.modify(file(app, "notes/Note 11.md"), "# Note 11\n\nNow about a lighthouse keeper's cat.\n");
        },
        async () => {
          await app.fileManager.renameFile(file(app, "notes/Note 1.md"), "space/Moved.md");
          await app.fileManager.renameFile(file(app, "notes/Note 2.md"), "space/Moved twice.md");
        },
        async () => {
          await app.vault.modify(file(app, "space/Moved twice.md"), "# Moved twice\n\nEdited after the move, lighthouse keeper.\n");
          await ensureFolder(app, "private/Secret.md");
          await app.fileManager.renameFile(file(app, "notes/Note 3.md"), "private/Secret.md");
        },
      ],
      gate.open,
    );
    const svc = service(app, store, script.onCall, gate.status);
    svc.start();
    await script.firstCall;
    const after = await settled(svc, store);
    await svc.dispose();
    const paths = after.summary.notes.map(([p]) => p);
    expect(paths).not.toContain("notes/Note 0.md");
    expect(paths).not.toContain("notes/Note 1.md");
    expect(paths).not.toContain("notes/Note 3.md");
    expect(paths).not.toContain("private/Secret.md");
    expect(paths).toEqual(expect.arrayContaining(["space/Moved.md", "space/Moved twice.md"]));
    expect(after).toEqual(await rebuilt(await markdownFiles(app)));
  });

  it("whatever events come at whatever point of the sync, the index ends as a fresh build of the final vault (property)", async () => {
    const NAMES = ["notes/A.md", "notes/B.md", "notes/C.md", "other/A.md", "other/D.md", "private/B.md", "E.md"];
    const aName = fc.constantFrom(...NAMES);
    const aText = fc.tuple(fc.constantFrom("lighthouse keeper", "coast guard", "keeper of bees"), fc.constantFrom("A", "B", "C", "D", "E")).map(([words, link]) => noteText(words, link));
    const anEvent: fc.Arbitrary<VaultEvent> = fc.oneof(
      fc.record({ kind: fc.constant("write" as const), path: aName, text: aText }),
      fc.record({ kind: fc.constant("delete" as const), path: aName }),
      fc.record({ kind: fc.constant("rename" as const), path: aName, to: aName }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(aName, aText, { minKeys: 1 }),
        fc.boolean(),
        // From the first call (while a warm start loads its shards), or from the sync's first progress line.
        fc.boolean(),
        // Events in groups: group k runs at the worker's k-th call; what is left runs once the index is open.
        fc.array(fc.array(anEvent, { maxLength: 3 }), { maxLength: 8 }),
        async (initial, warm, fromSync, groups) => {
          const { after, rebuiltFromFinal } = await eventsDuringSync(initial, warm, fromSync, groups);
          expect(after).toEqual(rebuiltFromFinal);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("keeps no link of a version the sync paired with a note read ahead, once the note is written back to the text read (seed 1218070114)", async () => {
    // The sync read notes/C.md ahead of indexing it; C was then rewritten to link to E, and back
    // again. The sync indexed the text it had read with the links of the rewrite (the metadata
    // cache of that moment), and the update after it found the text unchanged.
    const initial = {
      "notes/B.md": noteText("lighthouse keeper", "A"),
      "notes/A.md": noteText("lighthouse keeper", "A"),
      "notes/C.md": noteText("coast guard", "A"),
      "E.md": noteText("lighthouse keeper", "A"),
    };
    const groups: VaultEvent[][] = [[], [], [{ kind: "write", path: "notes/C.md", text: noteText("lighthouse keeper", "E") }], [{ kind: "write", path: "notes/C.md", text: noteText("coast guard", "A") }]];
    const { after, rebuiltFromFinal } = await eventsDuringSync(initial, false, true, groups);
    expect(after).toEqual(rebuiltFromFinal);
  });
});

function noteText(words: string, link: string): string {
  return `# Title\n\nThe ${words}. See [[${link}]].\n`;
}

/**
 * Opens the index over `initial` (warm: from a previous session's shards) while the groups of
 * events run at its worker's calls (from the first, or from the sync's first progress line), the groups
 * it did not reach once it is open; then what it holds, and what a fresh build of the final vault holds.
 */
async function eventsDuringSync(initial: Record<string, string>, warm: boolean, fromSync: boolean, groups: readonly (readonly VaultEvent[])[]) {
  const app = vaultApp(initial);
  const store = new MemoryStateStore();
  if (warm) await previousSession(app, store);
  const gate = syncGate();
  const script = scriptedCalls(
    groups.map((group) => async () => {
      for (const event of group) await apply(app, event);
    }),
    fromSync ? gate.open : undefined,
  );
  const svc = service(app, store, script.onCall, gate.status);
  svc.start();
  await readyIndex(svc);
  // Groups the sync did not reach (its worker calls once or twice per note) run against the open index.
  for (const step of script.rest()) await step();
  const after = await settled(svc, store);
  await svc.dispose();
  return { after, rebuiltFromFinal: await rebuilt(await markdownFiles(app)) };
}
