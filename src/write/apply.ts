/**
 * The one write path. Every operation that changes the vault — ingest, query's "save as page",
 * lint's fixes, undo — hands its planned changes to `applyPlan` with who is writing and why:
 *
 * 1. take the vault's write lock (one writer per vault; a clear message naming the other writer);
 * 2. roll back a run that an earlier crash left half-done (its journal is still there) with the
 *    temporary files it left, and split a registry of ingested notes an earlier version kept whole
 *    (`migrateWholeRegistry`);
 * 3. read every target as it is now and compute its new content (a file nobody needs to change is
 *    not rewritten; a change that no longer fits — a file made or edited since it was planned —
 *    stops the run before anything is written);
 * 4. write the journal: every target with its previous content (or absence), enough to restore the
 *    vault wherever a crash strikes — index.md, which grows with the wiki, as the lines the run
 *    replaces, and log.md as the text appended, so that a run's records stay small however big the
 *    wiki is;
 * 5. apply the changes, index.md's affected lines and one log.md entry (appended), each checked
 *    against the file at the moment it is replaced or removed (`replaceIfUnchanged`,
 *    `removeIfUnchanged`): a save made since step 3 stops the run and is kept;
 * 6. record the run in the history (for undo), remove the journal, release the lock.
 *
 * A failure in step 5 rolls back what was written; a crash is rolled back by `recoverInterruptedRun`
 * at the next start. Either way the vault is whole: the run happened entirely or not at all.
 */
import { plural } from "../core/plural";
import { SynapseError, toSynapseError } from "../core/errors";
import type { StateStore } from "../vault/state-store";
import type { VaultPort } from "../vault/vault-port";
import { contentHash } from "../core/content-hash";
import { LOG_PREAMBLE, editIndexWithChange, indexPath, logEntryText, logPath, type IndexEdit } from "./index-log";
import type { ChangeAction, PlannedChange, PlannedStateChange } from "./planned-change";
import { reconcileIndex } from "./index-reconcile";
import { rollBackEntries, rollBackJournal } from "./journal";
import { lineChange, type LineChange } from "./line-changes";
import { newRunId, recordRun } from "./run-history";
import { migrateWholeRegistry } from "./source-registry-shards";
import { knownVaultId, NO_VAULT_ID, vaultIdOf } from "./vault-id";
import { acquireWriteLock } from "./write-lock";
import type { WriteContext } from "./write-context";
import type { Journal, JournalEntry, RunFile, WriteOperation } from "./write-records";
import { journalKeyOf } from "./writer-device";

export type { PlannedChange, PlannedStateChange } from "./planned-change";
export type { WriteContext } from "./write-context";


export interface ApplyRun extends WriteContext {
  readonly operation: WriteOperation;
  /** What the run is about: the source note's title, the question, "lint fixes", the undone run's label. */
  readonly label: string;
  readonly wikiFolder: string;
  readonly now?: () => number;
  /** Lines for the log.md entry after the pages: provider and model, tokens, cost. */
  readonly logDetails?: readonly string[];
  /**
   * Keep index.md in step with the page changes (default). Undo passes false and restores index.md
   * itself as one of its changes.
   */
  readonly maintainIndex?: boolean;
  /**
   * Every page of the wiki as listed before the run, when the caller has that listing: index lines
   * pointing at wiki pages that are gone are removed, and a page moved to another folder is relisted
   * where it now is.
   */
  readonly existingPages?: readonly string[];
  /** For an undo: the id of the run it reverts. */
  readonly undoes?: string;
  /**
   * Awaited once the write lock is held, before anything is read: throws to stop the run when what
   * the caller decided on is no longer so (undo checks that its run is still the last one).
   */
  readonly verify?: () => Promise<void>;
  /** Synapse's own records that change with the files (journaled, recorded and undone with them). */
  readonly state?: readonly PlannedStateChange[];
}

interface StateStep {
  readonly key: string;
  readonly previous: string | null;
  readonly next: string | null;
}

export interface AppliedChange {
  readonly path: string;
  readonly action: ChangeAction;
}

export interface ApplyResult {
  /** The run's id in the history, or null when no file needed to change (nothing recorded). */
  readonly runId: string | null;
  /** One per planned change, in order, with what applying it did. */
  readonly changes: readonly AppliedChange[];
}

