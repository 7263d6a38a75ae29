/** The palette commands and the ribbon button. No default hotkeys: the user assigns their own. */
import { Notice, type App, type Plugin, type TFile, type TFolder } from "obsidian";
import { FolderSuggestModal } from "../ui/folder-suggest";
import type { IngestService } from "./ingest-service";

/** The note in the active view, when it is a Markdown note. */
export function activeMarkdownFile(app: App): TFile | null {
  const file = app.workspace.getActiveFile();
  return file && file.extension.toLowerCase() === "md" ? file : null;
}

/**
 * `ingestFolder` is what "Ingest notes in folder…" does with the folder picked: by default it is
 * queued; the plugin first offers a batch when the backend has a batch API (batch-commands.ts).
 */
export function registerCommands(plugin: Plugin, ingest: IngestService, ingestFolder: (folder: TFolder) => Promise<void> = (folder) => ingest.ingestFolder(folder)): void {
  const { app } = plugin;
  plugin.addCommand({
    id: "ingest-active-note",
    name: "Ingest active note",
    checkCallback: (checking) => {
      const file = activeMarkdownFile(app);
      if (!file) return false;
      if (!checking) void ingest.ingestFile(file);
      return true;
    },
  });
  plugin.addCommand({
    id: "reingest-active-note",
    name: "Re-ingest active note anyway",
    checkCallback: (checking) => {
      const file = activeMarkdownFile(app);
      if (!file) return false;
      if (!checking) void ingest.ingestFile(file, { force: true });
      return true;
    },
  });
  plugin.addCommand({
    id: "retry-failed-ingests",
    name: "Retry failed ingests",
    checkCallback: (checking) => {
      if (ingest.failed.length === 0) return false;
      if (!checking) void ingest.retryFailed();
      return true;
    },
  });
  plugin.addCommand({
    id: "show-failed-ingests",
    name: "Show failed ingests",
    callback: () => ingest.showFailed(),
  });
  plugin.addCommand({
    id: "ingest-folder",
    name: "Ingest notes in folder…",
    callback: () => new FolderSuggestModal(app, (folder) => void ingestFolder(folder)).open(),
  });
  plugin.addCommand({
    id: "cancel-ingest",
    name: "Cancel running ingest",
    checkCallback: (checking) => {
      if (ingest.queue.runningKey === null) return false;
      if (!checking && ingest.cancel()) new Notice("Cancelling the running ingest…");
      return true;
    },
  });
  plugin.addRibbonIcon("brain-circuit", "Ingest active note", () => {
    const file = activeMarkdownFile(app);
    if (!file) {
      new Notice("Open a Markdown note to ingest it.");
      return;
    }
    void ingest.ingestFile(file);
  });
}
