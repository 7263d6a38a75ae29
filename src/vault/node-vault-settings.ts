/** Reads a vault's plugin settings from disk, for the CLI and the bridge alike. */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { settingsFromFile, type VaultSettings } from "../settings/settings-file";

/** Where the plugin keeps its settings in Obsidian's default config folder, which the Node programs assume. */
export const SETTINGS_FILE = join(".obsidian", "plugins", "synapse", "data.json");

/** The vault's settings; the defaults when the file is missing or cannot be read. */
export async function readVaultSettings(vaultRoot: string): Promise<VaultSettings> {
  const text = await readFile(join(vaultRoot, SETTINGS_FILE), "utf8").catch(() => null);
  return settingsFromFile(text, SETTINGS_FILE);
}
