/**
 * Which device wrote a record, and the keys each device keeps its own records under. Sync tools copy
 * the state folder between devices; writes on different devices never share a file system, so a
 * device's journal and lock only concern its own copy of the vault. Keyed by device, two devices'
 * records never overwrite each other, a device never rolls back or consumes another's journal, and
 * another device's lock never blocks this one. A writer that names no device (tests, and records of
 * earlier versions) keeps the keys earlier versions used.
 */
import type { WriterIdentity } from "./write-records";

/** The journal and lock keys of earlier versions, and of a writer that names no device. */
export const LEGACY_JOURNAL_KEY = "journal/current.json";
export const LEGACY_LOCK_KEY = "lock.json";
export const JOURNAL_FOLDER = "journal";

/** Device ids become key names: anything but letters, digits, `-` and `_` is spelled `_`. */
export function keyName(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64);
}

export function journalKeyOf(writer: WriterIdentity): string {
  return writer.device ? `${JOURNAL_FOLDER}/${keyName(writer.device.id)}.json` : LEGACY_JOURNAL_KEY;
}

export function lockKeyOf(writer: WriterIdentity): string {
  return writer.device ? `locks/${keyName(writer.device.id)}.json` : LEGACY_LOCK_KEY;
}

/** Is a key a journal (not one set aside as unreadable)? */
export function isJournalKey(key: string): boolean {
  return key.startsWith(`${JOURNAL_FOLDER}/`) && key.endsWith(".json") && !key.startsWith(`${JOURNAL_FOLDER}/unreadable-`);
}

/** Did the same device write both? Two records without a device are taken as one unknown device. */
export function sameDevice(a: WriterIdentity, b: WriterIdentity): boolean {
  return (a.device?.id ?? null) === (b.device?.id ?? null);
}

/**
 * Is a record of an earlier version (it names no device) this device's own? Earlier versions kept
 * one journal and one lock for every device, so after an upgrade a crash of the previous version
 * waits under those keys. A record naming a host is this device's when the host is this one's (the
 * CLI and the bridge always named it). The previous plugin named no host on any device, so no device
 * can tell whose such a record is: the plugin takes it as its own wherever it runs, as the previous
 * version did (a rollback restores only files that still hold what the run wrote, so nothing
 * changed since is lost), while the CLI and the bridge leave it to the plugin and report it.
 */
export function isLegacyRecordOf(record: WriterIdentity, self: WriterIdentity): boolean {
  if (record.device !== undefined || self.device === undefined) return false;
  if (record.host !== null) return record.host === self.host;
  return record.kind === "plugin" && self.kind === "plugin";
}

/** "laptop", or "an unknown device" for a record of an earlier version. */
export function deviceName(writer: WriterIdentity): string {
  return writer.device ? writer.device.name || `device ${writer.device.id.slice(0, 8)}` : "an unknown device";
}

/** A short tag of the device for run ids (`…-k3f9q2-1a2b3c4d`), empty for a writer without one. */
export function deviceTag(writer: WriterIdentity): string {
  return writer.device ? keyName(writer.device.id).replace(/[-_]/g, "").slice(0, 8).toLowerCase() : "";
}
