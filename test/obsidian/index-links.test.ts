/**
 * The plugin's index resolves links with Obsidian's metadata cache, which sees every file: a link
 * into an excluded folder, or to an attachment, still leads somewhere (not dangling) but is never a
 * neighbour, a traversal hit or a search result. The worker's index knows the notes; the catalogue
 * on the main thread asks Obsidian's resolver, which knows the attachments too.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { loadPlugin } from "./plugin-harness";
import { readyIndex } from "../helpers/index-internals";
import { traverse } from "../../src/retrieval/graph-traverse";

afterEach(() => vi.restoreAllMocks());

describe("links into excluded folders in Obsidian", () => {
  it("lead to an excluded note, which the index never names", async () => {
    const harness = await loadPlugin({
      files: {
        "notes/Lighthouse.md": "# Lighthouse\n\nThe keeper wrote it all in [[Diary]]; ships are in [[Logbook]]; ![[beam.png]]; [[Nowhere]].\n",
        "notes/Logbook.md": "# Logbook\n\nShips that passed.\n",
        "private/Diary.md": "# Diary\n\nThe lighthouse keeper's secret.\n",
        "assets/beam.png": "not really a picture",
      },
      data: { excludedFolders: ["private"] },
    });
    harness.app.workspace.setLayoutReady__();
    const index = await readyIndex(harness.plugin.index);
    if (!index) throw new Error("no index");
    const from = "notes/Lighthouse.md";
    expect(index.linkTarget("Diary", from)).toEqual({ kind: "excluded", path: "private/Diary.md" });
    expect(index.linkTarget("Logbook", from)).toEqual({ kind: "indexed", path: "notes/Logbook.md" });
    expect(index.linkTarget("Nowhere", from)).toEqual({ kind: "missing" });
    expect(index.graph.neighbours(from).map((n) => n.path)).toEqual(["notes/Logbook.md"]);
    expect(traverse(index.graph, from, 3).map((h) => h.path)).toEqual(["notes/Logbook.md"]);
    // Attachments are Obsidian's to resolve: the main thread's catalogue asks its resolver, the worker's index never sees them.
    const door = await harness.plugin.index?.ready();
    const catalog = door?.catalog({ stat: () => Promise.resolve(null), read: () => Promise.resolve("") });
    expect(["Diary", "beam.png", "Logbook", "Nowhere"].map((target) => catalog?.linkExists(target))).toEqual([true, true, true, false]);
    const hits = await (await harness.plugin.index?.retriever())?.retrieve("lighthouse keeper", { scope: { kind: "all" }, limit: 10 });
    expect(hits?.map((h) => h.path)).toEqual([from, "notes/Logbook.md"]);
  });
});
