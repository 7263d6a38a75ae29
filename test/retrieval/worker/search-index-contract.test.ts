/**
 * The SearchIndex contract, run over the index in process and over the index in a worker (the
 * host behind a MessageChannel, the RemoteIndex in front): the same changes give the same
 * outcomes, results, counts, catalogue answers and shards, whichever side of a port the index is.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Embedder, SearchIndex, VaultChange } from "../../../src/retrieval";
import { MemoryStateStore } from "../../../src/vault/memory-state-store";
import { MemoryVault } from "../../../src/vault/memory-vault";
import { inProcess, inWorker, OPENERS, type Opener } from "./harness";

const NOTES = {
  "alpha.md": "# Alpha\n\nThe alpha note talks about gardens and [[Beta]].\n",
  "beta.md": "# Beta\n\nBeta is about rivers. #water\n",
  "wiki/Gamma.md": "---\ntitle: Gamma\n---\n# Gamma\n\nGamma pages cite gardens and rivers.\n",
  "wiki/index.md": "# Index\n\n- [[Gamma]]\n",
  "private/secret.md": "# Secret\n\nGardens nobody may see.\n",
};

const base = (store = new MemoryStateStore(), vault = new MemoryVault(NOTES)) => ({ store, reader: vault, wikiFolder: "wiki", excludedFolders: ["private"] });

async function synced(open: Opener, vault = new MemoryVault(NOTES), store = new MemoryStateStore()): Promise<SearchIndex> {
  const index = await open(base(store, vault));
  await index.sync(vault, { embed: false });
  return index;
}

const hits = async (index: SearchIndex, query: string) => (await index.retrieve(query, { scope: { kind: "all" }, limit: 10 })).map((h) => [h.path, h.heading, h.score.toFixed(9), h.snippet]);

/** An embedder whose vectors count a few words; `failing` makes it throw until set back. */
function wordEmbedder() {
  const state = { failing: false, calls: 0 };
  const embedder: Embedder = {
    modelId: "test:words",
    async embed(texts) {
      state.calls += 1;
      if (state.failing) throw new Error("connection refused");
      return texts.map((t) => Float32Array.from(["garden", "river", "secret", "alpha"].map((w) => (t.toLowerCase().includes(w) ? 1 : 0.01))));
    },
  };
  return { embedder, state };
}

