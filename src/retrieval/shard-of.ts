/** Which of the index's 256 shards (and text segments) a note belongs to: a hash of its path. */
export const SHARD_COUNT = 256;

export function shardOf(path: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) h = Math.imul(h ^ path.charCodeAt(i), 0x01000193) >>> 0;
  return h % SHARD_COUNT;
}
