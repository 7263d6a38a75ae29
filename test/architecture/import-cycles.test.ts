/**
 * No import circle between the files of src/, and none between its folders (docs/contributing/architecture.md,
 * "Layers"). Type-only imports do not count: they leave no trace in the bundle.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cycles, folderOf, importEdges } from "../helpers/import-graph";

const SRC = join(import.meta.dirname, "../../src");
const edges = importEdges(SRC);

/**
 * None: the folders are a strict order (docs/contributing/architecture.md, "Layers"). The write
 * engine keeps index.md and log.md and splits the old whole registry with its own files
 * (write/index-log.ts, source-registry-shards.ts), the contracts several layers share are in core
 * (core/device.ts, state-keys.ts, wiki-paths.ts), the Node write context is in node/, above the
 * write path, and the MCP server is part of the CLI (cli/mcp).
 */
const KNOWN_FOLDER_CYCLES: string[][] = [];

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
