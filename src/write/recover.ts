/**
 * What every start does before reading the vault: finish or roll back a run that a crash
 * interrupted (its journal is still there), remove the temporary files a killed write left, and
 * split a registry of ingested notes that an earlier version kept whole.
 * The plugin calls it once the layout is ready; the CLI before every command on a vault; the bridge
 * before it stages a vault. It takes the write lock, so it never touches the run of a writer that
 * is alive: then it does nothing and says so.
 */
import { plural } from "../core/plural";
import { SynapseError } from "../core/errors";
import type { StrayFiles, VaultPort } from "../vault/vault-port";
import type { WriteContext } from "./apply";
import { describeForeignRun, foreignJournals, rollBackJournal, type ForeignRun, type JournalOutcome } from "./journal";
import { migrateWholeRegistry } from "./source-registry-shards";
import { knownVaultId, NO_VAULT_ID } from "./vault-id";
import { acquireWriteLock } from "./write-lock";

export type RecoveryReport =
  | { readonly status: "busy"; readonly message: string }
  | {
      readonly status: "done";
      readonly journal: JournalOutcome;
      readonly strayFiles: StrayFiles;
      /** Runs other devices left half-written (brought in by sync): reported, never rolled back here. */
      readonly foreign: readonly ForeignRun[];
    };

export async function recoverInterruptedRun(vault: VaultPort, context: WriteContext & { readonly wikiFolder: string; readonly now?: () => number }): Promise<RecoveryReport> {
  let lock;
  try {
    lock = await acquireWriteLock(context.store, {
      ...context.lock,
      writer: context.writer,
      activity: "recovery of an interrupted run",
      ...(context.now ? { now: context.now } : {}),
    });
  } catch (error) {
    if (SynapseError.isInstance(error)) return { status: "busy", message: error.message };
    throw error;
  }
  try {
    // Read, never made here: a vault gets its id from its first write, and a recovery writes nothing.
    // A vault with no id yet has written no journal, so a journal naming any vault is another's.
    const vaultId = (await knownVaultId(context.store)) ?? NO_VAULT_ID;
    const journal = await rollBackJournal(vault, context.store, { writer: context.writer, vaultId });
    // An upgrade's one-time work on Synapse's own records, while no run can write them.
    await migrateWholeRegistry(context.store);
    const strayFiles = await vault.removeStrayTempFiles(context.wikiFolder);
    const foreign = await foreignJournals(context.store, context.writer);
    return { status: "done", journal, strayFiles, foreign };
  } finally {
    await lock.release();
  }
}

/** One sentence for the user about what recovery did, or null when there was nothing to do. */
export function describeRecovery(report: RecoveryReport): string | null {
  if (report.status === "busy") return null;
  const parts: string[] = [];
  const j = report.journal;
  if (j.status === "rolled-back") {
    parts.push(`An interrupted ${j.operation} (“${j.label}”) was rolled back: ${plural(j.files.length, "file")} restored to what they held before`);
    if (j.kept.length > 0) parts.push(`these were changed since and left as they are: ${j.kept.join(", ")}`);
  }
  if (j.status === "unreadable") parts.push(`The journal of an interrupted run could not be read (${j.reason}); it was set aside as ${j.movedTo}`);
  for (const run of report.foreign) parts.push(describeForeignRun(run));
  const { removed, restored, keptAs } = report.strayFiles;
  if (restored.length > 0) parts.push(`these files, set aside by the interrupted write, were put back: ${restored.join(", ")}`);
  if (keptAs.length > 0) parts.push(`these copies of files that changed during the interrupted write were kept beside them: ${keptAs.join(", ")}`);
  if (removed.length > 0) parts.push(`${plural(removed.length, "leftover temporary file")} removed`);
  return parts.length > 0 ? `Synapse: ${parts.join("; ")}.` : null;
}
