/**
 * A file system's refusal (a full disk, a read-only one, a denied permission) as one sentence a
 * user can act on, instead of Node's "ENOSPC: no space left on device, write '…/x.tmp'". Core code:
 * it reads only the `code`, `syscall` and `path` that Node puts on the error, never Node itself.
 */
const REASONS: Readonly<Record<string, string>> = {
  ENOSPC: "the disk is full",
  EDQUOT: "the disk quota is used up",
  EROFS: "the disk is read-only",
  EACCES: "permission was denied",
  EPERM: "the operation was not permitted",
  EIO: "the disk reported an input/output error",
  EMFILE: "too many files are open",
  EISDIR: "it is a folder, not a file",
  ENFILE: "too many files are open",
};

const READS: ReadonlySet<string> = new Set(["read", "open", "scandir", "stat", "lstat", "realpath", "access"]);

interface ErrnoLike {
  readonly code?: unknown;
  readonly syscall?: unknown;
  readonly path?: unknown;
}

/** Why the file system refused, in words ("the disk is full (ENOSPC)"), or null when `error` is no such refusal. */
export function fileSystemReason(error: unknown): string | null {
  if (typeof error !== "object" || error === null) return null;
  const { code } = error as ErrnoLike;
  if (typeof code !== "string") return null;
  const reason = REASONS[code];
  return reason ? `${reason} (${code})` : null;
}

/** One sentence for a file system failure, or null when `error` is none (`toSynapseError` makes it a "vault" error). */
export function describeFileSystemError(error: unknown): string | null {
  const reason = fileSystemReason(error);
  if (reason === null) return null;
  const { code, syscall, path } = error as ErrnoLike;
  const verb = typeof syscall === "string" && READS.has(syscall) && code !== "ENOSPC" ? "Could not read" : "Could not write";
  const where = typeof path === "string" && path !== "" ? ` ${path}` : "";
  return `${verb}${where}: ${reason}.`;
}
