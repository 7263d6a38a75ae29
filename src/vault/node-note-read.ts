/**
 * Opening and reading one note's file synchronously, for the Node vault's reads of many files (an
 * index build, an ingest's wiki pages), where a promise round trip per step cost more than the
 * read. Non-blocking opens, so that a named pipe at a note's path is no file rather than a read
 * that waits for a writer — but a file under a lease (a Samba oplock, an NFS delegation), which a
 * non-blocking open refuses with EAGAIN, is opened again waiting, as a plain read would.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync } from "node:fs";
import { errorCode } from "./node-fs-ops";
import type { VaultStat } from "./vault-port";

export interface NoteRead {
  readonly stat: VaultStat;
  readonly text: string;
}

/** Whether a file can be opened refusing a link in its last component (not on Windows). */
export const CAN_OPEN_UNLINKED = constants.O_NOFOLLOW !== undefined;

const NON_BLOCKING = constants.O_NONBLOCK ?? 0;

/** A file descriptor for reading `full`; throws as `openSync` does. `unlinked`: refuse a link in the last component. */
export function openNote(full: string, unlinked: boolean): number {
  const flags = constants.O_RDONLY | (unlinked ? (constants.O_NOFOLLOW ?? 0) : 0);
  try {
    return openSync(full, flags | NON_BLOCKING);
  } catch (error) {
    const code = errorCode(error);
    if (code === "EAGAIN" || code === "EWOULDBLOCK") return openSync(full, flags);
    throw error;
  }
}

/** The text and stat of an open file, or null when it is no plain file or cannot be read; closes it. */
export function readOpened(fd: number): NoteRead | null {
  try {
    const s = fstatSync(fd);
    return s.isFile() ? { stat: { size: s.size, mtime: s.mtimeMs }, text: readFileSync(fd, "utf8") } : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/**
 * A plain file's text and stat, opened without following a link in its last component: null when
 * nothing is there, "follow" for the caller's careful path on any other refusal — a link (ELOOP on
 * Linux and macOS, EMLINK on FreeBSD, EFTYPE on NetBSD), a permission, anything unforeseen.
 */
export function readUnlinked(full: string): NoteRead | null | "follow" {
  let fd: number;
  try {
    fd = openNote(full, true);
  } catch (error) {
    const code = errorCode(error);
    return code === "ENOENT" || code === "ENOTDIR" ? null : "follow";
  }
  return readOpened(fd);
}
