/** What the commands that work on a vault's history share: `--vault <dir> [--json]`, the write context, recovery. */
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { NodeVault } from "../vault/node-vault";
import { nodeWriteContext } from "../node/write-context";
import type { WriteContext } from "../write/apply";
import { effectiveWikiFolder } from "../wiki/page-paths";
import { UsageError, parseFlags, type CliIO } from "./io";
import { recoverVault, type RecoveryPurpose } from "./recovery";
import { readVaultSettings } from "./vault-settings";

export interface OpenedVault {
  readonly vault: NodeVault;
  readonly write: WriteContext;
  readonly wikiFolder: string;
  readonly json: boolean;
}

/** Parses the flags, reads the settings and recovers the vault for a command that reads it or changes it. */
export async function openVault(argv: readonly string[], io: CliIO, purpose: RecoveryPurpose): Promise<OpenedVault> {
  const { values } = parseFlags({ args: [...argv], strict: true, allowPositionals: false, options: { vault: { type: "string" }, json: { type: "boolean" }, verbose: { type: "boolean" } } });
  if (!values.vault) throw new UsageError("--vault <dir> is required.");
  const root = resolve(io.cwd, values.vault);
  if (!(await stat(root).catch(() => null))?.isDirectory()) throw new UsageError(`The vault folder ${root} does not exist.`);
  const { settings, warnings } = await readVaultSettings(root);
  for (const warning of warnings) io.stderr(`Warning: ${warning}\n`);
  const vault = new NodeVault(root);
  const write = nodeWriteContext(root, { kind: "cli", env: io.env, notify: (line) => io.stderr(`${line}\n`) });
  const wikiFolder = effectiveWikiFolder(settings.wikiFolder);
  await recoverVault(vault, wikiFolder, write, io, purpose);
  return { vault, write, wikiFolder, json: values.json === true };
}
