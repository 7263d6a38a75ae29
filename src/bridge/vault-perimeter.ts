/**
 * The bridge's perimeter: what a request may stage is bounded by the served vault's own settings,
 * not only by what the request says. A client (a stale plugin, another program holding the token)
 * that sends `excludedFolders: []`, `notes: "all"` or an excluded folder as its wiki still never
 * gets a note of the vault's excluded folders staged for the agent: the bridge reads `data.json`
 * and applies the union of the vault's excluded folders and the request's.
 */
import { isExcluded } from "../core/perimeter";
import { readVaultSettings } from "../vault/node-vault-settings";
import { HttpError } from "./http";

/** The folders never staged from this vault: the vault's setting and the request's, together. */
export async function excludedFoldersOf(vaultRoot: string, requested: readonly string[]): Promise<readonly string[]> {
  const { settings, readable } = await readVaultSettings(vaultRoot);
  if (!readable) {
    throw new HttpError(409, "settings_unreadable", "The vault's Synapse settings (data.json) could not be read, so its excluded folders are unknown; nothing was staged.");
  }
  return [...new Set([...settings.excludedFolders, ...requested])];
}

/** Refuses a folder the request names (its wiki, a question's scope) that lies in the excluded folders. */
export function refuseExcludedFolder(folder: string, excludedFolders: readonly string[], what: string): void {
  // A file inside the folder is excluded exactly when the folder itself lies in an excluded one.
  if (isExcluded(`${folder}/-.md`, excludedFolders)) {
    throw new HttpError(403, "excluded", `${what} "${folder}" is in the vault's excluded folders; the bridge never stages it for the agent.`);
  }
}
