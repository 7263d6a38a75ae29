/**
 * Reading the note to ingest, refusing what must not reach a model: missing, huge, binary or
 * empty notes, paths that leave the vault, and the wiki's own pages.
 */
import { SynapseError } from "../core/errors";
import { fileSystemReason } from "../core/file-system-error";
import { nameKey } from "../core/unicode";
import { pathKey } from "./path-keys";
import type { VaultPort } from "../vault/vault-port";
import { normaliseFolder } from "./page-paths";

/**
 * Vault-relative, forward slashes; refuses absolute paths and `..`. A backslash is left as it is:
 * vault paths separate folders with "/" alone, and on Linux and macOS a backslash is a character of
 * a name (`back\slash.md`). Windows paths are turned into vault paths where they come in (the CLI's
 * argument, NodeVault); Obsidian allows no backslash in a name.
 */
export function normaliseNotePath(path: string): string {
  const slashed = path.trim();
  if (/^([a-zA-Z]:)?\//.test(slashed)) {
    throw new SynapseError("input", `"${path}" is an absolute path; give the note's path inside the vault.`);
  }
  const parts = slashed.split("/").filter((p) => p && p !== ".");
  if (parts.includes("..")) throw new SynapseError("input", `"${path}" points outside the vault.`);
  return parts.join("/");
}

/** Is `path` in `folder`? Compared as NFC and without case, like every path comparison. */
export function isInFolder(path: string, folder: string): boolean {
  return inFolder(folder)(path);
}

/** `isInFolder` for many paths: the folder's key is computed once. */
export function inFolder(folder: string): (path: string) => boolean {
  const f = nameKey(normaliseFolder(folder));
  const prefix = `${f}/`;
  return (path) => {
    if (f === "") return true;
    const p = pathKey(path);
    return p === f || p.startsWith(prefix);
  };
}

/**
 * The note is there but could not be read (permissions, a folder in its place, a failing disk).
 * Its own outcome: not the provider's failure, so a folder ingest goes on with the other notes.
 * Marked by a field, not a class, as `instanceof` does not hold across bundles.
 */
export function unreadableNote(path: string, cause: unknown): SynapseError {
  const reason = fileSystemReason(cause) ?? (cause instanceof Error ? cause.message : String(cause));
  return Object.assign(new SynapseError("input", `Could not read the note "${path}": ${reason}.`, { cause }), { unreadable: true });
}

export function isUnreadableNote(error: unknown): boolean {
  return SynapseError.isInstance(error) && (error as { unreadable?: unknown }).unreadable === true;
}

export async function readNote(vault: VaultPort, path: string, maxBytes: number, wikiFolder: string): Promise<string> {
  if (!/\.md$/i.test(path)) throw new SynapseError("input", `"${path}" is not a Markdown note (.md).`);
  if (normaliseFolder(wikiFolder) && isInFolder(path, wikiFolder)) {
    throw new SynapseError("input", `"${path}" is a page of the wiki itself; ingest source notes, not wiki pages.`);
  }
  const stat = await vault.stat(path).catch((cause: unknown) => {
    throw unreadableNote(path, cause);
  });
  if (!stat) throw new SynapseError("input", `There is no note at "${path}" in the vault.`);
  if (stat.size > maxBytes) {
    const kb = (n: number) => `${Math.round(n / 1024).toLocaleString("en-US")} KB`;
    throw new SynapseError("input", `"${path}" is ${kb(stat.size)}, over the ${kb(maxBytes)} limit (setting "Largest note"); split it into smaller notes.`);
  }
  const bytes = await vault.readBytes(path).catch((cause: unknown) => {
    throw unreadableNote(path, cause);
  });
  if (bytes.includes(0)) throw new SynapseError("input", `"${path}" looks like a binary file, not a text note.`);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new SynapseError("input", `"${path}" is not valid UTF-8 text.`);
  }
  if (text.replace(/^---[\s\S]*?\n---/, "").replace(/[^\p{L}\p{N}]/gu, "").length === 0) {
    throw new SynapseError("input", `"${path}" has no text to ingest.`);
  }
  return text;
}
