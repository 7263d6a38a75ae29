/**
 * Which files of the state folder's `index/` the index owns: its text shards, each model's vector
 * shards and the list of models. Anything else there (a stray copy, a file of a later version) is
 * neither loaded nor counted in the index's size; it is not removed either, since on a
 * case-insensitive disk a name like `text-0A.bin` is the index's own `text-0a.bin`.
 */
import { INDEX_PREFIX } from "./shards";

const OWNED = [
  new RegExp(`^${INDEX_PREFIX}/text-[0-9a-f]{2}\\.bin$`),
  new RegExp(`^${INDEX_PREFIX}/vectors/models\\.json$`),
  new RegExp(`^${INDEX_PREFIX}/vectors/[a-z0-9-]+/vectors-[0-9a-f]{2}\\.bin$`),
];

export function isIndexFile(key: string): boolean {
  return OWNED.some((pattern) => pattern.test(key));
}
