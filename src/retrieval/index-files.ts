/**
 * Which files of the state folder's `index/` the index owns: its text shards, each model's vector
 * shards and the list of models. Anything else there (a stray copy, a file of a later version) is
 * neither loaded nor counted in the index's size; it is not removed either, since on a
 * case-insensitive disk a name like `text-0A.bin` is the index's own `text-0a.bin`.
 */
import { INDEX_PREFIX } from "./shards";

/** Made when first asked: a bundle that never asks (the plugin) leaves them out. */
const owned = (): RegExp[] => [
  new RegExp(`^${INDEX_PREFIX}/text-[0-9a-f]{2}\\.bin$`),
  new RegExp(`^${INDEX_PREFIX}/vectors/models\\.json$`),
  new RegExp(`^${INDEX_PREFIX}/vectors/[a-z0-9-]+/vectors-[0-9a-f]{2}\\.bin$`),
];

export function isIndexFile(key: string, patterns = owned()): boolean {
  return patterns.some((pattern) => pattern.test(key));
}

/** What the index's files take on disk, from their sizes: reading them back cost 2 s at 50,000 notes (216 MB). */
export async function storedBytes(store: { list(prefix: string): Promise<string[]>; sizeOf(key: string): Promise<number | null> }): Promise<number> {
  const patterns = owned();
  let bytes = 0;
  for (const key of await store.list(INDEX_PREFIX)) if (isIndexFile(key, patterns)) bytes += (await store.sizeOf(key)) ?? 0;
  return bytes;
}
