import { describe, expect, it } from "vitest";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { lastUndoableRun, newRunId, recordRun, readHistory, HISTORY_LIMIT } from "../../src/write/run-history";
import { JournalSchema, LockSchema, parseRecord, type RunRecord, type WriterIdentity } from "../../src/write/write-records";
import { deviceName, journalKeyOf, lockKeyOf, sameDevice } from "../../src/write/writer-device";

const laptop: WriterIdentity = { kind: "cli", pid: 1, host: "laptop", device: { id: "laptop-0001", name: "laptop" } };
const desk: WriterIdentity = { kind: "plugin", pid: null, host: null, device: { id: "desk-0002", name: "desk" } };
const earlier: WriterIdentity = { kind: "cli", pid: 7, host: "old" };

const record = (id: string, writer: WriterIdentity): RunRecord => ({ version: 1, id, operation: "ingest", label: id, at: 0, writer, files: [], state: [], log: null, undoes: null });

describe("records name the device that wrote them", () => {
  it("reads records of earlier versions, without a device or a vault, as an unknown device's", () => {
    const old = parseRecord(LockSchema, JSON.stringify({ version: 1, writer: earlier, token: "t", activity: "ingest", started: 1, heartbeat: 1 }));
    expect(old.ok && deviceName(old.value.writer)).toBe("an unknown device");
    const journal = parseRecord(JournalSchema, JSON.stringify({ version: 1, runId: "r", operation: "ingest", label: "x", started: 1, writer: earlier, entries: [] }));
    expect(journal.ok).toBe(true);
    expect(sameDevice(earlier, laptop)).toBe(false);
  });

  it("keeps each device's journal and lock under its own key, and a writer without a device under the keys of earlier versions", () => {
    expect([journalKeyOf(laptop), lockKeyOf(laptop)]).toEqual(["journal/laptop-0001.json", "locks/laptop-0001.json"]);
    expect([journalKeyOf(earlier), lockKeyOf(earlier)]).toEqual(["journal/current.json", "lock.json"]);
    expect(journalKeyOf({ ...laptop, device: { id: "../../x y", name: "" } })).toBe("journal/______x_y.json");
  });

  it("gives runs ids that two devices cannot share, and each device prunes only its own history", async () => {
    const store = new MemoryStateStore();
    const a = await newRunId(store, 1000, laptop);
    const b = await newRunId(store, 1000, desk);
    expect(a).not.toBe(b);
    expect(a).toMatch(/-laptop00$/);
    await recordRun(store, record(b, desk));
    for (let i = 0; i < HISTORY_LIMIT + 3; i++) await recordRun(store, record(await newRunId(store, 2000 + i, laptop), laptop));
    const { runs } = await readHistory(store);
    expect(runs.filter((r) => r.writer.device?.name === "laptop")).toHaveLength(HISTORY_LIMIT);
    expect(runs.filter((r) => r.writer.device?.name === "desk")).toHaveLength(1);
  });

  it("undo takes back this device's last run (or an earlier version's), never the newer run of another device", () => {
    const runs = [record("3", desk), record("2", laptop), record("1", earlier)];
    expect(lastUndoableRun(runs, laptop)?.id).toBe("2");
    expect(lastUndoableRun(runs, desk)?.id).toBe("3");
    expect(lastUndoableRun([record("3", desk), record("1", earlier)], laptop)?.id).toBe("1");
  });
});
