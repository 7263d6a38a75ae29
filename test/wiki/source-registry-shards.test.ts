/**
 * The registry of ingested notes in shards: an ingest touches a few small files however many notes
 * are recorded, a whole `sources.json` of an earlier version is split once without losing an entry,
 * and every write is part of a run (locked, journaled, undone, rolled back).
 */
import { describe, expect, it } from "vitest";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import { applyPlan, type WriteContext } from "../../src/write/apply";
import { JOURNAL_KEY } from "../../src/write/journal";
import { recoverInterruptedRun } from "../../src/write/recover";
import { readHistory } from "../../src/write/run-history";
import { SOURCES_KEY, SourceRegistry, noteFingerprint, type RecordedEntry } from "../../src/wiki/source-registry";
import { migrateWholeRegistry, notesShardKey } from "../../src/write/source-registry-shards";
import { undoLastRun } from "../../src/write/undo";
import { recordSource } from "../helpers/record-source";

const entry = (hash: string, pages: string[] = ["wiki/a.md"]): RecordedEntry => ({ hash, ingestedAt: "2026-11-30T10:00:00.000Z", wikiFolder: "wiki", pages, runId: null });
const existing = (...paths: string[]) => (path: string) => Promise.resolve(paths.includes(path));
const writer = (pid: number) => ({ kind: "cli" as const, pid, host: "here" });

/** A store that counts what is read and written, and how much. */
class CountingStore extends MemoryStateStore {
  reads: string[] = [];
  writes: { key: string; size: number }[] = [];
  override read(key: string): Promise<string | null> {
    this.reads.push(key);
    return super.read(key);
  }
  override write(key: string, content: string | Uint8Array): Promise<void> {
    this.writes.push({ key, size: content.length });
    return super.write(key, content);
  }
}

/** `count` note paths whose entries share one notes shard. */
function pathsInOneShard(count: number): string[] {
  const byShard = new Map<string, string[]>();
  for (let i = 0; ; i++) {
    const path = `notes/n${i}.md`;
    const same = [...(byShard.get(notesShardKey(path)) ?? []), path];
    if (same.length === count) return same;
    byShard.set(notesShardKey(path), same);
  }
}

async function wholeRegistry(count: number): Promise<Record<string, RecordedEntry>> {
  const notes: Record<string, RecordedEntry> = {};
  for (let i = 0; i < count; i++) notes[`notes/n${i}.md`] = entry(await noteFingerprint(`note ${i}`), [`wiki/p${i}.md`]);
  return notes;
}

