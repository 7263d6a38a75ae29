/** Before a command reads or writes a vault: roll back a run a crash interrupted, sweep temp files. */
import { NodeVault } from "../vault/node-vault";
import type { WriteContext } from "../write/apply";
import { effectiveWikiFolder } from "../wiki/page-paths";
import { describeRecovery, recoverInterruptedRun } from "../write/recover";
import type { CliIO } from "./io";

/**
 * What the command does next. A writer (ingest, undo, lint) says nothing when another writer is
 * busy: it waits for the lock itself and says so there. A reader (search, index, query, history)
 * does not wait for it: a live writer's run is its own to finish, and a search should not stall
 * for a minute behind an ingest. It says so in one line and reads the wiki as it stands.
 */
export type RecoveryPurpose = "read" | "write";

export const BUSY_WRITER_NOTE =
  "Synapse: another writer is changing this vault, so no interrupted run was checked for; this command reads the wiki as it stands.";

export async function recoverVault(vault: NodeVault, wikiFolder: string, context: WriteContext, io: CliIO, purpose: RecoveryPurpose = "write"): Promise<void> {
  // Recovery never waits for a live writer: its run is its own to finish.
  const report = await recoverInterruptedRun(vault, { ...context, lock: { ...context.lock, waitMs: 0 }, wikiFolder: effectiveWikiFolder(wikiFolder) });
  if (report.status === "busy") {
    if (purpose === "read") io.stderr(`${BUSY_WRITER_NOTE}\n`);
    return;
  }
  const text = describeRecovery(report);
  if (text) io.stderr(`${text}\n`);
}
