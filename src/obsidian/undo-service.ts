/**
 * "Undo last ingest or change" in Obsidian: reverts the last run through the one write path. When
 * the user edited files since that run, it asks first (listing them) and never discards an edit
 * unasked. The run is named with its device, as the CLI names it.
 */
import { Notice, type App } from "obsidian";
import { messageOn, toSynapseError } from "../core/errors";
import type { WriteContext } from "../write/apply";
import { effectiveWikiFolder } from "../wiki/page-paths";
import { describeRunForUndo } from "../write/run-description";
import { previewUndo, undoLastRun } from "../write/undo";
import { ConfirmModal } from "../ui/confirm-modal";
import { undoEditsQuestion } from "../ui/confirm-questions";
import { ObsidianVault } from "./obsidian-vault";

export type ConfirmUndo = (what: string, files: readonly string[]) => Promise<boolean>;

export function confirmWithModal(app: App): ConfirmUndo {
  return (what, files) => new Promise((resolve) => new ConfirmModal(app, undoEditsQuestion(what, files), resolve).open());
}

export async function undoLastChange(app: App, write: WriteContext, wikiFolder: string, confirm: ConfirmUndo): Promise<void> {
  const vault = new ObsidianVault(app);
  try {
    const preview = await previewUndo(vault, write);
    if (!preview) {
      new Notice("Nothing to undo.");
      return;
    }
    const { run, conflicts } = preview;
    const what = describeRunForUndo(run);
    if (conflicts.length > 0 && !(await confirm(what, conflicts))) {
      new Notice(`Nothing was undone; ${conflicts.length} edited file${conflicts.length === 1 ? " was" : "s were"} kept.`);
      return;
    }
    const outcome = await undoLastRun(vault, write, { wikiFolder: effectiveWikiFolder(wikiFolder), force: conflicts.length > 0, confirmed: { runId: run.id, conflicts } });
    const changed = outcome?.result.changes.filter((c) => c.action !== "unchanged").length ?? 0;
    new Notice(`Undid ${what}: ${changed} file${changed === 1 ? "" : "s"} restored.`, 8000);
  } catch (error) {
    new Notice(`Synapse could not undo: ${messageOn(toSynapseError(error, "vault"), "plugin")}`, 15000);
  }
}