interface Step {
  readonly path: string;
  readonly type: string;
  readonly title: string;
  readonly action: ChangeAction;
  /** null: the file did not exist. */
  readonly previous: string | null;
  /** null: the file is removed. */
  readonly next: string | null;
  /** For a file kept as line changes (index.md updated in place): the lines replaced. */
  readonly lines?: LineChange;
  /** `next` as the pieces it was put together from, written without joining them where the vault can. */
  readonly pieces?: readonly string[];
}

const BOOKKEEPING = new Set(["index", "log"]);

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

async function readOrNull(vault: VaultPort, path: string): Promise<string | null> {
  return (await vault.stat(path)) ? vault.read(path) : null;
}

function conflict(message: string): SynapseError {
  return new SynapseError("vault", `${message} Nothing was written; run it again to plan from the vault as it is now.`);
}

/** Judges one planned change against the file as it is now. */
async function stepFor(vault: VaultPort, change: PlannedChange): Promise<Step> {
  const previous = await readOrNull(vault, change.path);
  const base = { path: change.path, type: change.type, title: change.title, previous };
  if (change.remove) {
    if (previous === null) return { ...base, action: "unchanged", next: null };
    if (change.remove.expected !== undefined && previous !== change.remove.expected) {
      throw conflict(`"${change.path}" was edited after this change was planned, so it is not removed.`);
    }
    return { ...base, action: "removed", next: null };
  }
  if (previous === null) {
    if (change.create === undefined) throw conflict(`"${change.path}" no longer exists.`);
    return { ...base, action: "created", next: change.create };
  }
  if (!change.update) throw conflict(`"${change.path}" was created by someone else after this change was planned.`);
  const { content, action } = change.update(previous);
  return content === previous ? { ...base, action: "unchanged", next: previous } : { ...base, action, next: content };
}

function indexEditFor(steps: readonly Step[]): IndexEdit {
  const pages = steps.filter((s) => !BOOKKEEPING.has(s.type) && s.action !== "unchanged");
  return {
    upsert: pages.filter((s) => s.next !== null).map((s) => ({ path: s.path, type: s.type, title: s.title })),
    remove: pages.filter((s) => s.next === null).map((s) => s.path),
  };
}

/**
 * The listing the caller made may be older than the lock (another writer ran meanwhile): a line is
 * removed or moved only if its page is really gone now.
 */
async function confirmGone(vault: VaultPort, own: IndexEdit, reconciled: IndexEdit): Promise<IndexEdit> {
  const ownRemove = new Set(own.remove ?? []);
  const remove: string[] = [];
  for (const path of reconciled.remove ?? []) if (ownRemove.has(path) || !(await vault.stat(path))) remove.push(path);
  const move: { from: string; to: string }[] = [];
  for (const m of reconciled.move ?? []) if (!(await vault.stat(m.from))) move.push(m);
  return { ...reconciled, remove, move };
}

/**
 * index.md grows with the wiki: a change to it is kept as the lines replaced, not as two copies
 * (the lines the edit itself knew it replaced, else found by comparing the texts).
 */
function asLineChange(step: Step): Step {
  if (step.type !== "index" || step.previous === null || step.next === null || step.lines) return step;
  return { ...step, lines: lineChange(step.previous, step.next) };
}

function journalEntry(step: Step, append: { text: string; sizeBefore: number } | null): JournalEntry {
  if (append !== null) return { kind: "append", path: step.path, ...append };
  if (step.lines) return { kind: "lines", path: step.path, change: step.lines };
  return { kind: "write", path: step.path, previous: step.previous, nextHash: step.next === null ? null : contentHash(step.next) };
}

function stateEntry(step: StateStep): JournalEntry {
  return { kind: "state", key: step.key, previous: step.previous, nextHash: step.next === null ? null : contentHash(step.next) };
}