describe.each(OPENERS)("the search index %s", (_name, open) => {
  it("syncs with progress, answers, and a second sync re-reads nothing", async () => {
    const progress: number[] = [];
    const vault = new MemoryVault(NOTES);
    const index = await open(base(undefined, vault));
    const first = await index.sync(vault, { embed: false, batchSize: 1, progress: (p) => progress.push(p.done) });
    // index.md is the wiki's bookkeeping, private/ excluded: three notes to index.
    expect(first).toMatchObject({ total: 3, indexed: 3, removed: 0 });
    expect(progress.at(-1)).toBe(3);
    expect((await hits(index, "gardens")).map((h) => h[0]).sort()).toEqual(["alpha.md", "beta.md", "wiki/Gamma.md"]);
    expect((await index.sync(vault, { embed: false })).indexed).toBe(0);
    expect(index.stats()).toMatchObject({ notes: 3, rejectedShards: 0, vectors: null });
  });

  it("applies changes in order, with an outcome each, and skips a note no longer current", async () => {
    // The reader knows the notes the changes bring; the sync sees the vault before them.
    const index = await open(base(undefined, new MemoryVault({ ...NOTES, "new.md": "# New\n\nOrchards.", "moved/alpha.md": NOTES["alpha.md"] })));
    await index.sync(new MemoryVault(NOTES), { embed: false });
    const { outcomes } = await index.apply([
      { kind: "upsert", path: "new.md", text: "# New\n\nOrchards.", stat: { mtime: 9, size: 14 } },
      { kind: "delete", path: "beta.md" },
      { kind: "delete", path: "never.md" },
      { kind: "rename", from: "alpha.md", to: "moved/alpha.md", text: NOTES["alpha.md"] },
    ]);
    expect(outcomes).toEqual(["changed", "changed", "unchanged", "changed"]);
    expect((await hits(index, "orchards")).map((h) => h[0])).toEqual(["new.md"]);
    expect(await hits(index, "rivers")).toHaveLength(1);
    const asked: string[] = [];
    const skipped = await index.apply([{ kind: "upsert", path: "later.md", text: "Lemons.", stat: { mtime: 1, size: 7 } }], { stillCurrent: (path) => (asked.push(path), false) });
    expect(skipped.outcomes).toEqual(["skipped"]);
    expect(asked).toEqual(["later.md"]);
    expect(await hits(index, "lemons")).toEqual([]);
  });

  it("takes the host's links with the notes a sync reads", async () => {
    const vault = new MemoryVault({ "n.md": "# Note\n\nSee [[Written]].\n", "Known.md": "# Known\n" });
    const index = await open({ ...base(undefined, vault), knownLinks: (path) => (path === "n.md" ? { links: ["Known"], embeds: [], tags: [] } : null) });
    await index.sync(vault, { embed: false, flush: false });
    // The graph step lends the linked note a share of n.md's score: the link came from the host.
    expect((await hits(index, "see")).map((h) => h[0])).toEqual(["n.md", "Known.md"]);
  });

  it("answers an ingest's catalogue: pages, names, links, and a refresh", async () => {
    const vault = new MemoryVault(NOTES);
    const index = await synced(open, vault);
    const catalog = index.catalog(vault);
    expect(catalog.pageCount()).toBe(1);
    expect(catalog.pathsNamed("gamma")).toEqual(["wiki/Gamma.md"]);
    expect(catalog.linkExists?.("Secret")).toBe(true);
    expect(catalog.linkExists?.("Nowhere")).toBe(false);
    await vault.create("wiki/Delta.md", "# Delta\n\nDeltas of rivers.\n");
    await catalog.refresh(["wiki/Delta.md", "beta.md"]);
    await vault.remove("wiki/Delta.md");
    expect(catalog.pageCount()).toBe(2);
    expect(catalog.pathsNamed("Delta")).toEqual(["wiki/Delta.md"]);
    await catalog.refresh(["wiki/Delta.md"]);
    expect(catalog.pathsNamed("Delta")).toEqual([]);
    expect(catalog.pageCount()).toBe(1);
  });

  it("writes its shards to the store, and opens from them again without reading a note", async () => {
    const store = new MemoryStateStore();
    const vault = new MemoryVault({ ...NOTES, "new.md": "Orchards." });
    // The reader knows the note the change brings; the sync sees the vault before it.
    const index = await open(base(store, vault));
    await index.sync(new MemoryVault(NOTES), { embed: false });
    const keys = [...store.entries.keys()].filter((k) => k.startsWith("index/text-"));
    expect(keys.length).toBeGreaterThan(0);
    await index.apply([{ kind: "upsert", path: "new.md", text: "Orchards.", stat: { mtime: 9, size: 9 } }]);
    expect((await index.flush()).shardsWritten).toBe(1);
    await index.close();
    const reopened = await open(base(store, vault));
    expect(reopened.stats().notes).toBe(4);
    expect((await hits(reopened, "orchards")).map((h) => h[0])).toEqual(["new.md"]);
    expect((await hits(reopened, "gardens")).map((h) => h[0]).sort()).toEqual(["alpha.md", "beta.md", "wiki/Gamma.md"]);
  });

  it("stops a sync whose signal aborts, with the signal's reason", async () => {
    const vault = new MemoryVault(Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`n${i}.md`, `Note ${i}.`])));
    const index = await open(base(undefined, vault));
    const controller = new AbortController();
    const reason = new Error("Reopened.");
    const syncing = index.sync(vault, { embed: false, batchSize: 1, signal: controller.signal, progress: (p) => (p.done >= 2 ? controller.abort(reason) : undefined) });
    await expect(syncing).rejects.toBe(reason);
  });

  it("refuses a limit out of range as an input error", async () => {
    const index = await synced(open);
    await expect(index.retrieve("gardens", { scope: { kind: "all" }, limit: 0 })).rejects.toMatchObject({ kind: "input", message: expect.stringMatching(/limit/) });
  });

  it("embeds, answers from vectors, turns them off when the model fails and on when it answers", async () => {
    const { embedder, state } = wordEmbedder();
    const vault = new MemoryVault({ ...NOTES, "new.md": "# Garden\n\nA garden." });
    const index = await open({ ...base(undefined, vault), embedder });
    const sync = await index.sync(new MemoryVault(NOTES), {});
    expect(sync.embedded).toBeGreaterThan(0);
    expect(index.stats().vectors).toMatchObject({ notes: 3, error: null });
    const vectors = index.vectors;
    if (!vectors) throw new Error("vectors expected");
    const told: string[] = [];
    vectors.onFailure = (message) => told.push(message);
    state.failing = true;
    await index.apply([{ kind: "upsert", path: "new.md", text: "# Garden\n\nA garden.", stat: { mtime: 9, size: 9 } }]);
    const pass = await index.embedPending();
    expect(pass.error).toMatch(/connection refused/);
    expect(told).toEqual([pass.error]);
    expect(vectors.active).toBe(false);
    expect(await vectors.reconnect()).toBe(false);
    state.failing = false;
    expect(await vectors.reconnect()).toBe(true);
    expect(vectors.active).toBe(true);
    expect((await index.embedPending()).notes).toBe(1);
    expect(index.stats().vectors).toMatchObject({ notes: 4, error: null });
  });
});

