/**
 * The bridge recovers a vault before it reads it: at start-up for every vault it serves, and again
 * before each staging, so the agent never works from a wiki that a killed CLI or a crashed Obsidian
 * left half-written. The bridge writes nothing to the vault itself; recovery is the one exception,
 * and it only restores what the interrupted run's journal says was there before. A writer that is
 * alive keeps its run: recovery does not wait for the lock and leaves it be.
 */
import { readVaultSettings } from "../vault/node-vault-settings";
import { NodeVault } from "../vault/node-vault";
import { nodeWriteContext } from "../node/write-context";
import { effectiveWikiFolder } from "../wiki/page-paths";
import { describeRecovery, recoverInterruptedRun } from "../write/recover";

export interface BridgeRecoveryOptions {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly log: (line: string) => void;
}

/** Rolls back an interrupted run of this vault and sweeps temp files; `wikiFolder` defaults to the vault's setting. */
export async function recoverBridgeVault(vaultRoot: string, options: BridgeRecoveryOptions, wikiFolder?: string): Promise<void> {
  const folder = wikiFolder ?? (await readVaultSettings(vaultRoot)).settings.wikiFolder;
  const write = nodeWriteContext(vaultRoot, { kind: "bridge", env: options.env });
  const report = await recoverInterruptedRun(new NodeVault(vaultRoot), {
    ...write,
    lock: { ...write.lock, waitMs: 0 },
    wikiFolder: effectiveWikiFolder(folder),
  });
  const text = describeRecovery(report);
  if (text) options.log(`${vaultRoot}: ${text}`);
}