/** Each record's value before and after the run; several changes to one key compose, in order. */
async function stateStepsFor(store: StateStore, changes: readonly PlannedStateChange[], runId: string | null): Promise<StateStep[]> {
  const steps = new Map<string, { previous: string | null; next: string | null }>();
  for (const change of changes) {
    const known = steps.get(change.key);
    const previous = known ? known.previous : await store.read(change.key);
    steps.set(change.key, { previous, next: change.update(known ? known.next : previous, runId) });
  }
  return [...steps].filter(([, s]) => s.next !== s.previous).map(([key, s]) => ({ key, ...s }));
}

function runFile(step: Step): RunFile {
  const base = { path: step.path, type: step.type, title: step.title };
  if (step.lines) return { ...base, action: "updated", lines: step.lines };
  return { ...base, action: step.action === "unchanged" ? "updated" : step.action, before: step.previous, after: step.next };
}

/**
 * One file written, checked against the file as it is at that moment (not when the plan was made
 * or the step computed): a save that lands in between stops the run, never lost.
 */
async function writeStep(vault: VaultPort, step: Step, appendText: string | null): Promise<void> {
  if (appendText !== null) return vault.append(step.path, appendText);
  if (step.previous === null) {
    if (step.next !== null) await vault.create(step.path, step.next);
    return;
  }
  const changed = () => conflict(`"${step.path}" changed while Synapse was writing it, so your version is kept.`);
  if (step.next === null) {
    if (!(await vault.removeIfUnchanged(step.path, step.previous))) throw changed();
    return;
  }
  if (!(await vault.replaceIfUnchanged(step.path, step.previous, step.pieces ?? step.next))) throw changed();
}

interface Write {
  readonly name: string;
  readonly write: () => Promise<void>;
}

/**
 * Carries out the journal's writes in its order. A write that fails rolls back those already made
 * and removes the journal: the run happened entirely or not at all.
 */
async function writeJournaled(vault: VaultPort, run: ApplyRun, journal: Journal, writes: readonly Write[]): Promise<void> {
  await run.store.write(journalKeyOf(run.writer), JSON.stringify(journal));
  const done: JournalEntry[] = [];
  for (const [i, { name, write }] of writes.entries()) {
    try {
      await write();
    } catch (cause) {
      const failed = await rollBackEntries(vault, run.store, done);
      await run.store.remove(journalKeyOf(run.writer));
      const reason = toSynapseError(cause).message;
      const undo = failed.length === 0 ? `the ${plural(done.length, "change")} already made ${done.length === 1 ? "was" : "were"} undone` : `these files could not be restored: ${failed.join(", ")}`;
      throw new SynapseError("vault", `Writing "${name}" failed (${reason}); ${undo}.`, { cause });
    }
    const entryDone = journal.entries[i];
    if (entryDone) done.push(entryDone);
    await run.afterEachWrite?.(name);
  }
}

function stateWrite(store: StateStore, step: StateStep): Write {
  return { name: step.key, write: () => (step.next === null ? store.remove(step.key) : store.write(step.key, step.next)) };
}

/**
 * Records that only follow the files (`followsFiles`), when no file changes: written under the
 * lock and journaled until done — the journal names no recorded run, so a crash rolls them back —
 * but no run is recorded and nothing is logged.
 */
async function writeRecordsAlone(vault: VaultPort, run: ApplyRun, now: number): Promise<void> {
  const steps = await stateStepsFor(run.store, run.state ?? [], null);
  if (steps.length === 0) return;
  const journal: Journal = {
    version: 1,
    runId: `records-${now}-${Math.random().toString(36).slice(2, 8)}`,
    operation: run.operation,
    label: run.label,
    started: now,
    writer: run.writer,
    entries: steps.map(stateEntry),
  };
  await writeJournaled(vault, run, journal, steps.map((step) => stateWrite(run.store, step)));
  await run.store.remove(journalKeyOf(run.writer));
}

