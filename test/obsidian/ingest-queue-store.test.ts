/**
 * queue.json is read once, and every change waits for that read: a note queued, finished or retried
 * before the plugin got round to resuming (an ingest started before the layout was ready) never
 * overwrites the previous session's queued and failed notes.
 */
import { describe, expect, it } from "vitest";
import { QUEUE_KEY, QueueStore } from "../../src/obsidian/ingest-queue-store";
import { MemoryStateStore } from "../../src/vault/memory-state-store";

const PREVIOUS = { version: 1, pending: [{ notePath: "old1.md", force: false }, { notePath: "old2.md", force: true }], failed: [{ notePath: "f.md", reason: "The model is missing.", at: "2026-11-30T10:00:00.000Z" }] };

async function previousSession(): Promise<MemoryStateStore> {
  const store = new MemoryStateStore();
  await store.write(QUEUE_KEY, JSON.stringify(PREVIOUS));
  return store;
}

async function saved(store: MemoryStateStore): Promise<typeof PREVIOUS> {
  return JSON.parse((await store.read(QUEUE_KEY)) ?? "null") as typeof PREVIOUS;
}

const NOW = () => Date.parse("2026-12-01T00:00:00.000Z");

describe("the saved ingest queue", () => {
  it("keeps the previous session's notes when a note is queued before it is loaded", async () => {
    const store = await previousSession();
    const queue = new QueueStore(store, NOW);
    void queue.add([{ notePath: "new.md", force: false }]);
    await queue.settled();
    expect(await queue.load()).toBeNull();
    expect(queue.pending.map((n) => n.notePath)).toEqual(["old1.md", "old2.md", "new.md"]);
    expect(queue.failed.map((n) => n.notePath)).toEqual(["f.md"]);
    expect(await saved(store)).toEqual({ ...PREVIOUS, pending: [...PREVIOUS.pending, { notePath: "new.md", force: false }] });
  });

  it("applies changes made before the load after it, in order", async () => {
    const store = await previousSession();
    const queue = new QueueStore(store, NOW);
    void queue.add([{ notePath: "new.md", force: false }]);
    void queue.finish("new.md", "It broke.");
    void queue.finish("f.md", null); // retried and done
    void queue.finish("old1.md", null);
    await queue.settled();
    expect(queue.pending.map((n) => n.notePath)).toEqual(["old2.md"]);
    expect(queue.failed).toEqual([{ notePath: "new.md", reason: "It broke.", at: "2026-12-01T00:00:00.000Z" }]);
    expect(await saved(store)).toEqual({ version: 1, pending: [{ notePath: "old2.md", force: true }], failed: queue.failed });
  });

  it("takes the previous session's failed notes even when asked before the load", async () => {
    const store = await previousSession();
    const queue = new QueueStore(store, NOW);
    expect((await queue.takeFailed()).map((n) => n.notePath)).toEqual(["f.md"]);
    expect((await saved(store)).failed).toEqual([]);
    expect((await saved(store)).pending).toEqual(PREVIOUS.pending);
  });

  it("reads queue.json once, however many callers load it", async () => {
    const store = await previousSession();
    let reads = 0;
    const read = store.read.bind(store);
    store.read = (key: string) => {
      reads += 1;
      return read(key);
    };
    const queue = new QueueStore(store, NOW);
    await Promise.all([queue.load(), queue.load(), queue.add([]), queue.finish("x.md", null)]);
    expect(reads).toBe(1);
  });

  it("still says once that a damaged file was started afresh, to the caller of load", async () => {
    const store = new MemoryStateStore();
    await store.write(QUEUE_KEY, "{not json");
    const queue = new QueueStore(store, NOW);
    void queue.add([{ notePath: "new.md", force: false }]);
    expect(await queue.load()).toMatch(/could not be read/);
    await queue.settled();
    expect((await saved(store)).pending).toEqual([{ notePath: "new.md", force: false }]);
  });
});
