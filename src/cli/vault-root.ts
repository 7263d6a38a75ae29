/**
 * What every command that works on a vault does first: find the folder `--vault` names, read its
 * settings (each warning about them printed, never fatal), and build the write context the CLI
 * writes through. One place, so every command says the same thing about a missing folder.
 */
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { nodeWriteContext } from "../node/write-context";
import type { WriteContext } from "../write/apply";
import { UsageError, type CliIO } from "./io";
import type { VaultSettings } from "../settings/settings-file";
import { readVaultSettings } from "./vault-settings";

/** The vault folder `--vault` names, resolved against the working folder; a usage error when it is not given or not a folder. */
export async function existingVaultRoot(vaultFlag: string | undefined, io: Pick<CliIO, "cwd">): Promise<string> {
  if (!vaultFlag) throw new UsageError("--vault <dir> is required.");
  const root = resolve(io.cwd, vaultFlag);
  if (!(await stat(root).catch(() => null))?.isDirectory()) throw new UsageError(`The vault folder ${root} does not exist.`);
  return root;
}

/** The vault's settings; what is wrong in them is printed as warnings and the defaults stand in. */
export async function settingsWithWarnings(root: string, io: Pick<CliIO, "stderr">): Promise<VaultSettings> {
  const loaded = await readVaultSettings(root);
  for (const warning of loaded.warnings) io.stderr(`Warning: ${warning}\n`);
  return loaded;
}

/** The write context of a CLI run: its notices go to stderr, stdout stays the command's output. */
export function cliWriteContext(root: string, io: Pick<CliIO, "env" | "stderr">): WriteContext {
  return nodeWriteContext(root, { kind: "cli", env: io.env, notify: (line) => io.stderr(`${line}\n`) });
}
