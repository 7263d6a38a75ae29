/**
 * The plugin's write context: runs journaled, locked and recorded in the plugin's own folder
 * (`<config>/plugins/synapse/state`, the same place the CLI and the bridge use), under the name
 * "the Synapse plugin in Obsidian" on this device (see `plugin-device.ts`). Obsidian gives no process
 * id to check; it opens a vault once per device, so a plugin's lock left on this device is a closed
 * predecessor's and is taken over (see `write-lock.ts`).
 */
import { normalizePath, type App, type PluginManifest } from "obsidian";
import type { WriteContext } from "../write/write-context";
import { ObsidianStateStore } from "./obsidian-state-store";
import { pluginDevice } from "./plugin-device";

export async function pluginWriteContext(app: App, manifest: PluginManifest): Promise<WriteContext> {
  const folder = normalizePath(`${manifest.dir ?? `${app.vault.configDir}/plugins/${manifest.id}`}/state`);
  return {
    store: new ObsidianStateStore(app.vault.adapter, folder),
    writer: { kind: "plugin", pid: null, host: null, device: await pluginDevice(app) },
    // Another writer (a CLI ingest) holds the vault only while it writes: wait for it.
    lock: { waitMs: 60_000 },
  };
}
