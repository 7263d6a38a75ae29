/**
 * The plugin's write context: runs journaled, locked and recorded in the plugin's own folder
 * (`<config>/plugins/synapse/state`, the same place the CLI and the bridge use), under the name
 * "the Synapse plugin in Obsidian". Obsidian gives no process id to check, so a lock the plugin
 * leaves behind goes stale by its heartbeat.
 */
import { normalizePath, type App, type PluginManifest } from "obsidian";
import type { WriteContext } from "../wiki/apply";
import { ObsidianStateStore } from "./obsidian-state-store";

export function pluginWriteContext(app: App, manifest: PluginManifest): WriteContext {
  const folder = normalizePath(`${manifest.dir ?? `${app.vault.configDir}/plugins/${manifest.id}`}/state`);
  return {
    store: new ObsidianStateStore(app.vault.adapter, folder),
    writer: { kind: "plugin", pid: null, host: null },
    // Another writer (a CLI ingest) holds the vault only while it writes: wait for it.
    lock: { waitMs: 60_000 },
  };
}
