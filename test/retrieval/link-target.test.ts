/**
 * Links into excluded folders: the note exists, so the link is not dangling, but the index never
 * names it — not as a graph neighbour, not in a traversal, not through graph expansion. Both with
 * the index's own resolver (the CLI) and with an outside one that sees every file (Obsidian's).
 */
import { describe, expect, it } from "vitest";
import { syncIndex } from "../../src/retrieval/sync";
import { VaultIndex } from "../../src/retrieval/vault-index";
import { readFrontmatter } from "../../src/retrieval/chunker";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import { traverse } from "../../src/retrieval/graph-traverse";

const FILES: Record<string, string> = {
  "notes/Lighthouse.md": "# Lighthouse\n\nThe lighthouse keeper wrote it all in [[Diary]], see also [[private/Diary]], [[Logbook]], ![[beam.png]] and [[Nowhere]].\n",
  "notes/Logbook.md": "# Logbook\n\nShips that passed.\n",
  "private/Diary.md": "# Diary\n\nThe lighthouse keeper's secret.\n",
  "wiki/index.md": "# Index\n\n- [[Lighthouse]]\n",
};

async function synced(resolver?: { resolve(target: string, from: string): string | null }) {
  const vault = new MemoryVault(FILES);
  const index = await VaultIndex.open({ frontmatter: readFrontmatter, store: new MemoryStateStore(), reader: vault, wikiFolder: "wiki", excludedFolders: ["private"], ...(resolver ? { resolver } : {}) });
  await syncIndex(index, vault);
  return { vault, index };
}

/** Obsidian's resolver in miniature: a path, else a file name, over every file of the vault (attachments too). */
function everyFile(paths: readonly string[]) {
  return {
    resolve(target: string): string | null {
      const bare = target.replace(/\.md$/i, "");
      return paths.find((p) => p === target || p === `${bare}.md`) ?? paths.find((p) => p.endsWith(`/${target}`) || p.endsWith(`/${bare}.md`)) ?? null;
    },
  };
}

describe("links into excluded folders", () => {
  it("are neither graph neighbours nor in a traversal, with the index's own resolver", async () => {
    const { index } = await synced();
    expect(index.graph.neighbours("notes/Lighthouse.md").map((n) => n.path)).toEqual(["notes/Logbook.md"]);
    expect(traverse(index.graph, "notes/Lighthouse.md", 3).map((h) => h.path)).toEqual(["notes/Logbook.md"]);
  });

  it("lead to an excluded note, not nowhere: only a link to no note at all is missing", async () => {
    const { index, vault } = await synced();
    const from = "notes/Lighthouse.md";
    expect(index.linkTarget("Diary", from)).toEqual({ kind: "excluded", path: "private/Diary.md" });
    expect(index.linkTarget("private/Diary", from)).toEqual({ kind: "excluded", path: "private/Diary.md" });
    expect(index.linkTarget("diary.md", from)).toEqual({ kind: "excluded", path: "private/Diary.md" });
    expect(index.linkTarget("elsewhere/Diary", from)).toEqual({ kind: "missing" });
    expect(index.linkTarget("Logbook", from)).toEqual({ kind: "indexed", path: "notes/Logbook.md" });
    expect(index.linkTarget("index", from)).toEqual({ kind: "excluded", path: "wiki/index.md" });
    expect(index.linkTarget("Nowhere", from)).toEqual({ kind: "missing" });

    // Deleted, it is missing; moved out of the excluded folder, it is indexed and a neighbour.
    await vault.remove("private/Diary.md");
    await syncIndex(index, vault);
    expect(index.linkTarget("Diary", from)).toEqual({ kind: "missing" });
    await vault.create("private/Diary.md", FILES["private/Diary.md"] as string);
    index.upsert("private/Diary.md", FILES["private/Diary.md"] as string, { mtime: 1, size: 1 });
    expect(index.linkTarget("Diary", from)).toEqual({ kind: "excluded", path: "private/Diary.md" });
    index.remove("private/Diary.md");
    index.upsert("notes/Diary.md", "# Diary\n\nNot secret any more.\n", { mtime: 2, size: 1 });
    expect(index.linkTarget("Diary", from)).toEqual({ kind: "indexed", path: "notes/Diary.md" });
    expect(index.graph.neighbours(from).map((n) => n.path)).toEqual(["notes/Diary.md", "notes/Logbook.md"]);
  });

  it("with a resolver that sees every file, excluded notes and attachments stay out of the graph and of the results", async () => {
    const paths = [...Object.keys(FILES), "assets/beam.png"];
    const { index } = await synced(everyFile(paths));
    const from = "notes/Lighthouse.md";
    expect(index.linkTarget("Diary", from)).toEqual({ kind: "excluded", path: "private/Diary.md" });
    expect(index.linkTarget("beam.png", from)).toEqual({ kind: "file", path: "assets/beam.png" });
    expect(index.linkTarget("Logbook", from)).toEqual({ kind: "indexed", path: "notes/Logbook.md" });
    expect(index.linkTarget("Nowhere", from)).toEqual({ kind: "missing" });
    expect(index.graph.neighbours(from).map((n) => n.path)).toEqual(["notes/Logbook.md"]);
    expect(traverse(index.graph, from, 2).map((h) => h.path)).toEqual(["notes/Logbook.md"]);
    // Graph expansion from the best match lends to Logbook only.
    const hits = await index.retrieve("lighthouse keeper", { scope: { kind: "all" }, limit: 10 });
    expect(hits.map((h) => h.path)).toEqual(["notes/Lighthouse.md", "notes/Logbook.md"]);
  });
});
