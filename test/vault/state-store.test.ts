import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { NodeStateStore } from "../../src/vault/node-state-store";
import type { StateStore } from "../../src/vault/state-store";

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

async function nodeStore(): Promise<StateStore> {
  const root = await mkdtemp(join(tmpdir(), "synapse-state-"));
  roots.push(root);
  return new NodeStateStore(join(root, "state"));
}

describe.each([
  ["file system", nodeStore],
  ["memory", () => Promise.resolve(new MemoryStateStore())],
] as const)("StateStore on %s", (_name, make) => {
  it("reads back what it wrote, text and bytes, and null for a missing key", async () => {
    const store = await make();
    expect(await store.read("journal/current.json")).toBeNull();
    await store.write("journal/current.json", '{"a":1}');
    await store.write("index/vec-0.bin", new Uint8Array([1, 2, 255]));
    expect(await store.read("journal/current.json")).toBe('{"a":1}');
    expect([...((await store.readBytes("index/vec-0.bin")) ?? [])]).toEqual([1, 2, 255]);
  });

  it("appends, lists a prefix recursively and sorted, and removes", async () => {
    const store = await make();
    await store.append("history/log.ndjson", "a\n");
    await store.append("history/log.ndjson", "b\n");
    await store.write("history/runs/2.json", "2");
    await store.write("history/runs/1.json", "1");
    await store.write("other.json", "x");
    expect(await store.read("history/log.ndjson")).toBe("a\nb\n");
    expect(await store.list("history")).toEqual(["history/log.ndjson", "history/runs/1.json", "history/runs/2.json"]);
    await store.remove("history/runs/1.json");
    await store.remove("history/never.json");
    expect(await store.list("history")).toEqual(["history/log.ndjson", "history/runs/2.json"]);
  });

  it("creates a key exclusively only once", async () => {
    const store = await make();
    const results = await Promise.all([1, 2, 3, 4].map((n) => store.createExclusive("lock.json", `owner ${n}`)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await store.createExclusive("lock.json", "late")).toBe(false);
  });

  it("refuses keys that would leave the store", async () => {
    const store = await make();
    for (const key of ["", "../x", "a/../../x", "/abs", "a//b", "C:/x"]) {
      await expect(store.read(key)).rejects.toThrow(/Invalid state key/);
    }
  });
});

describe("NodeStateStore", () => {
  it("gives a key's size in bytes without reading it, and null for a missing key or a folder", async () => {
    const store = (await nodeStore()) as NodeStateStore;
    await store.write("index/text-00.bin", new Uint8Array(1234));
    await store.write("notes/é.json", "héllo");
    expect(await store.sizeOf("index/text-00.bin")).toBe(1234);
    expect(await store.sizeOf("notes/é.json")).toBe(6);
    expect(await store.sizeOf("index/missing.bin")).toBeNull();
    expect(await store.sizeOf("index")).toBeNull();
  });

  it("leaves no temporary files behind after writes", async () => {
    const store = (await nodeStore()) as NodeStateStore;
    for (let i = 0; i < 5; i++) await store.write("a/b.json", `v${i}`);
    expect(await readdir(join(store.root, "a"))).toEqual(["b.json"]);
  });
});