describe("the source registry in shards", () => {
  it("splits a whole sources.json of an earlier version at the next start, keeping every entry, moves found by content", async () => {
    const store = new MemoryStateStore();
    const notes = await wholeRegistry(300);
    await store.write(SOURCES_KEY, JSON.stringify({ version: 1, notes }));
    // Before the split, readers see the whole file.
    expect(await new SourceRegistry(store).entry("notes/n7.md")).toEqual(notes["notes/n7.md"]);

    const report = await recoverInterruptedRun(new MemoryVault(), { store, writer: writer(1), wikiFolder: "wiki" });
    expect(report.status).toBe("done");
    expect(await store.read(SOURCES_KEY)).toBeNull();
    const registry = new SourceRegistry(store);
    expect((await registry.load()).notes).toEqual(notes);
    expect(await registry.entry("notes/n7.md")).toEqual(notes["notes/n7.md"]);
    expect(await registry.upToDate("archive/n7.md", await noteFingerprint("note 7"), "wiki", existing("wiki/p7.md"))).toMatchObject({ movedFrom: "notes/n7.md" });
    expect(Math.max(...[...store.entries.values()].map((v) => v.length))).toBeLessThan(5_000);
  });

  it("a split interrupted part-way is done again whole, and an entry recorded since wins over the old file's", async () => {
    const notes = await wholeRegistry(200);
    const store = new MemoryStateStore();
    await store.write(SOURCES_KEY, JSON.stringify({ version: 1, notes }));
    const newer = entry("sha256:ffff", ["wiki/newer.md"]);
    await store.write(notesShardKey("notes/n3.md"), JSON.stringify({ version: 1, notes: { "notes/n3.md": newer } }));
    // The process dies after a few shards were written.
    let writes = 0;
    const dying = Object.assign(Object.create(store) as MemoryStateStore, {
      write: (key: string, content: string | Uint8Array) => (++writes > 20 ? Promise.reject(new Error("killed")) : store.write(key, content)),
    });
    await expect(migrateWholeRegistry(dying)).rejects.toThrow("killed");
    expect(await store.read(SOURCES_KEY)).not.toBeNull();
    expect(await new SourceRegistry(store).entry("notes/n150.md")).toEqual(notes["notes/n150.md"]);

    expect(await migrateWholeRegistry(store)).toBe(200);
    expect(await store.read(SOURCES_KEY)).toBeNull();
    expect((await new SourceRegistry(store).load()).notes).toEqual({ ...notes, "notes/n3.md": newer });
  });

  it("an ingest's look-ups and record read and write a few small shards, however many notes are recorded", async () => {
    const store = new CountingStore();
    const notes: Record<string, RecordedEntry> = {};
    for (let i = 0; i < 5_000; i++) notes[`notes/n${i}.md`] = entry(await noteFingerprint(`note ${i}`), [`wiki/sources/p${i}.md`, `wiki/concepts/c${i}.md`]);
    await store.write(SOURCES_KEY, JSON.stringify({ version: 1, notes }));
    await migrateWholeRegistry(store);
    store.reads = [];
    store.writes = [];

    const registry = new SourceRegistry(store);
    const hash = await noteFingerprint("a new note");
    expect(await registry.upToDate("notes/new.md", hash, "wiki", existing())).toBeNull();
    expect(await registry.entry("notes/new.md")).toBeNull();
    const state = await registry.recordChange("notes/new.md", entry(hash, ["wiki/sources/new.md"]));
    const registryReads = store.reads.filter((k) => k.startsWith("sources"));
    expect(registryReads.length).toBeLessThanOrEqual(6);
    await applyPlan(new MemoryVault(), [], { store, writer: writer(1), operation: "ingest", label: "new", wikiFolder: "wiki", state });
    const shardWrites = store.writes.filter((w) => w.key.startsWith("sources/"));
    expect(shardWrites.map((w) => w.key).sort()).toEqual(state.map((s) => s.key).sort());
    for (const { size } of shardWrites) expect(size).toBeLessThan(20_000);
    expect(await new SourceRegistry(store).upToDate("notes/new.md", hash, "wiki", existing("wiki/sources/new.md"))).toMatchObject({ movedFrom: null });
  });

  it("forgets the old hash of a note ingested again with new text, so a later note with the old text is not taken for a move", async () => {
    const store = new MemoryStateStore();
    await recordSource(store, "notes/a.md", entry("sha256:aa11"));
    await recordSource(store, "notes/a.md", entry("sha256:bb22"));
    const registry = new SourceRegistry(store);
    expect(await registry.upToDate("notes/b.md", "sha256:aa11", "wiki", existing("wiki/a.md"))).toBeNull();
    expect(await registry.upToDate("notes/a.md", "sha256:bb22", "wiki", existing("wiki/a.md"))).toMatchObject({ movedFrom: null });
    expect(JSON.stringify([...store.entries.values()])).not.toContain("aa11");
  });

  it("a hash index that lags behind its entries misleads nothing: the entry decides", async () => {
    const store = new MemoryStateStore();
    await recordSource(store, "notes/a.md", entry("sha256:aa11"));
    // The entry changed, its hash index did not: the index still names notes/a.md for aa11.
    await store.write(notesShardKey("notes/a.md"), JSON.stringify({ version: 1, notes: { "notes/a.md": entry("sha256:cc33") } }));
    expect(await new SourceRegistry(store).upToDate("notes/moved.md", "sha256:aa11", "wiki", existing("wiki/a.md"))).toBeNull();
  });

  it("a record with no page changed makes no run and no log entry, but takes the lock and leaves no journal", async () => {
    const store = new MemoryStateStore();
    const vault = new MemoryVault();
    const seen: (string | null)[] = [];
    const state = await new SourceRegistry(store).recordChange("notes/a.md", { ...entry("sha256:aa11"), runId: undefined });
    await applyPlan(vault, [], {
      store,
      writer: writer(1),
      operation: "ingest",
      label: "a",
      wikiFolder: "wiki",
      state,
      afterEachWrite: async () => void seen.push((await store.read("lock.json")) && (await store.read(JOURNAL_KEY))),
    });
    expect(seen.length).toBe(state.length);
    for (const journal of seen) expect(journal).toContain('"kind":"state"');
    expect(await store.read(JOURNAL_KEY)).toBeNull();
    expect((await readHistory(store)).runs).toEqual([]);
    expect(vault.snapshot()).toEqual({});
    expect(await new SourceRegistry(store).entry("notes/a.md")).toMatchObject({ hash: "sha256:aa11", runId: null });
  });

  it("killed while writing its shards alone, a record is rolled back whole at the next start", async () => {
    const store = new MemoryStateStore();
    await recordSource(store, "notes/old.md", entry("sha256:aa11"));
    const before = new Map(store.entries);
    const crash = new Error("crash");
    const state = await new SourceRegistry(store).recordChange("archive/old.md", entry("sha256:aa11"), "notes/old.md");
    let n = 0;
    await applyPlan(new MemoryVault(), [], {
      store,
      writer: writer(5),
      operation: "ingest",
      label: "old",
      wikiFolder: "wiki",
      state,
      afterEachWrite: () => (++n === 2 ? Promise.reject(crash) : Promise.resolve()),
    }).catch((e: unknown) => {
      if (e !== crash) throw e;
    });
    expect(await store.read(JOURNAL_KEY)).not.toBeNull();
    await store.remove("lock.json");
    await recoverInterruptedRun(new MemoryVault(), { store, writer: writer(6), wikiFolder: "wiki" });
    expect(store.entries).toEqual(before);
  });

  it("undo takes back only the undone run's entries from a shard another writer has written since", async () => {
    const [mine, theirs] = pathsInOneShard(2) as [string, string];
    const vault = new MemoryVault({ [mine]: "mine" });
    const store = new MemoryStateStore();
    const write: WriteContext = { store, writer: writer(1) };
    const state = await new SourceRegistry(store).recordChange(mine, { ...entry("sha256:aa11", ["wiki/concepts/Mine.md"]), runId: undefined });
    const run = await applyPlan(vault, [{ path: "wiki/concepts/Mine.md", type: "concept", title: "Mine", action: "created", create: "mine" }], { ...write, operation: "ingest", label: "Mine", wikiFolder: "wiki", state });
    expect(await new SourceRegistry(store).entry(mine)).toMatchObject({ runId: run.runId });
    // Another note recorded since in the same shard, with no run of its own (e.g. found moved).
    await recordSource(store, theirs, entry("sha256:bb22"));

    await undoLastRun(vault, write, { wikiFolder: "wiki" });
    const registry = new SourceRegistry(store);
    expect(await registry.entry(mine)).toBeNull();
    expect(await registry.entry(theirs)).toMatchObject({ hash: "sha256:bb22" });
    expect(await registry.upToDate("notes/elsewhere.md", "sha256:aa11", "wiki", existing("wiki/concepts/Mine.md"))).toBeNull();
    expect(await registry.upToDate("notes/elsewhere.md", "sha256:bb22", "wiki", existing("wiki/a.md"))).toMatchObject({ movedFrom: theirs });
  });

  it("two writers recording at once both land: the second waits for the first's lock", async () => {
    const store = new MemoryStateStore();
    const paths = pathsInOneShard(6);
    await Promise.all(paths.map((path, i) => recordSource(store, path, entry(`sha256:${i}${i}`), null, { lock: { waitMs: 60_000 } })));
    expect(Object.keys((await new SourceRegistry(store).load()).notes).sort()).toEqual([...paths].sort());
  });
});
