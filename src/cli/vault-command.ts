/** What the commands that work on a vault's history share: `--vault <dir> [--json]`, the write context, recovery. */
import { NodeVault } from "../vault/node-vault";
import type { WriteContext } from "../write/apply";
import { effectiveWikiFolder } from "../wiki/page-paths";
import { parseFlags, type CliIO } from "./io";
import { recoverVault, type RecoveryPurpose } from "./recovery";
import { existingVaultRoot, settingsWithWarnings, cliWriteContext } from "./vault-root";

export interface OpenedVault {
  readonly vault: NodeVault;
  readonly write: WriteContext;
  readonly wikiFolder: string;
  readonly json: boolean;
}

/** Parses the flags, reads the settings and recovers the vault for a command that reads it or changes it. */
export async function openVault(argv: readonly string[], io: CliIO, purpose: RecoveryPurpose): Promise<OpenedVault> {
  const { values } = parseFlags({ args: [...argv], strict: true, allowPositionals: false, options: { vault: { type: "string" }, json: { type: "boolean" }, verbose: { type: "boolean" } } });
  const root = await existingVaultRoot(values.vault, io);
  const { settings } = await settingsWithWarnings(root, io);
  const vault = new NodeVault(root);
  const write = cliWriteContext(root, io);
  const wikiFolder = effectiveWikiFolder(settings.wikiFolder);
  await recoverVault(vault, wikiFolder, write, io, purpose);
  return { vault, write, wikiFolder, json: values.json === true };
}
