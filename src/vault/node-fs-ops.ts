/**
 * The file-system calls NodeVault's reads and writes are made of, behind one small interface, so
 * that a test can run code between any two of them (an editor saving the file at exactly that
 * moment) and every step boundary of a write can be checked. The default is node:fs/promises.
 */
import { appendFile, link, mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";

export interface NodeFsOps {
  readonly readFile: (path: string) => Promise<Buffer>;
  /** Creates or truncates the file (the temporary copy of a write). */
  readonly writeFile: (path: string, data: string | Uint8Array) => Promise<void>;
  /** Atomic; replaces `to` when it exists. */
  readonly rename: (from: string, to: string) => Promise<void>;
  /** A second name for `existing`; fails with EEXIST when `newPath` exists (never overwrites). */
  readonly link: (existing: string, newPath: string) => Promise<void>;
  /** Removes a file; nothing when it is not there. */
  readonly rm: (path: string) => Promise<void>;
  /** Creates a folder and its parents. */
  readonly mkdir: (path: string) => Promise<void>;
  readonly appendFile: (path: string, text: string) => Promise<void>;
  /** Whether a plain file is there. */
  readonly isFile: (path: string) => Promise<boolean>;
}

export const nodeFsOps: NodeFsOps = {
  readFile: (path) => readFile(path),
  writeFile: (path, data) => (typeof data === "string" ? writeFile(path, data, "utf8") : writeFile(path, data)),
  rename: (from, to) => rename(from, to),
  link: (existing, newPath) => link(existing, newPath),
  rm: (path) => rm(path, { force: true }),
  mkdir: async (path) => {
    await mkdir(path, { recursive: true });
  },
  appendFile: (path, text) => appendFile(path, text, "utf8"),
  isFile: async (path) => (await stat(path).catch(() => null))?.isFile() ?? false,
};

/** The Node error code of a failed call ("ENOENT", "EEXIST"), if it has one. */
export function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | null)?.code;
}
