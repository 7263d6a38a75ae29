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
function keyName(id: string): string {
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

/** "laptop", or "an unknown device" for a record of an earlier version. */
export function deviceName(writer: WriterIdentity): string {
  return writer.device ? writer.device.name || `device ${writer.device.id.slice(0, 8)}` : "an unknown device";
}

/** A short tag of the device for run ids (`…-k3f9q2-1a2b3c4d`), empty for a writer without one. */
export function deviceTag(writer: WriterIdentity): string {
  return writer.device ? keyName(writer.device.id).replace(/[-_]/g, "").slice(0, 8).toLowerCase() : "";
}
