/**
 * A vault event that reaches the index service after its index closed — the plugin unloaded, or
 * the index reopening for new settings — never asks the closed index (its worker has gone: the
 * request would be refused, an unhandled rejection in Obsidian's console). While the index reopens
 * the change waits and the next index applies it.
 */
import { App } from "obsidian-test-mocks/obsidian";
import { describe, expect, it, vi } from "vitest";
import { IndexService } from "../../src/obsidian/index-service";
import { DEFAULT_SETTINGS, type Settings } from "../../src/settings/schema";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { eventually, nextMacrotask } from "../helpers/eventually";
import { inProcessWorker } from "../helpers/in-process-worker";
import { readyIndex } from "../helpers/index-internals";

function service(app: App, settings: () => Settings = () => DEFAULT_SETTINGS): IndexService {
  const svc = new IndexService({
    app: app.asOriginalType__(),
    worker: inProcessWorker(),
    store: new MemoryStateStore(),
    settings,
    status: () => undefined,
    flushDelayMs: 0,
    updateDelayMs: 0,
    reopenDelayMs: 0,
  });
  app.vault.on("delete", (file) => svc.deleted(file));
  app.vault.on("rename", (file, oldPath) => svc.renamed(file, oldPath as string));
  return svc;
}

describe("vault events after the index closed", () => {
  it("are not sent to the closed index once the service is disposed", async () => {
    const app = App.createConfigured__({ files: { "notes/A.md": "# A\n\nApples.\n", "notes/B.md": "# B\n\nBananas.\n" } });
    const svc = service(app);
    svc.start();
    const door = await svc.ready();
    if (!door) throw new Error("no index");
    const apply = vi.spyOn(door, "apply");
    await svc.dispose();

    await app.fileManager.trashFile(app.vault.getFileByPath("notes/A.md") as never);
    await app.fileManager.renameFile(app.vault.getFileByPath("notes/B.md") as never, "notes/C.md");
    await nextMacrotask();
    expect(apply).not.toHaveBeenCalled();
  });

  it("wait while the index reopens, and the reopened index has them", async () => {
    const app = App.createConfigured__({ files: { "notes/A.md": "# A\n\nApples.\n", "private/P.md": "# P\n\nPears.\n" } });
    let settings: Settings = DEFAULT_SETTINGS;
    const svc = service(app, () => settings);
    svc.start();
    const first = await svc.ready();
    if (!first) throw new Error("no index");
    const apply = vi.spyOn(first, "apply");

    // New settings: asking for the index reopens it at once; the note goes while the old one closes.
    settings = { ...DEFAULT_SETTINGS, excludedFolders: ["private"] };
    const reopening = readyIndex(svc);
    await app.fileManager.trashFile(app.vault.getFileByPath("notes/A.md") as never);
    const reopened = await reopening;
    expect(reopened).not.toBe(first);
    await eventually(() => expect(reopened?.stateOf("notes/A.md")).toBeUndefined());
    expect(apply).not.toHaveBeenCalled();
    await svc.dispose();
  });
});
