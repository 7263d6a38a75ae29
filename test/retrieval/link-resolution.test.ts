/**
 * Links resolve as Obsidian resolves them (the CLI's resolver; the plugin asks Obsidian's own):
 * names compare in either Unicode spelling and any case, a link with a folder must match the path,
 * and a bare name goes to the shortest path. Checked on the index (neighbours, backlinks,
 * linkTarget) as the CLI builds it from a vault, and on the resolver alone.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GraphIndex } from "../../src/retrieval/graph-index";
import { pickTarget, shortestFirst } from "../../src/retrieval/link-resolution";
import { syncIndex } from "../../src/retrieval/sync";
import { VaultIndex } from "../../src/retrieval/vault-index";
import { readFrontmatter } from "../../src/retrieval/chunker";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import { traverse } from "../../src/retrieval/graph-traverse";

const NFC = "Caf\u00e9 cr\u00e8me";
const NFD = NFC.normalize("NFD");

async function synced(files: Record<string, string>, excludedFolders: readonly string[] = []) {
  const vault = new MemoryVault(files);
  const index = await VaultIndex.open({ frontmatter: readFrontmatter, store: new MemoryStateStore(), reader: vault, wikiFolder: "wiki", excludedFolders });
  await syncIndex(index, vault);
  return index;
}

const none = { embeds: [], tags: [], sources: [] };

describe("names in either Unicode spelling", () => {
  it.each([
    ["a composed link to a decomposed name", NFC, NFD],
    ["a decomposed link to a composed name", NFD, NFC],
  ])("%s is a neighbour, a backlink and an indexed target", async (_case, written, named) => {
    expect(written).not.toBe(named);
    const note = `notes/${named}.md`;
    const index = await synced({
      [note]: `# ${named}\n\nFoamed milk.\n`,
      "notes/Linker.md": `# Linker\n\nSee [[${written}]] and ![[${written.toUpperCase()}]].\n`,
    });
    expect(index.graph.neighbours("notes/Linker.md")).toEqual([{ path: note, relation: "link" }]);
    expect(index.graph.backlinks(note)).toEqual(["notes/Linker.md"]);
    expect(index.graph.neighbours(note)).toEqual([{ path: "notes/Linker.md", relation: "backlink" }]);
    expect(index.linkTarget(written, "notes/Linker.md")).toEqual({ kind: "indexed", path: note });
    expect(index.linkTarget(`notes/${written}`, "notes/Linker.md")).toEqual({ kind: "indexed", path: note });
    expect(traverse(index.graph, "notes/Linker.md", 1).map((h) => h.path)).toEqual([note]);
  });

  it("an excluded note named in the other spelling is excluded, not missing", async () => {
    const index = await synced({ [`private/${NFD}.md`]: "secret\n", "notes/Linker.md": `[[${NFC}]]\n` }, ["private"]);
    expect(index.linkTarget(NFC, "notes/Linker.md")).toEqual({ kind: "excluded", path: `private/${NFD}.md` });
    expect(index.graph.neighbours("notes/Linker.md")).toEqual([]);
  });

  it("resolve the same whatever the spelling or case of the link (property)", () => {
    const names = [NFC, NFD, "Diary", "ÅNGSTRÖM".normalize("NFD"), "ångström"];
    const folders = ["", "notes/", "notes/deep/", "Privé/".normalize("NFD"), "privé/"];
    const aPath = fc.tuple(fc.constantFrom(...folders), fc.constantFrom(...names)).map(([f, n]) => `${f}${n}.md`);
    const respell = (t: string, form: "NFC" | "NFD", upper: boolean) => (upper ? t.toUpperCase() : t.toLowerCase()).normalize(form);
    fc.assert(
      fc.property(
        fc.uniqueArray(aPath, { minLength: 1, maxLength: 8 }),
        fc.tuple(fc.constantFrom("", "./", "../", "/", ...folders), fc.constantFrom(...names)).map(([f, n]) => `${f}${n}`),
        fc.constantFrom<"NFC" | "NFD">("NFC", "NFD"),
        fc.boolean(),
        aPath,
        (paths, target, form, upper, from) => {
          const graph = new GraphIndex();
          for (const p of paths) graph.set(p, { links: [], ...none });
          expect(graph.locate(respell(target, form, upper), from)).toBe(graph.locate(target, from));
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe("a link with a folder", () => {
  const FILES = {
    "notes/Diary.md": "# Diary\n\nPublic words.\n",
    "private/Diary.md": "# Diary\n\nSecret words.\n",
    "notes/Linker.md": "# Linker\n\n[[elsewhere/Diary]] [[private/Diary]] [[es/Diary]]\n",
  };

  it("must match the path: a missing folder leads nowhere and an excluded one stays excluded", async () => {
    const index = await synced(FILES, ["private"]);
    const from = "notes/Linker.md";
    expect(index.linkTarget("elsewhere/Diary", from)).toEqual({ kind: "missing" });
    expect(index.linkTarget("private/Diary", from)).toEqual({ kind: "excluded", path: "private/Diary.md" });
    expect(index.linkTarget("PRIVATE/diary.md", from)).toEqual({ kind: "excluded", path: "private/Diary.md" });
    // "es/Diary" is no folder boundary inside "notes/Diary".
    expect(index.linkTarget("es/Diary", from)).toEqual({ kind: "missing" });
    expect(index.linkTarget("notes/Diary", from)).toEqual({ kind: "indexed", path: "notes/Diary.md" });
    // None of the three leads to notes/Diary.md: no edge, no backlink.
    expect(index.graph.neighbours(from)).toEqual([]);
    expect(index.graph.backlinks("notes/Diary.md")).toEqual([]);
  });

  it("matches the end of a path at a folder boundary, the shortest first", () => {
    const paths = ["a/b/x/Note.md", "b/x/Note.md", "zz/x/Note.md", "Note.md", "c/Note.md"];
    const candidates = shortestFirst(paths);
    expect(pickTarget("x/Note", "q.md", candidates)).toBe("b/x/Note.md");
    expect(pickTarget("b/x/Note", "q.md", candidates)).toBe("b/x/Note.md");
    expect(pickTarget("a/b/x/Note", "q.md", candidates)).toBe("a/b/x/Note.md");
    expect(pickTarget("y/Note", "q.md", candidates)).toBeNull();
    expect(pickTarget("Note", "c/q.md", candidates)).toBe("Note.md");
  });
});

describe("bare names and relative links", () => {
  const candidates = shortestFirst(["Note.md", "folder/Note.md", "folder/sub/Note.md", "other/Note.md"]);

  it("a bare name goes to the shortest path, wherever the link is written", () => {
    expect(pickTarget("Note", "folder/q.md", candidates)).toBe("Note.md");
    expect(pickTarget("note.MD", "x/y/q.md", candidates)).toBe("Note.md");
    expect(pickTarget("Note", "q.md", shortestFirst(["b/Note.md", "a/Note.md"]))).toBe("a/Note.md");
  });

  it("./ and ../ are from the linking note's folder only; a leading / from the root only", () => {
    expect(pickTarget("./Note", "folder/q.md", candidates)).toBe("folder/Note.md");
    expect(pickTarget("./sub/Note", "folder/q.md", candidates)).toBe("folder/sub/Note.md");
    expect(pickTarget("../Note", "folder/sub/q.md", candidates)).toBe("folder/Note.md");
    expect(pickTarget("../other/Note", "folder/q.md", candidates)).toBe("other/Note.md");
    expect(pickTarget("./Note", "nothere/q.md", candidates)).toBeNull();
    expect(pickTarget("../../Note", "folder/q.md", candidates)).toBeNull();
    expect(pickTarget("/Note", "folder/q.md", candidates)).toBe("Note.md");
    expect(pickTarget("/sub/Note", "folder/q.md", candidates)).toBeNull();
  });

  it("a path is taken from the root first, then from the linking note's folder", () => {
    expect(pickTarget("folder/Note", "other/q.md", candidates)).toBe("folder/Note.md");
    expect(pickTarget("sub/Note", "folder/q.md", candidates)).toBe("folder/sub/Note.md");
    const both = shortestFirst(["sub/Note.md", "folder/sub/Note.md"]);
    expect(pickTarget("sub/Note", "folder/q.md", both)).toBe("sub/Note.md");
  });

  it("an excluded note with the shorter path takes a bare name: no edge to the other note of that name", async () => {
    const index = await synced(
      {
        "p/Diary.md": "secret\n",
        "notes/long/Diary.md": "# Diary\n\nPublic.\n",
        "notes/Linker.md": "[[Diary]]\n",
      },
      ["p"],
    );
    expect(index.linkTarget("Diary", "notes/Linker.md")).toEqual({ kind: "excluded", path: "p/Diary.md" });
    expect(index.graph.neighbours("notes/Linker.md")).toEqual([]);
    expect(index.linkTarget("long/Diary", "notes/Linker.md")).toEqual({ kind: "indexed", path: "notes/long/Diary.md" });
  });
});
