import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS } from "../../src/settings/schema";
import { runLint, type LintDeps } from "../../src/lint/run-lint";
import { applyPlan, type PlannedChange } from "../../src/write/apply";
import { foreignJournals } from "../../src/write/journal";
import { readHistory } from "../../src/write/run-history";
import { aDevice, copyFiles, copyState, type Device } from "../helpers/two-devices";

const NOW = () => Date.UTC(2026, 11, 2, 1, 0);
const page = (n: number): PlannedChange => ({ path: `wiki/concepts/P${n}.md`, type: "concept", title: `P${n}`, action: "created", create: `page ${n}\n` });

/** A run on the laptop killed after 3 of its 6 pages; pages and state then both reach the desk. */
async function interruptedOnLaptop(): Promise<Device> {
  const laptop = aDevice("laptop", { "wiki/log.md": "# Log\n", "wiki/index.md": "# Index\n" });
  const desk = aDevice("desk", { "wiki/log.md": "# Log\n", "wiki/index.md": "# Index\n" }, 2);
  const kill = new Error("killed");
  let n = 0;
  const changes = Array.from({ length: 6 }, (_, i) => page(i + 1));
  await applyPlan(laptop.vault, changes, {
    ...laptop.context,
    writer: { ...laptop.writer, pid: 99 },
    operation: "ingest",
    label: "Big note",
    wikiFolder: "wiki",
    now: NOW,
    afterEachWrite: async () => {
      if (++n === 3) throw kill;
    },
  }).catch((error: unknown) => {
    if (error !== kill) throw error;
  });
  await copyFiles(laptop.vault, desk.vault);
  copyState(laptop.store, desk.store);
  return desk;
}

const depsOf = (device: Device): LintDeps => ({ vault: device.vault, settings: DEFAULT_SETTINGS, store: device.store, write: device.context, now: NOW });
const halfWritten = (device: Device) => Object.keys(device.vault.snapshot()).filter((p) => /\/P\d\.md$/.test(p));

describe("lint and a run another device left half-written", () => {
  it("finds it, naming the device, and leaves it to a person: fix all safe does not undo it", async () => {
    const desk = await interruptedOnLaptop();
    const report = await runLint(depsOf(desk), { fix: "safe" });
    expect(report.error?.message ?? null).toBeNull();
    const found = report.findings.filter((f) => f.check === "interrupted-run");
    expect(found).toHaveLength(1);
    expect(found[0]?.message).toMatch(/^A run interrupted on laptop \(the ingest of “Big note”/);
    expect(found[0]?.fixes).toEqual([expect.objectContaining({ kind: "undo-interrupted-run", safe: false })]);
    expect(halfWritten(desk)).toHaveLength(3);
  });

  it("undoes it through the write path when chosen: its pages go, its journal with them, and the undo is a run of the history", async () => {
    const desk = await interruptedOnLaptop();
    const report = await runLint(depsOf(desk), { fix: "all" });
    expect(report.error?.message ?? null).toBeNull();
    expect(report.fixed.map((f) => f.check)).toContain("interrupted-run");
    expect(halfWritten(desk)).toEqual([]);
    expect(await foreignJournals(desk.store, desk.writer)).toEqual([]);
    expect(report.findings.filter((f) => f.check === "interrupted-run")).toEqual([]);
    const { runs } = await readHistory(desk.store);
    expect(runs.find((r) => r.operation === "undo")).toMatchObject({ operation: "undo", label: "Big note", writer: { device: { name: "desk" } } });
    expect(desk.vault.snapshot()["wiki/log.md"]).toMatch(/undid the ingest interrupted on laptop/);
  });
});
