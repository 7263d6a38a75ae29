/**
 * A sync of part of the vault (`only`: folders and notes) brings that part up to date, indexes the
 * notes that appeared and drops those that vanished anywhere (the vault is listed whole, names
 * only), and takes every other note the index holds as it was, unchecked; a full sync afterwards
 * gives what a rebuild gives. Property-based over random edits of wiki pages, user notes and an
 * excluded folder, with the vault's stat, read and list calls counted.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { syncIndex } from "../../src/retrieval/sync";
import { VaultIndex } from "../../src/retrieval/vault-index";
import { readFrontmatter } from "../../src/retrieval/chunker";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import type { VaultPort } from "../../src/vault/vault-port";

const PATHS = ["wiki/a.md", "wiki/sub/b.md", "wiki/c.md", "notes/d.md", "notes/e.md", "f.md", "private/g.md", "wikipedia/h.md"];
const WORDS = ["alpha", "beta", "gamma", "delta", "epsilon"];
const INGESTED = "notes/d.md";

const edit = fc.oneof(
  fc.record({ kind: fc.constant("write" as const), path: fc.constantFrom(...PATHS), words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 6 }) }),
  fc.record({ kind: fc.constant("remove" as const), path: fc.constantFrom(...PATHS) }),
);

/**
 * A VaultPort that records which paths were statted or read and which folders listed; `batched`,
 * one that stats many notes in one call, as the Node vault does (a sync then checks in batches).
 */
function counting(vault: MemoryVault, batched = false) {
  const touched: string[] = [];
  const listed: string[] = [];
  const port: VaultPort = Object.create(vault) as VaultPort;
  Object.assign(port, {
    stat: (p: string) => (touched.push(p), vault.stat(p)),
    read: (p: string) => (touched.push(p), vault.read(p)),
    list: (f: string) => (listed.push(f), vault.list(f)),
    ...(batched ? { statMany: (paths: readonly string[]) => (touched.push(...paths), Promise.all(paths.map((p) => vault.stat(p)))) } : {}),
  });
  return { port, touched, listed };
}

async function write(vault: MemoryVault, path: string, text: string) {
  if ((await vault.stat(path)) === null) await vault.create(path, text);
  else await vault.process(path, () => text);
}

const stateOf = (index: VaultIndex) => Object.fromEntries(index.paths().map((p) => [p, index.stateOf(p)?.hash]));
const open = (store = new MemoryStateStore(), vault: MemoryVault) => VaultIndex.open({ frontmatter: readFrontmatter, store, reader: vault, wikiFolder: "wiki", excludedFolders: ["private"] });

describe("a partial sync", () => {
  it.each([
    ["one stat per note", false],
    ["stats in batches", true],
  ])("brings the wiki, the named note and the set of notes up to date, checks no other note, and a full sync then equals a rebuild (%s)", async (_, batched) => {
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { maxLength: 12 }), fc.array(edit, { maxLength: 12 }), async (before, after) => {
        const vault = new MemoryVault();
        for (const e of before) if (e.kind === "write") await write(vault, e.path, e.words.join(" "));
        const index = await open(undefined, vault);
        await syncIndex(index, vault, { flush: false });
        const old = stateOf(index);
        for (const e of after) {
          if (e.kind === "write") await write(vault, e.path, e.words.join(" "));
          else await vault.remove(e.path);
        }

        const { port, touched, listed } = counting(vault, batched);
        await syncIndex(index, port, { flush: false, only: { folders: ["wiki"], notes: [INGESTED] } });
        const fresh = await open(undefined, vault);
        await syncIndex(fresh, vault, { flush: false });
        const now = stateOf(index);
        const rebuilt = stateOf(fresh);
        const synced = (p: string) => p.startsWith("wiki/") || p === INGESTED;
        // Outside the part, a note the index held and the vault still has is taken as it was.
        const keptAsItWas = (p: string) => !synced(p) && old[p] !== undefined && rebuilt[p] !== undefined;
        for (const p of PATHS) expect(now[p], p).toEqual(keptAsItWas(p) ? old[p] : rebuilt[p]);
        expect(Object.keys(now).sort()).toEqual(Object.keys(rebuilt).sort());
        expect(index.wikiSize).toBe(fresh.wikiSize);
        // Only the part and the notes the index had never seen were statted or read.
        expect(touched.filter((p) => !synced(p) && old[p] !== undefined)).toEqual([]);
        expect(listed).toEqual([""]);
        for (const p of PATHS) expect(index.pathsNamed(p.slice(p.lastIndexOf("/") + 1, -3)), p).toEqual(fresh.pathsNamed(p.slice(p.lastIndexOf("/") + 1, -3)));
        // Only the part's new words are found; a note outside it is found by what the index had.
        for (const word of WORDS) {
          const wikiHits = index.searchText(word, { scope: { kind: "wiki" }, limit: 10 }).map((h) => h.path);
          expect(new Set(wikiHits)).toEqual(new Set(fresh.searchText(word, { scope: { kind: "wiki" }, limit: 10 }).map((h) => h.path)));
        }

        await syncIndex(index, batched ? counting(vault, true).port : vault, { flush: false });
        expect(stateOf(index)).toEqual(rebuilt);
      }),
      { numRuns: 60 },
    );
  });

  it("on an index never built reads every note, and is a full sync when one of its folders is the whole vault", async () => {
    const vault = new MemoryVault({ "wiki/a.md": "alpha", "notes/b.md": "beta" });
    const first = await open(undefined, vault);
    await syncIndex(first, vault, { flush: false, only: { folders: ["wiki"], notes: [] } });
    expect(first.paths()).toEqual(["notes/b.md", "wiki/a.md"]);
    await vault.process("notes/b.md", () => "gamma");
    const { port, touched } = counting(vault);
    const result = await syncIndex(first, port, { flush: false, only: { folders: ["wiki", ""] } });
    expect(touched).toContain("notes/b.md");
    expect(result).toMatchObject({ total: 2, indexed: 1 });
    expect(first.searchText("gamma", { scope: { kind: "all" }, limit: 5 }).map((h) => h.path)).toEqual(["notes/b.md"]);
  });
});
