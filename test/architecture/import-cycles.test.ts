/**
 * No import circle between the files of src/, and between its folders only the ones written down
 * (docs/contributing/architecture.md, "Known folder-level loops"). Type-only imports do not count:
 * they leave no trace in the bundle.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cycles, folderOf, importEdges } from "../helpers/import-graph";

const SRC = join(import.meta.dirname, "../../src");
const edges = importEdges(SRC);

/**
 * write → vault and vault → write: the Node write context names the lock's holder (write-lock);
 * wiki → write: the ingest, retract and index follow apply their plans; write → wiki: the engine
 * keeps index.md and log.md in step (index-log, index-reconcile), splits an old whole registry
 * (source-registry-shards) and reverts the records its runs change (contradictions). Handing the
 * index/log maintenance to applyPlan by its callers would make the folders a strict order.
 * Retrieval is below all of them: it imports core and the vault's port types only.
 * cli ↔ mcp: `synapse mcp` is a CLI command; its server reuses the CLI's flags, settings and
 * recovery, and the command table names it (lazily). Moving src/mcp under src/cli would end it.
 */
const KNOWN_FOLDER_CYCLES = [["vault", "wiki", "write"], ["cli", "mcp"]];

describe("imports in src/", () => {
  it("are read from the sources", () => {
    expect(edges.length).toBeGreaterThan(500);
    expect(edges).toContainEqual({ from: "main.ts", to: "obsidian/commands.ts", lazy: false });
  });

  it("form no circle between files", () => {
    const files = new Set(edges.flatMap((e) => [e.from, e.to]));
    expect(cycles(files, edges)).toEqual([]);
  });

  it("form only the known circles between folders", () => {
    const between = edges.map((e) => ({ from: folderOf(e.from), to: folderOf(e.to) })).filter((e) => e.from !== e.to);
    const folders = new Set(between.flatMap((e) => [e.from, e.to]));
    expect(cycles(folders, between)).toEqual(KNOWN_FOLDER_CYCLES);
  });
});

describe("cycles", () => {
  it("finds each strongly connected group once and ignores a one-way chain", () => {
    const graph = [
      { from: "a", to: "b" }, { from: "b", to: "a" },
      { from: "b", to: "c" }, { from: "c", to: "d" }, { from: "d", to: "e" }, { from: "e", to: "c" },
      { from: "x", to: "y" },
    ];
    expect(cycles(["a", "b", "c", "d", "e", "x", "y"], graph)).toEqual([["c", "d", "e"], ["a", "b"]]);
  });
});
