import { describe, expect, it } from "vitest";
import { SynapseError } from "../../src/core/errors";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { acquireWriteLock, DEFAULT_STALE_AFTER_MS, type LockOptions } from "../../src/write/write-lock";
import type { LockRecord, WriterIdentity } from "../../src/write/write-records";

const NOW = Date.UTC(2026, 11, 2, 1, 0);
const laptop = { id: "laptop-0001", name: "laptop" };
const desk = { id: "desk-0002", name: "desk" };
const me: WriterIdentity = { kind: "cli", pid: 100, host: "laptop", device: laptop };

/** This device's monotonic clock, moved only by the lock's own waits: no test waits for real. */
function fakeTime(onSleep: (clock: number) => Promise<void> | void = () => undefined) {
  const time = { clock: 0 };
  const options: Pick<LockOptions, "monotonic" | "sleep" | "now"> = {
    now: () => NOW,
    monotonic: () => time.clock,
    sleep: async (ms) => {
      time.clock += ms;
      await onSleep(time.clock);
    },
  };
  return { time, options };
}

function lockOf(writer: WriterIdentity, at: number, heartbeat = at): LockRecord {
  return { version: 1, writer, token: `t-${writer.pid ?? "x"}`, activity: "ingest of “Held”", started: at, heartbeat };
}

const keyOf = (device: { id: string }) => `locks/${device.id}.json`;

async function refusal(store: MemoryStateStore, options: LockOptions): Promise<SynapseError> {
  const error = await acquireWriteLock(store, options).then(
    () => null,
    (e: unknown) => e,
  );
  if (!SynapseError.isInstance(error)) throw new Error("the lock was taken");
  return error;
}

describe("a lock is judged by its heartbeat advancing in this device's time", () => {
  it("takes over, after the stale interval, a lock whose pid is alive (reused) but whose heartbeat stands still", async () => {
    const store = new MemoryStateStore();
    // Three hours old, and pid 200 now belongs to an unrelated live process on this host.
    await store.write(keyOf(laptop), JSON.stringify(lockOf({ ...me, pid: 200 }, NOW - 3 * 3600_000)));
    const { time, options } = fakeTime();
    const base = { writer: me, activity: "ingest of “Mine”", isAlive: () => true, ...options };
    // Before the interval has passed here, the holder gets the benefit of the doubt.
    await refusal(store, { ...base, waitMs: DEFAULT_STALE_AFTER_MS - 1000 });
    time.clock = 0;
    const lock = await acquireWriteLock(store, { ...base, waitMs: DEFAULT_STALE_AFTER_MS + 1000 });
    expect(time.clock).toBeGreaterThan(DEFAULT_STALE_AFTER_MS);
    expect(JSON.parse((await store.read(keyOf(laptop))) ?? "{}")).toMatchObject({ token: lock.token });
    await lock.release();
  });

  it("never takes over a lock whose heartbeat keeps changing, however old its times read", async () => {
    const store = new MemoryStateStore();
    const holder = lockOf({ ...me, pid: 200 }, NOW - 3 * 3600_000);
    await store.write(keyOf(laptop), JSON.stringify(holder));
    let beats = 0;
    const { options } = fakeTime(async (clock) => {
      if (clock % 10_000 === 0) await store.write(keyOf(laptop), JSON.stringify({ ...holder, heartbeat: holder.heartbeat + ++beats }));
    });
    const error = await refusal(store, { writer: me, activity: "ingest", isAlive: () => true, waitMs: 5 * DEFAULT_STALE_AFTER_MS, ...options });
    expect(error.message).toMatch(/ingest of “Held”/);
    expect(beats).toBeGreaterThan(20);
  });

  it("frees a lock at once when its pid is not running on this host", async () => {
    const store = new MemoryStateStore();
    await store.write(keyOf(laptop), JSON.stringify(lockOf({ ...me, pid: 200 }, NOW)));
    const { time, options } = fakeTime();
    const lock = await acquireWriteLock(store, { writer: me, activity: "ingest", isAlive: (pid) => pid !== 200, ...options });
    expect(time.clock).toBe(0);
    await lock.release();
  });

  it("judges a lock from a clock two hours ahead the same way, and never names its time", async () => {
    const store = new MemoryStateStore();
    const plugin: WriterIdentity = { kind: "plugin", pid: null, host: null, device: laptop };
    await store.write(keyOf(laptop), JSON.stringify(lockOf(plugin, NOW + 2 * 3600_000)));
    const { time, options } = fakeTime();
    const error = await refusal(store, { writer: me, activity: "ingest", waitMs: 1000, ...options });
    expect(error.message).toContain("the Synapse plugin in Obsidian, ingest of “Held”.");
    expect(error.message).not.toMatch(/03:00|UTC/);
    time.clock = 0;
    const lock = await acquireWriteLock(store, { writer: me, activity: "ingest", waitMs: DEFAULT_STALE_AFTER_MS + 1000, ...options });
    expect(time.clock).toBeLessThan(2 * DEFAULT_STALE_AFTER_MS);
    await lock.release();
  });

  it("is never blocked by another device's lock that sync brought in", async () => {
    const store = new MemoryStateStore();
    // The desk holds its lock, alive; its copy of the state folder arrived here.
    const { time, options } = fakeTime();
    const theirs = await acquireWriteLock(store, { writer: { kind: "cli", pid: 300, host: "desk", device: desk }, activity: "ingest", ...options });
    const lock = await acquireWriteLock(store, { writer: me, activity: "ingest", isAlive: () => true, ...options });
    expect(time.clock).toBe(0);
    // The other device's lock is its own: left as it is.
    expect(await store.read(keyOf(desk))).not.toBeNull();
    await lock.release();
    await theirs.release();
  });

  it("a plugin on this device takes over the lock its closed predecessor left, but not one it holds itself", async () => {
    const store = new MemoryStateStore();
    const plugin: WriterIdentity = { kind: "plugin", pid: null, host: null, device: laptop };
    await store.write(keyOf(laptop), JSON.stringify(lockOf(plugin, NOW)));
    const { time, options } = fakeTime();
    const first = await acquireWriteLock(store, { writer: plugin, activity: "ingest", ...options });
    expect(time.clock).toBe(0);
    const error = await refusal(store, { writer: plugin, activity: "query", waitMs: 1000, ...options });
    expect(error.message).toMatch(/the Synapse plugin in Obsidian, ingest, since \d\d:\d\d:\d\d UTC/);
    await first.release();
  });
});

describe("a lock under a key of its own (a batch's)", () => {
  it("neither blocks nor waits for the write lock, holds off a second holder of its key, and says so in its own words", async () => {
    const store = new MemoryStateStore();
    const { options } = fakeTime();
    const keyed = { key: "locks/batch-one.laptop-0001.json", busy: (who: string) => `Busy with the batch: ${who}.`, ...options };
    const write = await acquireWriteLock(store, { writer: me, activity: "ingest", ...options });
    const batch = await acquireWriteLock(store, { writer: { ...me, pid: 101 }, activity: "collect of batch one", isAlive: () => true, ...keyed });
    const error = await refusal(store, { writer: { ...me, pid: 102 }, activity: "collect of batch one", isAlive: () => true, ...keyed });
    expect(error.message).toMatch(/^Busy with the batch: the Synapse command line \(process 101 on laptop\), collect of batch one, since/);
    await batch.release();
    expect(await store.read(keyed.key)).toBeNull();
    expect(await store.read(keyOf(laptop))).not.toBeNull();
    await write.release();
  });
});
