import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { describeMachine, renderResultsFile, writeResultsFile, type Machine, type ResultsRun } from "../../bench/results-file";

const machine: Machine = { cpu: "Test CPU @ 2.0GHz", cores: 2, memoryBytes: 8 * 2 ** 30, node: "v20.19.0", platform: "linux x64" };
const ranAt = new Date("2030-01-02T03:04:05.000Z");

function run(overrides: Partial<ResultsRun> = {}): ResultsRun {
  return {
    results: [
      { name: "ingest overhead", value: 10.456, unit: "ms", target: "< 20 ms", pass: true },
      { name: "lint 5,000 pages", value: 6, unit: "s", target: "< 5 s", pass: false, note: "wall | CPU\nsplit" },
      { name: "main.js size", value: 1021020, unit: "bytes" },
    ],
    machine,
    ranAt,
    args: [],
    ...overrides,
  };
}

describe("renderResultsFile", () => {
  it("names the machine the run was made on and when", () => {
    const text = renderResultsFile(run());
    expect(text).toContain("| CPU | Test CPU @ 2.0GHz |");
    expect(text).toContain("| cores | 2 |");
    expect(text).toContain("| memory | 8.0 GiB |");
    expect(text).toContain("| Node.js | v20.19.0 |");
    expect(text).toContain("| run | 2030-01-02T03:04:05.000Z |");
  });

  it("lists every figure with its value, target and verdict, integers unrounded", () => {
    const text = renderResultsFile(run());
    expect(text).toContain("| ingest overhead | 10.46 | ms | < 20 ms | met |  |");
    expect(text).toContain("| lint 5,000 pages | 6 | s | < 5 s | **missed** |");
    expect(text).toContain("| main.js size | 1021020 | bytes |  |  |  |");
  });

  it("keeps a note with a pipe or a line break inside its cell", () => {
    const row = renderResultsFile(run()).split("\n").find((line) => line.startsWith("| lint"));
    expect(row).toBe("| lint 5,000 pages | 6 | s | < 5 s | **missed** | wall \\| CPU split |");
  });

  it("ends with how many targets were missed", () => {
    expect(renderResultsFile(run())).toMatch(/1 target\(s\) missed\.\n$/);
    expect(renderResultsFile(run({ results: [{ name: "x", value: 1, unit: "ms", pass: true }] }))).toMatch(/All targets met\.\n$/);
  });

  it("says which options the bench ran with", () => {
    expect(renderResultsFile(run())).toContain("| options | none |");
    expect(renderResultsFile(run({ args: ["--retrieval-50k"] }))).toContain("| options | `--retrieval-50k` |");
  });
});

describe("writeResultsFile", () => {
  it("replaces the file with the latest run only", () => {
    const dir = mkdtempSync(join(tmpdir(), "synapse-bench-results-"));
    try {
      const path = join(dir, "RESULTS.md");
      writeResultsFile(path, run());
      writeResultsFile(path, run({ results: [{ name: "only figure", value: 2, unit: "ms" }] }));
      const text = readFileSync(path, "utf8");
      expect(text).toContain("only figure");
      expect(text).not.toContain("ingest overhead");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

it("describes this machine", () => {
  const here = describeMachine();
  expect(here.cores).toBeGreaterThan(0);
  expect(here.memoryBytes).toBeGreaterThan(0);
  expect(here.node).toBe(process.version);
});
