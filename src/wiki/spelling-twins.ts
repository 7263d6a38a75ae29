/**
 * Two spellings of a path that differ only in case ("Note.md", "note.md") name one file on macOS
 * and Windows, and two files on Linux. Asking for the other spelling answers "it exists" in both
 * cases, so that alone cannot tell a case-only rename from a second note: the folder's listing,
 * which names every file once with its own spelling, can.
 *
 * Paths are compared as NFC throughout: the registry and the pages key a note by its NFC path, so
 * NFC and NFD twins (two files on ext4) are one source everywhere, and are not told apart here.
 */
import { nameKey } from "../core/unicode";
import type { VaultPort } from "../vault/vault-port";

const parentOf = (path: string) => path.slice(0, Math.max(0, path.lastIndexOf("/")));

/** Is there a file at `path` other than the note at `notePath`? */
export async function existsApart(vault: VaultPort, path: string, notePath: string): Promise<boolean> {
  const spelled = path.normalize("NFC");
  if (spelled === notePath.normalize("NFC")) return false;
  if ((await vault.stat(path)) === null) return false;
  if (nameKey(spelled) !== nameKey(notePath)) return true;
  // A folder's listing names each file once, with its own spelling: both spellings listed are two
  // files. (Where case is ignored, one of them is not how the file is spelled, or names the folder
  // as it is not spelled, and is not listed.)
  const listed = async (p: string) => (await vault.list(parentOf(p))).some((l) => l.normalize("NFC") === p.normalize("NFC"));
  return (await listed(path)) && (await listed(notePath));
}
