/**
 * `nameKey` of vault paths and file names, remembered: without the search index, every ingest
 * lists the vault and keys each path several times (is it in the wiki folder, which names exist,
 * which files a new page could clash with), and the paths are the same from one ingest to the
 * next. Bounded, so a long session does not keep every path it ever saw.
 */
import { nameKey } from "../core/unicode";

const KEPT = 100_000;
const known = new Map<string, string>();

export function pathKey(path: string): string {
  let key = known.get(path);
  if (key === undefined) {
    key = nameKey(path);
    if (known.size >= KEPT) known.clear();
    known.set(path, key);
  }
  return key;
}
