import { describe, expect, it } from "vitest";
import { applyPlan, type PlannedChange } from "../../src/write/apply";
import { foreignJournals } from "../../src/write/journal";
import { describeRecovery, recoverInterruptedRun } from "../../src/write/recover";
import type { LockRecord, WriterIdentity } from "../../src/write/write-records";
import { aDevice, copyState, type Device } from "../helpers/two-devices";

const NOW = () => Date.UTC(2026, 11, 2, 1, 0);
const page = (n: number): PlannedChange => ({ path: `wiki/concepts/P${n}.md`, type: "concept", title: `P${n}`, action: "created", create: `page ${n}\n` });
const pages = (count: number) => Array.from({ length: count }, (_, i) => page(i + 1));
const written = (device: Device) => Object.keys(device.vault.snapshot()).filter((p) => p.includes("/P"));

/** A run of the previous version (its writer names no device) killed after 3 of its files. */
async function killedLegacyRun(device: Device, writer: WriterIdentity): Promise<void> {
  const kill = new Error("killed");
  let n = 0;
  await applyPlan(device.vault, pages(8), {
    store: device.store,
    writer,
    operation: "ingest",
    label: "Old note",
    wikiFolder: "wiki",
    now: NOW,
    afterEachWrite: async () => {
      if (++n === 3) throw kill;
    },
  }).catch((error: unknown) => {
    if (error !== kill) throw error;
  });
  expect(await device.store.read("journal/current.json")).not.toBeNull();
}

const recover = (device: Device, writer: WriterIdentity = device.writer) =>
  recoverInterruptedRun(device.vault, { ...device.context, writer, wikiFolder: "wiki", now: NOW });

const legacyLock = (writer: WriterIdentity): LockRecord => ({ version: 1, writer, token: "old", activity: "ingest of “Old note”", started: 1, heartbeat: 1 });

describe("after an upgrade, the previous version's records", () => {
  it("a crash of the previous CLI on this host is rolled back as this device's own", async () => {
    const laptop = aDevice("laptop", { "wiki/log.md": "# Log\n" });
    await killedLegacyRun(laptop, { kind: "cli", pid: 99, host: "laptop" });
    const report = await recover(laptop);
    expect(report).toMatchObject({ status: "done", journal: { status: "rolled-back", label: "Old note" }, foreign: [] });
    expect(describeRecovery(report)).toMatch(/An interrupted ingest \(“Old note”\) was rolled back/);
    expect(written(laptop)).toEqual([]);
    expect(await laptop.store.read("journal/current.json")).toBeNull();
  });

  it("a crash of the previous CLI on another host stays reported there, never rolled back", async () => {
    const laptop = aDevice("laptop", { "wiki/log.md": "# Log\n" });
    const desk = aDevice("desk", { "wiki/log.md": "# Log\n" });
    await killedLegacyRun(laptop, { kind: "cli", pid: 99, host: "laptop" });
    copyState(laptop.store, desk.store);
    const report = await recover(desk);
    expect(report).toMatchObject({ status: "done", journal: { status: "none" } });
    expect(describeRecovery(report)).toMatch(/A run interrupted on an unknown device \(the ingest of “Old note”/);
    expect(await foreignJournals(desk.store, desk.writer)).toHaveLength(1);
    expect(await desk.store.read("journal/current.json")).not.toBeNull();
  });

  it("the previous plugin's crash (it named no host) is rolled back by the plugin, and left to it by the CLI", async () => {
    const laptop = aDevice("laptop", { "wiki/log.md": "# Log\n" });
    await killedLegacyRun(laptop, { kind: "plugin", pid: null, host: null });
    const cliReport = await recover(laptop);
    expect(cliReport).toMatchObject({ status: "done", journal: { status: "none" }, foreign: [{ key: "journal/current.json" }] });
    expect(written(laptop)).toHaveLength(3);
    const plugin: WriterIdentity = { kind: "plugin", pid: null, host: null, device: { id: "laptop-obsidian", name: "laptop" } };
    const report = await recover(laptop, plugin);
    expect(report).toMatchObject({ status: "done", journal: { status: "rolled-back" }, foreign: [] });
    expect(written(laptop)).toEqual([]);
  });

  it("the previous version's lock on this host holds while its process runs, and is freed when it is gone", async () => {
    const laptop = aDevice("laptop", { "wiki/log.md": "# Log\n" });
    await killedLegacyRun(laptop, { kind: "cli", pid: 99, host: "laptop" });
    await laptop.store.write("lock.json", JSON.stringify(legacyLock({ kind: "cli", pid: 7, host: "laptop" })));
    // Process 7 still runs: the previous version is writing, and recovery leaves its journal alone.
    const busy = await recoverInterruptedRun(laptop.vault, { ...laptop.context, lock: { isAlive: () => true }, wikiFolder: "wiki", now: NOW });
    expect(busy).toMatchObject({ status: "busy" });
    expect(busy.status === "busy" && busy.message).toMatch(/the Synapse command line \(process 7 on laptop\)/);
    expect(written(laptop)).toHaveLength(3);
    // Once it is gone, its lock is removed and its run rolled back.
    const report = await recover(laptop);
    expect(report).toMatchObject({ status: "done", journal: { status: "rolled-back" } });
    expect(await laptop.store.read("lock.json")).toBeNull();
  });

  it("the previous version's lock is judged by its heartbeat: one that stood still never blocks forever", async () => {
    const laptop = aDevice("laptop");
    await laptop.store.write("lock.json", JSON.stringify(legacyLock({ kind: "cli", pid: 7, host: "laptop" })));
    const clock = { at: 0 };
    const lock = { isAlive: () => true, waitMs: 120_000, monotonic: () => clock.at, sleep: async (ms: number) => void (clock.at += ms) };
    const report = await recoverInterruptedRun(laptop.vault, { ...laptop.context, lock, wikiFolder: "wiki", now: NOW });
    expect(report).toMatchObject({ status: "done" });
    expect(clock.at).toBeGreaterThan(60_000);
    expect(await laptop.store.read("lock.json")).toBeNull();
  });

  it("another host's lock of the previous version is never looked at", async () => {
    const desk = aDevice("desk");
    const text = JSON.stringify(legacyLock({ kind: "cli", pid: 7, host: "laptop" }));
    await desk.store.write("lock.json", text);
    expect(await recoverInterruptedRun(desk.vault, { ...desk.context, lock: { isAlive: () => true }, wikiFolder: "wiki", now: NOW })).toMatchObject({ status: "done" });
    expect(await desk.store.read("lock.json")).toBe(text);
  });
});
