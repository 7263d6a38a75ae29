import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { VaultIndex } from "../../src/retrieval/vault-index";
import { aVault, indexed, openIndex, rename } from "./index-builder";
import { traverse } from "../../src/retrieval/graph-traverse";

const WORDS = ["alpha", "beta", "gamma", "delta", "café", "naïve", "링크", "ノート", "заметка", "ملاحظة"];
const PATHS = ["a.md", "b.md", "wiki/c.md", "wiki/d.md", "x/e.md", "f.md"];
const QUERIES = ["alpha", "beta gamma", "cafe", "naive delta", "ノート", "заметка", "ملاحظة", "c"];

const note = fc
  .record({
    title: fc.option(fc.constantFrom(...WORDS), { nil: undefined }),
    sections: fc.array(fc.record({ heading: fc.constantFrom("", ...WORDS), words: fc.array(fc.constantFrom(...WORDS), { maxLength: 12 }) }), { maxLength: 4 }),
    link: fc.option(fc.constantFrom("a", "b", "c", "d", "e"), { nil: undefined }),
  })
  .map(({ title, sections, link }) => {
    const fm = title ? `---\ntitle: ${title}\n---\n` : "";
    const body = sections.map((s) => `${s.heading ? `## ${s.heading}\n` : ""}${s.words.join(" ")}\n`).join("\n");
    return `${fm}${body}${link ? `\nSee [[${link}]].` : ""}`;
  });

const edit = fc.oneof(
  fc.record({ kind: fc.constant("upsert" as const), path: fc.constantFrom(...PATHS), text: note }),
  fc.record({ kind: fc.constant("remove" as const), path: fc.constantFrom(...PATHS) }),
  fc.record({ kind: fc.constant("rename" as const), path: fc.constantFrom(...PATHS), to: fc.constantFrom(...PATHS) }),
  // Searched between edits: the answers then come from segments' bases and deltas, not merged ones.
  fc.record({ kind: fc.constant("check" as const) }),
  // With `interleave`, the edits after a flush run while it awaits its writes (as the worker awaits the main thread's).
  fc.record({ kind: fc.constant("flush" as const), interleave: fc.boolean() }),
);

async function answers(index: VaultIndex) {
  const out: Record<string, unknown> = {};
  for (const q of QUERIES) {
    out[`text:${q}`] = index.searchText(q, { scope: { kind: "all" }, limit: 20 }).map((h) => [h.path, h.heading, h.ordinal, h.score.toFixed(9)]);
    out[`fused:${q}`] = (await index.retrieve(q, { scope: { kind: "all" }, limit: 20 })).map((h) => [h.path, h.heading, h.score.toFixed(9)]);
  }
  for (const p of index.paths()) out[`graph:${p}`] = traverse(index.graph, p, 2);
  return out;
}

describe("incremental updates", () => {
  it("give the same answers as a rebuild, between and after any sequence of edits, and after a restart", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { maxLength: 25 }), async (edits) => {
        const vault = aVault();
        const live = await openIndex(vault);
        // Runs before each shard a flush writes, while the flush awaits the write.
        let duringWrite: (() => Promise<void>) | null = null;
        const write = vault.store.write.bind(vault.store);
        vault.store.write = async (key, content) => {
          await duringWrite?.();
          await write(key, content);
        };
        let t = 1;
        const rebuiltAnswers = async () => answers(await indexed(aVault(Object.fromEntries(vault.files))));
        let next = 0;
        const apply = async (e: (typeof edits)[number]): Promise<void> => {
          if (e.kind === "check") expect(await answers(live)).toEqual(await rebuiltAnswers());
          else if (e.kind === "flush") {
            // While a write is awaited, the next edits (not another flush) go in.
            duringWrite = async () => {
              const e2 = edits[next];
              if (!e.interleave || !e2 || e2.kind === "flush") return;
              next += 1;
              await apply(e2);
            };
            try {
              await live.flush();
            } finally {
              duringWrite = null;
            }
          } else if (e.kind === "upsert") {
            vault.files.set(e.path, e.text);
            live.upsert(e.path, e.text, { mtime: t++, size: e.text.length });
          } else if (e.kind === "remove") {
            vault.files.delete(e.path);
            live.remove(e.path);
          } else if (vault.files.has(e.path) && !vault.files.has(e.to)) {
            vault.files.set(e.to, vault.files.get(e.path) ?? "");
            vault.files.delete(e.path);
            await rename(live, e.path, e.to, vault.files.get(e.to) ?? "", { mtime: t++, size: (vault.files.get(e.to) ?? "").length });
          }
        };
        while (next < edits.length) await apply(edits[next++] as (typeof edits)[number]);
        const expected = await rebuiltAnswers();
        expect(await answers(live)).toEqual(expected);
        await live.flush();
        expect(await answers(live)).toEqual(expected);
        expect(live.paths()).toEqual([...vault.files.keys()].sort());
        const restarted = await openIndex(vault);
        expect(await answers(restarted)).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  });

  it("re-indexes nothing when only the modification time changed", async () => {
    const vault = aVault({ "a.md": "alpha beta" });
    const index = await indexed(vault);
    expect(index.upsert("a.md", "alpha beta", { mtime: 99, size: 10 })).toBe(false);
    expect(index.stateOf("a.md")?.mtime).toBe(99);
    expect(index.upsert("a.md", "alpha gamma", { mtime: 100, size: 11 })).toBe(true);
  });
});

describe("a renamed note", () => {
  it("is found by its new name, as after a rebuild (the counterexample fast-check found)", async () => {
    const vault = aVault({ "x/e.md": "" });
    const live = await openIndex(vault);
    live.upsert("x/e.md", "", { mtime: 1, size: 0 });
    vault.files.set("wiki/c.md", "");
    vault.files.delete("x/e.md");
    await rename(live, "x/e.md", "wiki/c.md", "", { mtime: 2, size: 0 });
    const hits = await live.retrieve("c", { scope: { kind: "all" }, limit: 5 });
    expect(hits.map((h) => h.path)).toEqual(["wiki/c.md"]);
  });

  it("is indexed when it moves out of an excluded folder, and dropped when it moves in", async () => {
    const vault = aVault({ "private/a.md": "alpha beta" });
    const live = await indexed(vault, { excludedFolders: ["private"] });
    expect(live.paths()).toEqual([]);
    const move = (from: string, to: string) => {
      vault.files.set(to, vault.files.get(from) ?? "");
      vault.files.delete(from);
    };
    move("private/a.md", "notes/a.md");
    await rename(live, "private/a.md", "notes/a.md", "alpha beta", { mtime: 2, size: 10 });
    expect(live.paths()).toEqual(["notes/a.md"]);
    expect((await live.retrieve("alpha", { scope: { kind: "all" }, limit: 5 })).map((h) => h.path)).toEqual(["notes/a.md"]);
    move("notes/a.md", "private/b.md");
    await rename(live, "notes/a.md", "private/b.md", "alpha beta", { mtime: 3, size: 10 });
    expect(live.paths()).toEqual([]);
  });
});
