/** Every text shard of a store, decoded at once, and how many were rejected: what tests inspect. */
import { eachShard, type StoredShard } from "../../src/retrieval/shards";
import type { StateStore } from "../../src/vault/state-store";

export async function loadShards(store: StateStore): Promise<{ readonly shards: StoredShard[]; readonly rejected: number }> {
  const shards: StoredShard[] = [];
  const { rejected } = await eachShard(store, (shard) => {
    shards.push(shard);
  });
  return { shards, rejected };
}
