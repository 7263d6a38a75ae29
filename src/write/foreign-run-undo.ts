/**
 * Undoing, on this device, a run another device left half-written (its journal brought in by sync:
 * see `foreignJournals`). Its own device would roll it back when it next runs; a user here may not
 * want to wait (the device is lost, or rarely opened). The undo is an ordinary run of the write
 * path — planned here, journaled, logged, recorded and undoable — that gives back what the journal
 * says each file held before, only where the file still holds what the run wrote, and takes the
 * journal away with it (that removal syncs, so the owning device finds nothing left to roll back).
 */
import { SynapseError } from "../core/errors";
import type { VaultPort } from "../vault/vault-port";
import { applyPlan, type ApplyResult, type WriteContext } from "./apply";
import { contentHash } from "../core/content-hash";
import { foreignJournals, type ForeignRun } from "./journal";
import { revertLineChange } from "./line-changes";
import type { PlannedChange, PlannedStateChange } from "./planned-change";
import type { JournalEntry } from "./write-records";

async function readOrNull(vault: VaultPort, path: string): Promise<string | null> {
  return (await vault.stat(path)) ? vault.read(path) : null;
}

function typeOf(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1).toLowerCase();
  return name === "index.md" ? "index" : name === "log.md" ? "log" : "page";
}

function changed(path: string): SynapseError {
  return new SynapseError("vault", `"${path}" changed while the interrupted run was being undone; nothing was undone.`);
}

/** The change that gives one file back what it held before the run, or null when the run left it as it was (or someone changed it since). */
async function fileChange(vault: VaultPort, entry: Exclude<JournalEntry, { kind: "state" }>): Promise<PlannedChange | null> {
  const current = await readOrNull(vault, entry.path);
  const base = { path: entry.path, type: typeOf(entry.path), title: entry.path };
  const replace = (next: string): PlannedChange => ({
    ...base,
    action: "updated",
    update: (now) => {
      if (now !== current) throw changed(entry.path);
      return { content: next, action: "updated" };
    },
  });
  if (entry.kind === "append") {
    const at = current === null ? -1 : current.lastIndexOf(entry.text);
    return current === null || at === -1 ? null : replace(current.slice(0, at) + current.slice(at + entry.text.length));
  }
  if (entry.kind === "lines") {
    const before = current === null ? null : revertLineChange(current, entry.change);
    return before === null || before === current ? null : replace(before);
  }
  if (current === entry.previous) return null;
  if (current === null) return entry.previous === null ? null : { ...base, action: "created", create: entry.previous };
  if (entry.nextHash === null || contentHash(current) !== entry.nextHash) return null; // someone else's content
  return entry.previous === null ? { ...base, action: "removed", remove: { expected: current } } : replace(entry.previous);
}

function stateChange(entry: Extract<JournalEntry, { kind: "state" }>): PlannedStateChange {
  return { key: entry.key, update: (current) => (current !== null && entry.nextHash !== null && contentHash(current) === entry.nextHash ? entry.previous : current) };
}

export interface ForeignUndoOutcome {
  readonly run: ForeignRun;
  readonly result: ApplyResult;
}

/** Undoes the interrupted run whose journal is under `key` (another device's), through the write path. */
export async function undoForeignRun(vault: VaultPort, context: WriteContext & { readonly wikiFolder: string; readonly now?: () => number }, key: string): Promise<ForeignUndoOutcome> {
  const run = (await foreignJournals(context.store, context.writer)).find((r) => r.key === key);
  if (!run) throw new SynapseError("input", `No run interrupted on another device is recorded under "${key}"; it was rolled back or undone already.`);
  const changes: PlannedChange[] = [];
  const state: PlannedStateChange[] = [];
  for (const entry of [...run.journal.entries].reverse()) {
    if (entry.kind === "state") state.push(stateChange(entry));
    else {
      const change = await fileChange(vault, entry);
      if (change) changes.push(change);
    }
  }
  const journalText = await context.store.read(key);
  state.push({ key, update: (current) => (current === journalText ? null : current) });
  const result = await applyPlan(vault, changes, {
    ...context,
    operation: "undo",
    label: run.journal.label,
    wikiFolder: context.wikiFolder,
    maintainIndex: false,
    state,
    logDetails: [`undid the ${run.journal.operation} interrupted on ${run.device}`],
    ...(context.now ? { now: context.now } : {}),
  });
  return { run, result };
}

