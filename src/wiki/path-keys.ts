/**
 * `nameKey` of vault paths and file names, remembered: without the search index, every ingest
 * lists the vault and keys each path several times (is it in the wiki folder, which names exist,
 * which files a new page could clash with), and the paths are the same from one ingest to the
 * next. Bounded, so a long session does not keep every path it ever saw.
 */
import { boundedMemo } from "../core/bounded-memo";
import { nameKey } from "../core/unicode";

export const pathKey: (path: string) => string = boundedMemo(nameKey, 100_000);
