/**
 * The plugin's settings as the Node programs find them: the text of `data.json` in the vault's
 * plugin folder, parsed and loaded (migrated, a bad field reset and reported). Pure: the file is
 * read by `src/vault/node-vault-settings.ts`, which the CLI and the bridge both use.
 */
import { loadSettings } from "./load";
import { DEFAULT_SETTINGS, type Settings } from "./schema";

export interface VaultSettings {
  readonly settings: Settings;
  /** One sentence per field reset to its default, or for a file that is not JSON. */
  readonly warnings: readonly string[];
  /**
   * False when a settings file exists but none of it could be used (not JSON, not an object,
   * written by a newer version, beyond repair): the defaults stand in, the vault's own excluded
   * folders among them unknown. The bridge refuses to stage such a vault.
   */
  readonly readable: boolean;
}

/** The settings `text` holds (the file `fileName`, named in a warning); the defaults when there is no file (`null`). */
export function settingsFromFile(text: string | null, fileName: string): VaultSettings {
  if (text === null) return { settings: DEFAULT_SETTINGS, warnings: [], readable: true };
  let raw: unknown;
  try {
    raw = JSON.parse(text) as unknown;
  } catch {
    return { settings: DEFAULT_SETTINGS, warnings: [`${fileName} is not valid JSON; using the default settings.`], readable: false };
  }
  const { settings, warnings } = loadSettings(raw);
  // loadSettings hands back the defaults object itself only when it used nothing of the file.
  return { settings, warnings, readable: settings !== DEFAULT_SETTINGS || raw === null };
}
