/** The registry of ingested notes: fingerprints, up-to-date checks, moves, and a damaged file. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { SOURCES_KEY, SourceRegistry, noteFingerprint } from "../../src/wiki/source-registry";
import { notesShardKey } from "../../src/write/source-registry-shards";
import { recordSource } from "../helpers/record-source";

const entry = (hash: string, pages: string[] = ["wiki/a.md"]) => ({ hash, ingestedAt: "2026-11-30T10:00:00.000Z", wikiFolder: "wiki", pages });
const existing = (...paths: string[]) => (path: string) => Promise.resolve(paths.includes(path));

describe("the source registry", () => {
  it("fingerprints text with SHA-256, reading CRLF as LF, and tells any other change apart", async () => {
    expect(await noteFingerprint("abc")).toBe("sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(await noteFingerprint("a\r\nb")).toBe(await noteFingerprint("a\nb"));
    await fc.assert(
      fc.asyncProperty(fc.string(), fc.string(), async (a, b) => {
        fc.pre(a.replace(/\r\n/g, "\n") !== b.replace(/\r\n/g, "\n"));
        expect(await noteFingerprint(a)).not.toBe(await noteFingerprint(b));
      }),
      { numRuns: 50 },
    );
  });

  it("finds a note up to date only with the same hash, the same wiki folder and all its pages present", async () => {
    const store = new MemoryStateStore();
    const registry = new SourceRegistry(store);
    await recordSource(store, "notes/a.md", entry("h1"));
    expect(await registry.upToDate("notes/a.md", "h1", "wiki", existing("wiki/a.md"))).toMatchObject({ movedFrom: null });
    expect(await registry.upToDate("notes/a.md", "h2", "wiki", existing("wiki/a.md"))).toBeNull();
    expect(await registry.upToDate("notes/a.md", "h1", "other", existing("wiki/a.md"))).toBeNull();
    expect(await registry.upToDate("notes/a.md", "h1", "wiki", existing())).toBeNull();
  });

  it("matches a decomposed (NFD) path to the composed one", async () => {
    const store = new MemoryStateStore();
    const registry = new SourceRegistry(store);
    await recordSource(store, "notes/Privé.md", entry("h1"));
    expect(await registry.upToDate("notes/Prive\u0301.md", "h1", "wiki", existing("wiki/a.md"))).toMatchObject({ movedFrom: null });
  });

  it("recognises a moved note by its hash when the old path is gone, and moves the entry", async () => {
    const store = new MemoryStateStore();
    const registry = new SourceRegistry(store);
    await recordSource(store, "notes/a.md", entry("h1"));
    expect(await registry.upToDate("archive/a.md", "h1", "wiki", existing("wiki/a.md", "notes/a.md"))).toBeNull();
    const moved = await registry.upToDate("archive/a.md", "h1", "wiki", existing("wiki/a.md"));
    expect(moved).toMatchObject({ movedFrom: "notes/a.md" });
    await recordSource(store, "archive/a.md", moved!.entry, moved!.movedFrom);
    expect(Object.keys((await registry.load()).notes)).toEqual(["archive/a.md"]);
  });

  it("reads a damaged or foreign file or shard as empty, and records in turn keep every entry", async () => {
    const store = new MemoryStateStore();
    await store.write(SOURCES_KEY, "{ not json");
    expect(await new SourceRegistry(store).entry("notes/a.md")).toBeNull();
    await store.write(SOURCES_KEY, JSON.stringify({ version: 9, notes: [] }));
    expect((await new SourceRegistry(store).load()).notes).toEqual({});
    await recordSource(store, "notes/a.md", entry("h1"));
    await recordSource(store, "notes/b.md", entry("h2"));
    expect(Object.keys((await new SourceRegistry(store).load()).notes).sort()).toEqual(["notes/a.md", "notes/b.md"]);
    await store.write(notesShardKey("notes/a.md"), "{ half a shard");
    expect(await new SourceRegistry(store).entry("notes/a.md")).toBeNull();
  });
});
