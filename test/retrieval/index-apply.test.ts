/**
 * `apply`, the one way vault changes reach the index (src/retrieval/index-apply.ts): any sequence
 * of batches answers like a rebuild; the links a change brings are the ones indexed; a preparation
 * overtaken by another edit is refused, and one no longer wanted is skipped.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { openIndex as openThroughDoor, type VaultChange } from "../../src/retrieval";
import { applyChanges } from "../../src/retrieval/index-apply";
import type { VaultIndex } from "../../src/retrieval/vault-index";
import { MemoryVault } from "../../src/vault/memory-vault";
import { aVault, indexed, openIndex } from "./index-builder";
import { traverse } from "../../src/retrieval/graph-traverse";

const WORDS = ["alpha", "beta", "gamma", "delta", "café", "ノート"];
const PATHS = ["a.md", "b.md", "wiki/c.md", "private/d.md", "e.md"];
const QUERIES = ["alpha", "beta gamma", "cafe", "ノート", "c"];

const text = fc
  .tuple(fc.array(fc.constantFrom(...WORDS), { maxLength: 10 }), fc.option(fc.constantFrom("a", "b", "c", "d"), { nil: undefined }))
  .map(([words, link]) => `# ${words[0] ?? "empty"}\n\n${words.join(" ")}${link ? `\nSee [[${link}]].` : ""}`);

const change = fc.oneof(
  fc.record({ kind: fc.constant("upsert" as const), path: fc.constantFrom(...PATHS), text }),
  fc.record({ kind: fc.constant("delete" as const), path: fc.constantFrom(...PATHS) }),
  fc.record({ kind: fc.constant("rename" as const), from: fc.constantFrom(...PATHS), to: fc.constantFrom(...PATHS) }),
);

async function answers(index: VaultIndex) {
  const out: Record<string, unknown> = {};
  for (const q of QUERIES) out[q] = (await index.retrieve(q, { scope: { kind: "all" }, limit: 20 })).map((h) => [h.path, h.heading, h.score.toFixed(9)]);
  for (const p of index.paths()) out[`graph:${p}`] = traverse(index.graph, p, 2);
  return out;
}

describe("apply", () => {
  it("answers like a rebuild after any sequence of batches of upserts, deletions and renames", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(change, { minLength: 1, maxLength: 4 }), { maxLength: 8 }), async (batches) => {
        const vault = aVault();
        const live = await openIndex(vault, { excludedFolders: ["private"] });
        let t = 1;
        for (const batch of batches) {
          const changes: VaultChange[] = [];
          for (const c of batch) {
            if (c.kind === "upsert") {
              vault.files.set(c.path, c.text);
              changes.push({ kind: "upsert", path: c.path, text: c.text, stat: { mtime: t++, size: c.text.length } });
            } else if (c.kind === "delete") {
              vault.files.delete(c.path);
              changes.push(c);
            } else if (vault.files.has(c.from) && !vault.files.has(c.to)) {
              const moved = vault.files.get(c.from) ?? "";
              vault.files.set(c.to, moved);
              vault.files.delete(c.from);
              changes.push({ kind: "rename", from: c.from, to: c.to, text: moved, stat: { mtime: t++, size: moved.length } });
            }
          }
          const { outcomes } = await live.apply(changes);
          expect(outcomes).toHaveLength(changes.length);
        }
        const rebuilt = await indexed(aVault(Object.fromEntries(vault.files)), { excludedFolders: ["private"] });
        expect(await answers(live)).toEqual(await answers(rebuilt));
        expect(live.paths()).toEqual([...vault.files.keys()].filter((p) => !p.startsWith("private/")).sort());
      }),
      { numRuns: 40 },
    );
  });

  it("indexes the links a change brings, the frontmatter's sources still from the markdown", async () => {
    const index = await openIndex(aVault());
    const markdown = '---\nsources:\n  - "[[Origin]]"\n---\n# Note\n\nSee [[Written]] #written\n';
    const links = { links: ["From cache"], embeds: ["Picture.png"], tags: ["cached"] };
    expect((await index.apply([{ kind: "upsert", path: "n.md", text: markdown, stat: { mtime: 1, size: 1 }, links }])).outcomes).toEqual(["changed"]);
    expect(index.graph.linksOf("n.md")).toEqual({ ...links, sources: ["Origin"] });
    // Without links, the index reads them from the markdown.
    await index.apply([{ kind: "upsert", path: "n.md", text: markdown, stat: { mtime: 2, size: 1 } }]);
    expect(index.graph.linksOf("n.md")?.links).toEqual(["Written"]);
  });

  it("takes a host's known links at open, during a sync, through the door", async () => {
    const vault = new MemoryVault({ "n.md": "# Note\n\nSee [[Written]].\n" });
    const index = await openThroughDoor({ store: aVault().store, reader: vault, wikiFolder: "wiki", excludedFolders: [], knownLinks: (path) => (path === "n.md" ? { links: ["Known"], embeds: [], tags: [] } : null) });
    await index.sync(vault, { embed: false, flush: false });
    expect((index as VaultIndex).graph.linksOf("n.md")?.links).toEqual(["Known"]);
  });

  it("skips a prepared note no longer current, and writes nothing of it", async () => {
    const index = await openIndex(aVault());
    const { outcomes } = await index.apply([{ kind: "upsert", path: "n.md", text: "alpha", stat: { mtime: 1, size: 5 } }], { stillCurrent: () => false });
    expect(outcomes).toEqual(["skipped"]);
    expect(index.stateOf("n.md")).toBeUndefined();
  });

  it("refuses a preparation overtaken by a deletion while it asked whether the note is still current", async () => {
    const index = await openIndex(aVault());
    const big = `# Big\n\n${"alpha beta gamma ".repeat(4096)}`;
    let deleted = false;
    // The worker's question goes to the main thread: other requests run while it is awaited.
    const { outcomes } = await applyChanges(index, [{ kind: "upsert", path: "big.md", text: big, stat: { mtime: 1, size: big.length } }], {
      stillCurrent: async () => {
        deleted = true;
        await index.apply([{ kind: "delete", path: "big.md" }]);
        return true;
      },
    });
    expect(deleted).toBe(true);
    expect(outcomes).toEqual(["stale"]);
    expect(index.stateOf("big.md")).toBeUndefined();
  });

  it("drops a deleted note before its promise settles, and says whether it held it", async () => {
    const index = await indexed(aVault({ "a.md": "alpha" }));
    const applying = index.apply([{ kind: "delete", path: "a.md" }, { kind: "delete", path: "never.md" }]);
    expect(index.stateOf("a.md")).toBeUndefined();
    expect((await applying).outcomes).toEqual(["changed", "unchanged"]);
  });

  it("keeps a renamed note's time and size when the rename brings none", async () => {
    const index = await openIndex(aVault());
    await index.apply([{ kind: "upsert", path: "a.md", text: "alpha", stat: { mtime: 7, size: 5 } }]);
    await index.apply([{ kind: "rename", from: "a.md", to: "b.md", text: "alpha" }]);
    expect(index.stateOf("a.md")).toBeUndefined();
    expect(index.stateOf("b.md")).toMatchObject({ mtime: 7, size: 5 });
  });
});
