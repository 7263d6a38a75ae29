/**
 * Undo: reverts the last run that changed the vault (and, run again, the one before), byte for
 * byte — files it changed get their earlier content back, pages it created go, pages it removed
 * return. A file the user edited after that run is a conflict: it is listed, and undo goes ahead
 * only when the caller says so (the plugin asks; the CLI refuses). index.md is never a conflict: if
 * it was edited since, only the lines of the pages concerned change. log.md only grows: the undo is
 * appended to it as `## [date] undo | <label>`. Synapse's records the run changed with its files (a
 * contradiction's status, a note's registry entry) go back too, in the same undo run.
 */
import { SynapseError } from "../core/errors";
import type { VaultPort } from "../vault/vault-port";
import { applyPlan, type ApplyResult, type WriteContext } from "./apply";
import { editIndex, indexPath } from "./index-log";
import type { PlannedChange } from "./planned-change";
import { lastUndoableRun, readHistory } from "./run-history";
import { revertLineChange } from "./line-changes";
import { revertState } from "./state-revert";
import { isLinesRunFile, type RunFile, type RunRecord, type WholeRunFile } from "./write-records";

export interface UndoPreview {
  readonly run: RunRecord;
  /** Files edited since the run (their content is not what the run left). */
  readonly conflicts: readonly string[];
}

async function readOrNull(vault: VaultPort, path: string): Promise<string | null> {
  return (await vault.stat(path)) ? vault.read(path) : null;
}

/** The run the next undo reverts and the files edited since, or null when there is nothing to undo. */
export async function previewUndo(vault: VaultPort, context: Pick<WriteContext, "store" | "writer">): Promise<UndoPreview | null> {
  const { runs } = await readHistory(context.store);
  const run = lastUndoableRun(runs, context.writer);
  if (!run) return null;
  const conflicts: string[] = [];
  for (const file of run.files) {
    if (file.type === "index" && (isLinesRunFile(file) || file.before !== null)) continue; // edited lines are merged, not lost
    if (isLinesRunFile(file) || (await readOrNull(vault, file.path)) !== file.after) conflicts.push(file.path);
  }
  return { run, conflicts };
}

function changedSinceConfirmed(latest: RunRecord | null): SynapseError {
  const what = latest ? `the ${latest.operation} of “${latest.label}” is now the last change` : "there is nothing left to undo";
  return new SynapseError("vault", `The vault changed since the undo was confirmed (${what}); nothing was undone. Undo again to revert the last change.`);
}

function editedSince(path: string): SynapseError {
  return new SynapseError("vault", `"${path}" was edited after the run being undone; nothing was undone.`);
}

/** The change that brings one file back to what it held before the run. */
function revert(file: WholeRunFile, force: boolean): PlannedChange {
  const base = { path: file.path, type: file.type, title: file.title };
  const { before, after } = file;
  if (before === null) return { ...base, action: "removed", remove: force || after === null ? {} : { expected: after } };
  const restore = (current: string) => {
    if (!force && current !== after) throw editedSince(file.path);
    return { content: before, action: "updated" as const };
  };
  return { ...base, action: after === null ? "created" : "updated", create: before, ...(after === null && !force ? {} : { update: restore }) };
}

/** index.md: back to its earlier bytes when untouched since, else only the affected lines. */
function revertIndex(file: RunFile, pages: readonly WholeRunFile[]): PlannedChange {
  const edit = {
    remove: pages.filter((p) => p.before === null).map((p) => p.path),
    upsert: pages.filter((p) => p.before !== null).map((p) => ({ path: p.path, type: p.type, title: p.title })),
  };
  const base = { path: file.path, type: "index", title: file.title };
  if (isLinesRunFile(file)) {
    const { lines } = file;
    return { ...base, action: "updated", update: (current) => ({ content: revertLineChange(current, lines) ?? editIndex(current, edit), action: "updated" }) };
  }
  const { before, after } = file;
  if (before === null) return { ...base, action: "removed", remove: { expected: after ?? "" } };
  return { ...base, action: "updated", create: before, update: (current) => ({ content: current === after ? before : editIndex(current, edit), action: "updated" }) };
}

export interface UndoOptions {
  readonly wikiFolder: string;
  readonly now?: () => number;
  /** Undo even files edited since the run (the user confirmed); their later edits are lost. */
  readonly force?: boolean;
  /**
   * What the user confirmed: the run and the edited files they agreed to lose. Checked again once
   * the write lock is held; if another run landed meanwhile, or another file was edited since,
   * nothing is undone.
   */
  readonly confirmed?: { readonly runId: string; readonly conflicts: readonly string[] };
}

export interface UndoOutcome {
  readonly run: RunRecord;
  readonly result: ApplyResult;
}

/**
 * Reverts the last undoable run through the one write path (journaled, locked, logged). Throws a
 * `vault` error naming the edited files when there are conflicts and `force` is not set.
 */
export async function undoLastRun(vault: VaultPort, context: WriteContext, options: UndoOptions): Promise<UndoOutcome | null> {
  const preview = await previewUndo(vault, context);
  if (!preview) return null;
  const { run, conflicts } = preview;
  const { confirmed } = options;
  if (confirmed && confirmed.runId !== run.id) throw changedSinceConfirmed(run);
  if (conflicts.length > 0 && !options.force) {
    throw new SynapseError("vault", `These files were edited after the run being undone: ${conflicts.join(", ")}. Nothing was undone.`);
  }
  // Another writer may land a run between the preview and the lock: undo only what was previewed.
  const verify = async () => {
    const now = await previewUndo(vault, context);
    if (!now || now.run.id !== run.id) throw changedSinceConfirmed(now?.run ?? null);
    const agreed = new Set(confirmed?.conflicts ?? conflicts);
    const unseen = now.conflicts.filter((path) => !agreed.has(path));
    if (options.force && unseen.length > 0) {
      throw new SynapseError("vault", `These files were edited after you confirmed the undo: ${unseen.join(", ")}. Nothing was undone.`);
    }
  };
  // Only index.md is ever recorded as line changes; a page so recorded would be a record of another version.
  const pages = run.files.filter((f): f is WholeRunFile => f.type !== "index" && !isLinesRunFile(f));
  const recordedIndex = run.files.find((f) => f.type === "index" && f.path === indexPath(options.wikiFolder));
  // An index.md removed since has no lines to give back (the next ingest writes a new one).
  const index = recordedIndex && isLinesRunFile(recordedIndex) && !(await vault.stat(recordedIndex.path)) ? undefined : recordedIndex;
  const changes = [...pages.map((f) => revert(f, options.force === true)), ...(index ? [revertIndex(index, pages)] : [])];
  const result = await applyPlan(vault, changes, {
    ...context,
    operation: "undo",
    label: run.label,
    wikiFolder: options.wikiFolder,
    maintainIndex: false,
    undoes: run.id,
    verify,
    state: run.state.map(revertState),
    logDetails: [`undid the ${run.operation} of ${new Date(run.at).toISOString().slice(0, 16).replace("T", " ")} UTC`],
    ...(options.now ? { now: options.now } : {}),
  });
  return { run, result };
}
