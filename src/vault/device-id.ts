/**
 * This device's id for the Node programs (CLI, bridge) and the desktop plugin, in the user's config
 * folder, where no vault sync reaches: `$XDG_CONFIG_HOME/synapse/device-id` (`~/.config/…` without
 * it, `%APPDATA%\synapse\device-id` on Windows), created once. The plugin on desktop reads the same
 * file, so the plugin, the CLI and the bridge of one computer are one device, share its lock and
 * roll back each other's interrupted runs. `SYNAPSE_DEVICE_ID_FILE` names another file (tests).
 */
import { randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir, hostname } from "node:os";
import { dirname, join } from "node:path";
import type { Device } from "../core/device";

type Env = Readonly<Record<string, string | undefined>>;

export function deviceIdFile(env: Env): string {
  if (env.SYNAPSE_DEVICE_ID_FILE) return env.SYNAPSE_DEVICE_ID_FILE;
  const config = env.XDG_CONFIG_HOME || (process.platform === "win32" && env.APPDATA) || join(homedir(), ".config");
  return join(config, "synapse", "device-id");
}

function readId(file: string): string | null {
  try {
    const id = readFileSync(file, "utf8").trim();
    return /^[A-Za-z0-9_-]{8,64}$/.test(id) ? id : null;
  } catch {
    return null;
  }
}

/**
 * This device, its id created the first time (exclusively, so two programs starting together agree).
 * Null when the config folder can be neither read nor written: the caller then writes as an unknown
 * device, as earlier versions did.
 */
export function nodeDevice(env: Env = process.env): Device | null {
  const file = deviceIdFile(env);
  let id = readId(file);
  if (id === null) {
    try {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, `${randomUUID()}\n`, { flag: "wx" });
    } catch {
      // Another program created it first (read it below), or the folder is not writable.
    }
    id = readId(file);
  }
  return id === null ? null : { id, name: hostname() };
}
