import { describe, expect, it } from "vitest";
import { applyPlan, type PlannedChange } from "../../src/write/apply";
import { foreignJournals } from "../../src/write/journal";
import { describeRecovery, recoverInterruptedRun } from "../../src/write/recover";
import { readHistory } from "../../src/write/run-history";
import { previewUndo } from "../../src/write/undo";
import { aDevice, copyFiles, copyState, mirrorState, type Device } from "../helpers/two-devices";

const NOW = () => Date.UTC(2026, 11, 2, 1, 0);
const page = (n: number): PlannedChange => ({ path: `wiki/concepts/P${n}.md`, type: "concept", title: `P${n}`, action: "created", create: `page ${n}\n` });
const pages = (from: number, count: number) => Array.from({ length: count }, (_, i) => page(from + i));

/** A run on `device` killed after `written` of its files: its journal and its lock stay. */
async function killedRun(device: Device, changes: PlannedChange[], written: number): Promise<void> {
  const kill = new Error("killed");
  let n = 0;
  await applyPlan(device.vault, changes, {
    ...device.context,
    writer: { ...device.writer, pid: 99 },
    operation: "ingest",
    label: "Big note",
    wikiFolder: "wiki",
    now: NOW,
    afterEachWrite: async () => {
      if (++n === written) throw kill;
    },
  }).catch((error: unknown) => {
    if (error !== kill) throw error;
  });
}

async function ingest(device: Device, changes: PlannedChange[], label: string) {
  return applyPlan(device.vault, changes, { ...device.context, operation: "ingest", label, wikiFolder: "wiki", now: NOW });
}

describe("a run interrupted on one device, whose state reaches another by sync", () => {
  it("is reported, not rolled back or consumed, by the other device; its own device rolls it back; undo keeps to each device's runs", async () => {
    const a = aDevice("laptop", { "wiki/log.md": "# Log\n" });
    const b = aDevice("desk", { "wiki/log.md": "# Log\n" }, 2);
    await killedRun(a, pages(1, 30), 10);
    expect(Object.keys(a.vault.snapshot()).filter((p) => p.includes("/P"))).toHaveLength(10);

    // The state folder reaches the desk before the pages do.
    copyState(a.store, b.store);
    const report = await recoverInterruptedRun(b.vault, { ...b.context, wikiFolder: "wiki", now: NOW });
    expect(report).toMatchObject({ status: "done", journal: { status: "none" } });
    expect(describeRecovery(report)).toMatch(/A run interrupted on laptop \(the ingest of “Big note”, 3\d files\) is in this vault.s records: laptop rolls it back/);
    // Nothing of the laptop's run was rolled back here, and its journal is still there for it.
    expect((await foreignJournals(b.store, b.writer)).map((r) => r.device)).toEqual(["laptop"]);

    // The desk writes a run of its own meanwhile, and does not consume the laptop's journal.
    const desk = await ingest(b, pages(100, 3), "Desk note");
    expect(desk.runId).toMatch(/-deskdevi$/);
    expect(await foreignJournals(b.store, b.writer)).toHaveLength(1);

    // Sync both ways: pages and state.
    await copyFiles(a.vault, b.vault);
    await copyFiles(b.vault, a.vault);
    copyState(b.store, a.store);

    // On the laptop, undo does not reach for the desk's run: the laptop has none of its own yet.
    expect(await previewUndo(a.vault, a.context)).toBeNull();

    // The laptop rolls its run back when it next runs; the desk's pages stay.
    const back = await recoverInterruptedRun(a.vault, { ...a.context, wikiFolder: "wiki", now: NOW });
    // index.md, which the killed run never reached, is the desk's now: kept as it is.
    expect(back).toMatchObject({ status: "done", journal: { status: "rolled-back", kept: ["wiki/index.md"] } });
    const left = Object.keys(a.vault.snapshot()).filter((p) => p.includes("/P")).sort();
    expect(left).toEqual(["wiki/concepts/P100.md", "wiki/concepts/P101.md", "wiki/concepts/P102.md"]);

    // That rollback syncs: the desk is left with its own pages, and no foreign journal.
    await copyFiles(a.vault, b.vault, true);
    mirrorState(a.store, b.store);
    expect(Object.keys(b.vault.snapshot()).filter((p) => p.includes("/P")).sort()).toEqual(left);
    expect(await foreignJournals(b.store, b.writer)).toEqual([]);
    // The desk's undo names its own run; the laptop's names none.
    expect((await previewUndo(b.vault, b.context))?.run.label).toBe("Desk note");
    expect((await readHistory(b.store)).runs.map((r) => r.writer.device?.name)).toEqual(["desk"]);
  });

  it("a journal from another vault's state folder is set aside, never rolled back against this vault", async () => {
    const a = aDevice("laptop", { "wiki/log.md": "# Log\n" });
    await killedRun(a, pages(1, 5), 2);
    // The whole state folder copied into a new vault on the same device (whose own id differs).
    const other = aDevice("laptop", { "wiki/concepts/P1.md": "page 1\n", "wiki/log.md": "# Log\n" });
    copyState(a.store, other.store, (key) => key !== "vault-id.json");
    const report = await recoverInterruptedRun(other.vault, { ...other.context, wikiFolder: "wiki", now: NOW });
    expect(report).toMatchObject({ status: "done", journal: { status: "unreadable", reason: expect.stringContaining("another vault") } });
    expect(other.vault.snapshot()["wiki/concepts/P1.md"]).toBe("page 1\n");
  });
});
