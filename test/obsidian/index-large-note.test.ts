/**
 * A large note edited in Obsidian is indexed again by the index's worker, and a note deleted or
 * edited again while the worker prepares its text leaves nothing stale in the index. The test acts
 * when the worker, its text prepared, asks the main thread whether the note is still current: an
 * event, never a timing.
 */
import { App } from "obsidian-test-mocks/obsidian";
import { describe, expect, it } from "vitest";
import { IndexService } from "../../src/obsidian/index-service";
import { tokenize } from "../../src/core/tokenize";
import { DEFAULT_SETTINGS } from "../../src/settings/schema";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { eventually } from "../helpers/eventually";
import { readyIndex } from "../helpers/index-internals";
import type { Call } from "../../src/retrieval/worker/protocol";
import { inProcessWorker } from "../helpers/in-process-worker";

/** About `chars` characters of prose in sections and paragraphs, with `word` in every paragraph. */
function largeNote(chars: number, word: string): string {
  const parts: string[] = ["# Large\n\n"];
  let length = 0;
  for (let i = 0; length < chars; i++) {
    const part = `${word} sentence ${i} of words numbered ${i % 997}.${i % 40 === 0 ? "\n\n" : " "}${i % 2000 === 0 ? `\n## Section ${i}\n\n` : ""}`;
    parts.push(part);
    length += part.length;
  }
  return parts.join("");
}

/** A service whose worker runs `counted.onStillCurrent` when it asks whether a prepared note is still current. */
function service(app: App) {
  const counted = { onStillCurrent: null as (() => Promise<void>) | null };
  const onCall = async (call: Call) => {
    const hook = counted.onStillCurrent;
    if (call.service === "stillCurrent" && hook) await hook();
  };
  const index = new IndexService({
    app: app.asOriginalType__(),
    worker: inProcessWorker({ onCall }),
    store: new MemoryStateStore(),
    settings: () => DEFAULT_SETTINGS,
    status: () => undefined,
    flushDelayMs: 0,
    updateDelayMs: 0,
    reopenDelayMs: 0,
  });
  return { index, counted };
}

/** The indexed notes holding a word, once the changes waiting are applied. */
async function holding(index: IndexService, word: string): Promise<string[]> {
  await index.retriever();
  const opened = await readyIndex(index);
  if (!opened) throw new Error("The index did not open.");
  return [...new Set(opened.text.search(tokenize(word), 10, () => true).map((h) => h.path))];
}

describe("a large note in Obsidian", () => {
  it("is indexed again when it is modified: its new words found, its old ones gone", async () => {
    const app = App.createConfigured__({ files: { "notes/Large.md": largeNote(512 * 1024, "lighthouse"), "notes/Small.md": "# Small\n\nA buoy.\n" } });
    const { index } = service(app);
    index.start();
    await readyIndex(index);
    expect(await holding(index, "lighthouse")).toEqual(["notes/Large.md"]);

    await app.vault.modify(app.vault.getFileByPath("notes/Large.md") as never, largeNote(512 * 1024, "harbour"));
    index.changed(app.vault.getFileByPath("notes/Large.md"));
    await eventually(async () => expect(await holding(index, "harbour")).toEqual(["notes/Large.md"]));
    expect(await holding(index, "lighthouse")).toEqual([]);
    await index.dispose();
  });

  it("leaves nothing of a note deleted while its new text is being read", async () => {
    const app = App.createConfigured__({ files: { "notes/Large.md": "# Large\n\nA short note at first.\n", "notes/Small.md": "# Small\n\nA buoy.\n" } });
    const { index, counted } = service(app);
    index.start();
    await readyIndex(index);

    let deleted = false;
    counted.onStillCurrent = async () => {
      if (deleted) return;
      deleted = true;
      const file = app.vault.getFileByPath("notes/Large.md");
      await app.fileManager.trashFile(file as never);
      index.deleted(file);
    };
    await app.vault.modify(app.vault.getFileByPath("notes/Large.md") as never, largeNote(256 * 1024, "harbour"));
    index.changed(app.vault.getFileByPath("notes/Large.md"));
    await eventually(() => expect(deleted).toBe(true));
    counted.onStillCurrent = null;
    expect(await holding(index, "harbour")).toEqual([]);
    expect(await holding(index, "first")).toEqual([]);
    expect((await readyIndex(index))?.stateOf("notes/Large.md")).toBeUndefined();
    await index.dispose();
  });

  it("indexes the newest text of a note edited again while its text is being read", async () => {
    const app = App.createConfigured__({ files: { "notes/Large.md": "# Large\n\nA short note at first.\n" } });
    const { index, counted } = service(app);
    index.start();
    await readyIndex(index);

    let edited = false;
    counted.onStillCurrent = async () => {
      if (edited) return;
      edited = true;
      const file = app.vault.getFileByPath("notes/Large.md");
      await app.vault.modify(file as never, "# Large\n\nThe newest text, about a lantern.\n");
      index.changed(file);
    };
    await app.vault.modify(app.vault.getFileByPath("notes/Large.md") as never, largeNote(256 * 1024, "harbour"));
    index.changed(app.vault.getFileByPath("notes/Large.md"));
    await eventually(async () => expect(await holding(index, "lantern")).toEqual(["notes/Large.md"]));
    counted.onStillCurrent = null;
    expect(await holding(index, "harbour")).toEqual([]);
    await index.dispose();
  });
});
