/**
 * Obsidian closed in the middle of a state write leaves the write's temporary file: the plugin's
 * store removes it at the next listing of its folder once stale, and leaves a fresh one, as the
 * CLI's store does (test/vault/state-store-temp.test.ts).
 */
import { App } from "obsidian-test-mocks/obsidian";
import { expect, it } from "vitest";
import { ObsidianStateStore } from "../../src/obsidian/obsidian-state-store";
import { STALE_TEMP_MS } from "../../src/vault/state-store";

it("removes the stale temporary files of interrupted writes when it lists their folder", async () => {
  const app = App.createConfigured__({ files: {} });
  const adapter = app.vault.adapter;
  const store = new ObsidianStateStore(adapter, ".obsidian/plugins/synapse/state");
  await store.write("index/text-00.bin", new Uint8Array([1]));
  const folder = ".obsidian/plugins/synapse/state/index";
  await adapter.write(`${folder}/text-01.bin.0a1b2c3d.tmp`, "half a shard", { mtime: Date.now() - STALE_TEMP_MS - 60_000 });
  await adapter.write(`${folder}/text-02.bin.abcdefab.tmp`, "a write under way");

  expect(await store.list("index")).toEqual(["index/text-00.bin"]);
  expect((await adapter.list(folder)).files.sort()).toEqual([`${folder}/text-00.bin`, `${folder}/text-02.bin.abcdefab.tmp`]);
});
