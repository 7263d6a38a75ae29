/** Before a command reads or writes a vault: roll back a run a crash interrupted, sweep temp files. */
import { NodeVault } from "../vault/node-vault";
import type { WriteContext } from "../wiki/apply";
import { effectiveWikiFolder } from "../wiki/page-paths";
import { describeRecovery, recoverInterruptedRun } from "../wiki/recover";
import type { CliIO } from "./io";

export async function recoverVault(vault: NodeVault, wikiFolder: string, context: WriteContext, io: CliIO): Promise<void> {
  // Recovery waits for a live writer only briefly: its run is its own to finish.
  const report = await recoverInterruptedRun(vault, { ...context, lock: { ...context.lock, waitMs: 0 }, wikiFolder: effectiveWikiFolder(wikiFolder) });
  const text = describeRecovery(report);
  if (text) io.stderr(`${text}\n`);
}