export async function applyPlan(vault: VaultPort, changes: readonly PlannedChange[], given: ApplyRun): Promise<ApplyResult> {
  const now = given.now ?? (() => Date.now());
  const lock = await acquireWriteLock(given.store, { ...given.lock, writer: given.writer, activity: `${given.operation} of “${given.label}”`, now });
  try {
    // A vault's id is made by its first write, not by a run that writes nothing.
    const knownVault = await knownVaultId(given.store);
    // A writer that died mid-run (its lock just taken over) left its temporary and set-aside files
    // beside its journal; start-up recovery deals with both, and so must a run that finds them.
    const owner = { writer: given.writer, vaultId: knownVault ?? NO_VAULT_ID };
    if ((await rollBackJournal(vault, given.store, owner)).status !== "none") await vault.removeStrayTempFiles(given.wikiFolder);
    await migrateWholeRegistry(given.store);
    await given.verify?.();
    const steps: Step[] = [];
    for (const change of changes) steps.push(await stepFor(vault, change));
    const changed = steps.filter((s) => s.action !== "unchanged");
    const result = (runId: string | null): ApplyResult => ({ runId, changes: steps.map((s) => ({ path: s.path, action: s.action })) });
    const state = given.state ?? [];
    if (changed.length === 0 && state.length === 0) return result(null);
    // The journal and the record name the vault too: sync may carry them into another copy.
    const run: ApplyRun = { ...given, writer: { ...given.writer, vault: knownVault ?? (await vaultIdOf(given.store)) } };
    if (changed.length === 0 && state.every((s) => s.followsFiles === true)) {
      await writeRecordsAlone(vault, run, now());
      return result(null);
    }
    const runId = await newRunId(run.store, now(), run.writer);
    const stateSteps = await stateStepsFor(run.store, state, runId);
    if (changed.length === 0 && stateSteps.length === 0) return result(null);

    const ordered = [...changed];
    if (run.maintainIndex !== false) {
      const path = indexPath(run.wikiFolder);
      if (changed.some((s) => s.path === path)) throw new SynapseError("vault", "index.md is maintained by the write path; plan page changes only.");
      const current = await readOrNull(vault, path);
      const edit = indexEditFor(changed);
      const reconciled = run.existingPages && current !== null ? await confirmGone(vault, edit, reconcileIndex(current, run.existingPages, run.wikiFolder, edit)) : edit;
      // index.md is read once: the text edited here is the one the write checks is still on disk.
      const { text: next, lines, pieces } = editIndexWithChange(current ?? "", reconciled);
      const action = current === null ? "created" : "updated";
      const known = lines && current !== null ? { lines, ...(pieces ? { pieces } : {}) } : {};
      if (next !== current) ordered.push({ path, type: "index", title: "Wiki index", action, previous: current, next, ...known });
    }
    const recorded = ordered.map(asLineChange);
    const logFile = logPath(run.wikiFolder);
    const entry = logEntryText({
      date: isoDay(now()),
      operation: run.operation,
      label: run.label,
      pages: changed.filter((s) => !BOOKKEEPING.has(s.type)),
      details: run.logDetails ?? [],
    });
    const logStat = await vault.stat(logFile);
    const logStep: Step = { path: logFile, type: "log", title: "Synapse log", action: logStat ? "updated" : "created", previous: null, next: logStat ? null : `${LOG_PREAMBLE}${entry}` };
    const appendText = logStat ? entry : null;

    const journal: Journal = {
      version: 1,
      runId,
      operation: run.operation,
      label: run.label,
      started: now(),
      writer: run.writer,
      entries: [...recorded.map((s) => journalEntry(s, null)), ...stateSteps.map(stateEntry), journalEntry(logStep, logStat ? { text: entry, sizeBefore: logStat.size } : null)],
    };
    // Files first, then Synapse's records, then the log entry: the journal's order.
    await writeJournaled(vault, run, journal, [
      ...ordered.map((step) => ({ name: step.path, write: () => writeStep(vault, step, null) })),
      ...stateSteps.map((step) => stateWrite(run.store, step)),
      { name: logStep.path, write: () => writeStep(vault, logStep, appendText) },
    ]);

    await recordRun(run.store, {
      version: 1,
      id: runId,
      operation: run.operation,
      label: run.label,
      at: now(),
      writer: run.writer,
      files: recorded.map(runFile),
      state: stateSteps.map((step) => ({ key: step.key, before: step.previous, after: step.next })),
      log: { path: logFile, text: appendText ?? logStep.next ?? "" },
      undoes: run.undoes ?? null,
    });
    await run.store.remove(journalKeyOf(run.writer));
    return result(runId);
  } finally {
    await lock.release();
  }
}
