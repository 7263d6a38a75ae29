/**
 * The journal of the run in progress (`journal/current.json` in the StateStore) and how to roll it
 * back. `applyPlan` writes it before the first file changes; while it exists, a run was (or is
 * being) applied. Rolling back restores every file to what it held before, file by file, and only
 * where the file still holds what the run wrote or held before: a file someone changed since the
 * crash is kept as it is and named. Every restore is checked against the file at the moment it is
 * written (`replaceIfUnchanged`, `removeIfUnchanged`), so a save made while it runs is kept too.
 */
import type { StateStore } from "../vault/state-store";
import type { VaultPort } from "../vault/vault-port";
import { contentHash } from "./content-hash";
import { applyLineChange, revertLineChange } from "./line-changes";
import { hasRun } from "./run-history";
import { JournalSchema, parseRecord, type JournalEntry } from "./write-records";

export const JOURNAL_KEY = "journal/current.json";

async function readOrNull(vault: VaultPort, path: string): Promise<string | null> {
  return (await vault.stat(path)) ? vault.read(path) : null;
}

/** Restores a record of the StateStore, unless something else wrote it since. */
async function rollBackState(store: StateStore, entry: Extract<JournalEntry, { kind: "state" }>): Promise<boolean> {
  const current = await store.read(entry.key);
  if (current === entry.previous) return true;
  if (current !== null && (entry.nextHash === null || contentHash(current) !== entry.nextHash)) return false;
  if (entry.previous === null) await store.remove(entry.key);
  else await store.write(entry.key, entry.previous);
  return true;
}

/** The vault file or state key an entry is about. */
export function entryName(entry: JournalEntry): string {
  return entry.kind === "state" ? entry.key : entry.path;
}

function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** Undoes one journal entry; returns false when the file holds something else and was left alone. */
async function rollBackEntry(vault: VaultPort, store: StateStore, entry: JournalEntry): Promise<boolean> {
  if (entry.kind === "state") return rollBackState(store, entry);
  const current = await readOrNull(vault, entry.path);
  if (entry.kind === "append") {
    if (current === null) return true;
    const { text, sizeBefore } = entry;
    if (sizeBefore !== undefined) {
      const size = byteLength(current);
      if (size === sizeBefore) return true; // never appended (the crash came first)
      if (size === sizeBefore + byteLength(text) && current.endsWith(text)) {
        return vault.replaceIfUnchanged(entry.path, current, current.slice(0, current.length - text.length));
      }
    }
    // Written since (or a journal without the size): the last copy of the text is the one appended.
    const at = current.lastIndexOf(text);
    if (at === -1) return true; // never appended (the crash came first)
    return vault.replaceIfUnchanged(entry.path, current, current.slice(0, at) + current.slice(at + text.length));
  }
  if (entry.kind === "lines") {
    if (current === null) return false; // removed since: there is nothing to take the lines out of
    if (applyLineChange(current, entry.change) !== null) return true; // not written yet
    const before = revertLineChange(current, entry.change);
    if (before === null) return false; // someone else's content
    return vault.replaceIfUnchanged(entry.path, current, before);
  }
  const { previous, nextHash } = entry;
  if (current === previous) return true; // not written yet, or already restored
  if (current === null) {
    // The run removed it (or it vanished since): bring it back.
    if (previous !== null) await vault.create(entry.path, previous);
    return true;
  }
  if (nextHash === null || contentHash(current) !== nextHash) return false; // someone else's content
  if (previous === null) return vault.removeIfUnchanged(entry.path, current);
  return vault.replaceIfUnchanged(entry.path, current, previous);
}

/** Rolls entries back, last first; returns the paths it could not restore. */
export async function rollBackEntries(vault: VaultPort, store: StateStore, entries: readonly JournalEntry[]): Promise<string[]> {
  const failed: string[] = [];
  for (const entry of [...entries].reverse()) {
    try {
      if (!(await rollBackEntry(vault, store, entry))) failed.push(entryName(entry));
    } catch {
      failed.push(entryName(entry));
    }
  }
  return failed;
}

export type JournalOutcome =
  | { readonly status: "none" }
  /** The run had finished (its history record exists); only the journal was left. */
  | { readonly status: "completed"; readonly runId: string }
  | { readonly status: "rolled-back"; readonly runId: string; readonly label: string; readonly operation: string; readonly files: readonly string[]; readonly kept: readonly string[] }
  /** The journal could not be read; it was set aside under this key for a person to look at. */
  | { readonly status: "unreadable"; readonly movedTo: string; readonly reason: string };

/**
 * Finishes or rolls back the run a journal describes. The caller holds the write lock, so the
 * journal belongs to a writer that is gone.
 */
export async function rollBackJournal(vault: VaultPort, store: StateStore): Promise<JournalOutcome> {
  const text = await store.read(JOURNAL_KEY);
  if (text === null) return { status: "none" };
  const parsed = parseRecord(JournalSchema, text);
  if (!parsed.ok) {
    const movedTo = `journal/unreadable-${Date.now()}.json`;
    await store.write(movedTo, text);
    await store.remove(JOURNAL_KEY);
    return { status: "unreadable", movedTo, reason: parsed.reason };
  }
  const journal = parsed.value;
  if (await hasRun(store, journal.runId)) {
    await store.remove(JOURNAL_KEY);
    return { status: "completed", runId: journal.runId };
  }
  const kept = await rollBackEntries(vault, store, journal.entries);
  await store.remove(JOURNAL_KEY);
  return {
    status: "rolled-back",
    runId: journal.runId,
    label: journal.label,
    operation: journal.operation,
    files: journal.entries.flatMap((e) => (e.kind === "state" ? [] : [e.path])),
    kept,
  };
}
