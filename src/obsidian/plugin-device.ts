/**
 * The plugin's device. On desktop it is the computer's, read from the same file the CLI and the
 * bridge use (`vault/device-id.ts`, loaded only there), so that all three are one device sharing one
 * lock. On mobile, where no CLI runs, it lives in Obsidian's local storage, which is per device and
 * never synced.
 */
import { Platform, type App } from "obsidian";
import { DeviceSchema, type Device } from "../write/write-records";

const STORAGE_KEY = "synapse-device";

function mobileName(): string {
  if (Platform.isIosApp) return "an iPhone or iPad";
  if (Platform.isAndroidApp) return "an Android device";
  return "a mobile device";
}

function storedDevice(app: App): Device {
  const stored = DeviceSchema.safeParse(app.loadLocalStorage(STORAGE_KEY));
  if (stored.success) return stored.data;
  const device = { id: crypto.randomUUID(), name: mobileName() };
  app.saveLocalStorage(STORAGE_KEY, device);
  return device;
}

export async function pluginDevice(app: App): Promise<Device> {
  if (Platform.isDesktopApp) {
    const { nodeDevice } = await import("../vault/device-id");
    const device = nodeDevice();
    if (device) return device;
  }
  return storedDevice(app);
}