// ——— the same answers either way, over any sequence of changes ———

const WORDS = ["alpha", "beta", "gamma", "café", "ノート"];
const PATHS = ["a.md", "b.md", "wiki/c.md", "private/d.md", "wiki/index.md"];
const text = fc
  .tuple(fc.array(fc.constantFrom(...WORDS), { maxLength: 8 }), fc.option(fc.constantFrom("a", "b", "c", "d"), { nil: undefined }))
  .map(([words, link]) => `# ${words[0] ?? "empty"}\n\n${words.join(" ")}${link ? `\nSee [[${link}]].` : ""}`);
const change = fc.oneof(
  fc.record({ kind: fc.constant("upsert" as const), path: fc.constantFrom(...PATHS), text }),
  fc.record({ kind: fc.constant("delete" as const), path: fc.constantFrom(...PATHS) }),
  fc.record({ kind: fc.constant("rename" as const), from: fc.constantFrom(...PATHS), to: fc.constantFrom(...PATHS) }),
);

async function observed(index: SearchIndex, vault: MemoryVault) {
  const catalog = index.catalog(vault);
  const out: Record<string, unknown> = { stats: index.stats(), pages: catalog.pageCount() };
  for (const q of ["alpha", "beta gamma", "cafe", "ノート", "see"]) out[q] = await hits(index, q);
  for (const name of ["a", "b", "c", "d", "index"]) out[`named:${name}`] = [catalog.pathsNamed(name), catalog.linkExists?.(name)];
  return out;
}

describe("the index in a worker", () => {
  it("answers as the index in process after any sequence of batches, syncs and flushes", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(fc.array(change, { minLength: 1, maxLength: 3 }), fc.constant("sync" as const)), { maxLength: 6 }), async (steps) => {
        const vault = new MemoryVault();
        const sides = await Promise.all([inProcess, inWorker].map(async (open) => {
          const store = new MemoryStateStore();
          return { store, index: await open(base(store, vault)) };
        }));
        let t = 1;
        for (const step of steps) {
          if (step === "sync") {
            const results = await Promise.all(sides.map((s) => s.index.sync(vault, { embed: false })));
            expect(results[1]).toEqual(results[0]);
            continue;
          }
          const changes: VaultChange[] = [];
          for (const c of step) {
            const stat = { mtime: t++, size: 1 };
            if (c.kind === "upsert") {
              await vault.remove(c.path).catch(() => undefined);
              await vault.create(c.path, c.text);
              changes.push({ kind: "upsert", path: c.path, text: c.text, stat });
            } else if (c.kind === "delete") {
              await vault.remove(c.path).catch(() => undefined);
              changes.push(c);
            } else if ((await vault.stat(c.from)) && !(await vault.stat(c.to))) {
              const moved = await vault.read(c.from);
              await vault.create(c.to, moved);
              await vault.remove(c.from);
              changes.push({ kind: "rename", from: c.from, to: c.to, text: moved, stat });
            }
          }
          const results = await Promise.all(sides.map((s) => s.index.apply(changes)));
          expect(results[1]).toEqual(results[0]);
        }
        const [here, there] = await Promise.all(sides.map((s) => observed(s.index, vault)));
        expect(there).toEqual(here);
        await Promise.all(sides.map((s) => s.index.flush()));
        const [mine, theirs] = sides.map((s) => new Map([...s.store.entries].filter(([k]) => k.startsWith("index/"))));
        expect(theirs).toEqual(mine);
        await Promise.all(sides.map((s) => s.index.close()));
      }),
      { numRuns: 25 },
    );
  });
});
