/**
 * The journal of the run in progress (`journal/<device>.json` in the StateStore, one per device:
 * see `writer-device.ts`) and how to roll it back. `applyPlan` writes it before the first file changes; while it exists, a run was (or is
 * being) applied. Rolling back restores every file to what it held before, file by file, and only
 * where the file still holds what the run wrote or held before: a file someone changed since the
 * crash is kept as it is and named. Every restore is checked against the file at the moment it is
 * written (`replaceIfUnchanged`, `removeIfUnchanged`), so a save made while it runs is kept too.
 */
import { plural } from "../core/plural";
import type { StateStore } from "../vault/state-store";
import type { VaultPort } from "../vault/vault-port";
import { contentHash } from "../core/content-hash";
import { applyLineChange, revertLineChange } from "./line-changes";
import { hasRun } from "./run-history";
import { JournalSchema, parseRecord, type Journal, type JournalEntry, type WriterIdentity } from "./write-records";
import { deviceName, isJournalKey, isLegacyRecordOf, journalKeyOf, JOURNAL_FOLDER, LEGACY_JOURNAL_KEY } from "./writer-device";

/** The journal of a writer that names no device, and of earlier versions. */
export const JOURNAL_KEY = LEGACY_JOURNAL_KEY;

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
  /** The journal could not be read, or was another vault's; it was set aside under this key for a person to look at. */
  | { readonly status: "unreadable"; readonly movedTo: string; readonly reason: string };

/** The writer's own journal, stamped with the vault it writes (see `vault-id.ts`). */
export interface JournalOwner {
  readonly writer: WriterIdentity;
  /** This vault's id; a journal naming another vault is never rolled back against this one. */
  readonly vaultId?: string;
}

async function setAside(store: StateStore, key: string, text: string, reason: string): Promise<JournalOutcome> {
  const movedTo = `${JOURNAL_FOLDER}/unreadable-${Date.now()}.json`;
  await store.write(movedTo, text);
  await store.remove(key);
  return { status: "unreadable", movedTo, reason };
}

/**
 * Finishes or rolls back the run this device's journal describes, or else the previous version's
 * journal when this device wrote it (see `isLegacyRecordOf`). The caller holds this device's write
 * lock (which judges the previous version's lock too), so the journal belongs to a writer that is
 * gone. Another device's journal is never touched here (see `foreignJournals`).
 */
export async function rollBackJournal(vault: VaultPort, store: StateStore, owner: JournalOwner): Promise<JournalOutcome> {
  const outcome = await rollBackJournalAt(vault, store, owner, journalKeyOf(owner.writer));
  if (outcome.status !== "none" || journalKeyOf(owner.writer) === LEGACY_JOURNAL_KEY) return outcome;
  // A crash of the previous version on this device, left under the key every device shared then.
  return rollBackJournalAt(vault, store, owner, LEGACY_JOURNAL_KEY);
}

async function rollBackJournalAt(vault: VaultPort, store: StateStore, owner: JournalOwner, key: string): Promise<JournalOutcome> {
  const legacy = key !== journalKeyOf(owner.writer);
  const text = await store.read(key);
  if (text === null) return { status: "none" };
  const parsed = parseRecord(JournalSchema, text);
  // Another device's, or one that does not parse (whose device cannot be told): reported, not touched.
  if (legacy && !(parsed.ok && isLegacyRecordOf(parsed.value.writer, owner.writer))) return { status: "none" };
  if (!parsed.ok) return setAside(store, key, text, parsed.reason);
  const journal = parsed.value;
  const { vault: wroteIn } = journal.writer;
  if (wroteIn !== undefined && owner.vaultId !== undefined && wroteIn !== owner.vaultId) {
    return setAside(store, key, text, "it is the journal of another vault, whose state folder was copied here");
  }
  if (await hasRun(store, journal.runId)) {
    await store.remove(key);
    return { status: "completed", runId: journal.runId };
  }
  const kept = await rollBackEntries(vault, store, journal.entries);
  await store.remove(key);
  return {
    status: "rolled-back",
    runId: journal.runId,
    label: journal.label,
    operation: journal.operation,
    files: journal.entries.flatMap((e) => (e.kind === "state" ? [] : [e.path])),
    kept,
  };
}

/** A run another device (or an earlier version) left half-written, brought in by sync. */
export interface ForeignRun {
  /** Its journal's key: the owning device rolls it back when it next runs; lint can undo it here. */
  readonly key: string;
  readonly journal: Journal;
  /** "laptop", or "an unknown device" for a journal of an earlier version. */
  readonly device: string;
}

/**
 * Journals of other devices whose runs did not finish: never rolled back, removed or consumed here
 * (their device rolls them back, and that rollback syncs), only reported. One whose run was recorded
 * finished is no interrupted run, and one that does not parse is its own device's to set aside.
 */
export async function foreignJournals(store: StateStore, writer: WriterIdentity): Promise<ForeignRun[]> {
  const own = journalKeyOf(writer);
  const found: ForeignRun[] = [];
  for (const key of await store.list(JOURNAL_FOLDER)) {
    if (key === own || !isJournalKey(key)) continue;
    const text = await store.read(key);
    const parsed = text === null ? null : parseRecord(JournalSchema, text);
    if (!parsed?.ok || (await hasRun(store, parsed.value.runId))) continue;
    found.push({ key, journal: parsed.value, device: deviceName(parsed.value.writer) });
  }
  return found;
}

/** "A run interrupted on laptop (the ingest of “Note”, 300 files) …" for each foreign run. */
export function describeForeignRun(run: ForeignRun): string {
  const files = run.journal.entries.filter((e) => e.kind !== "state").length;
  return `A run interrupted on ${run.device} (the ${run.journal.operation} of “${run.journal.label}”, ${plural(files, "file")}) is in this vault's records: ${run.device} rolls it back when Synapse next runs there, or lint can undo it here`;
}
