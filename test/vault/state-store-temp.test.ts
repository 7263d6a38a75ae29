/**
 * A process killed in the middle of a write (SIGKILL, a crash) leaves the write's temporary file:
 * the next listing of its folder removes it once it is stale, and leaves a fresh one — another
 * process may be writing it right now. The plugin's store: test/obsidian/state-store-temp.test.ts.
 */
import { mkdtemp, readdir, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { NodeStateStore, STALE_TEMP_MS } from "../../src/vault/node-state-store";

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

it("removes the temporary files of interrupted writes once stale, when it lists their folder", async () => {
  const root = await mkdtemp(join(tmpdir(), "synapse-state-"));
  roots.push(root);
  const store = new NodeStateStore(join(root, "state"));
  await store.write("index/text-00.bin", new Uint8Array([1]));
  const folder = join(root, "state", "index");
  const stale = join(folder, "text-01.bin.0a1b2c3d4e5f.tmp");
  const fresh = join(folder, "text-02.bin.abcdefabcdef.tmp");
  await writeFile(stale, "half a shard");
  await writeFile(fresh, "a write under way");
  const old = new Date(Date.now() - STALE_TEMP_MS - 60_000);
  await utimes(stale, old, old);

  expect(await store.list("index")).toEqual(["index/text-00.bin"]);
  expect((await readdir(folder)).sort()).toEqual(["text-00.bin", "text-02.bin.abcdefabcdef.tmp"]);
});
