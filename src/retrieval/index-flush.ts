/**
 * Writing the vault index to its StateStore (`VaultIndex.flush`): the vector shards that changed,
 * then each dirty text shard — its segment merged, then encoded — or its removal when no note is
 * left in it.
 */
import type { StateStore } from "../vault/state-store";
import { encodeStoredShard, shardKey, shardOf, type StoredNote } from "./shards";
import type { TextIndex } from "./text-index";
import type { VectorBackend } from "./vector-backend";

export interface FlushResult {
  readonly shardsWritten: number;
  readonly bytesWritten: number;
}

/** What a flush reads of the index. */
export interface FlushSource {
  readonly store: StateStore;
  readonly text: TextIndex;
  readonly vectors: VectorBackend | null;
  /** The indexed paths, read when the vector shards first ask for their members. */
  paths(): Iterable<string>;
  /** The text shards changed since the last flush, which are then no longer dirty (taken after the vector shards are written). */
  takeDirty(): number[];
  /** A note as its shard stores it, with the count of chunks its segment holds. */
  stored(path: string, chunkCount: number): StoredNote;
}

/** Writes the text and vector shards that changed since the last flush. */
export async function flushIndex(source: FlushSource): Promise<FlushResult> {
  let members: Map<number, string[]> | null = null;
  const membersOf = (shard: number): string[] => {
    if (!members) {
      members = new Map();
      for (const path of source.paths()) {
        const s = shardOf(path);
        const list = members.get(s);
        if (list) list.push(path);
        else members.set(s, [path]);
      }
    }
    return members.get(shard) ?? [];
  };
  const vectors = source.vectors ? await source.vectors.flush(source.store, membersOf) : { shardsWritten: 0, bytesWritten: 0 };
  const shards = source.takeDirty().sort((a, b) => a - b);
  if (shards.length === 0) return vectors;
  let bytes = vectors.bytesWritten;
  for (const shard of shards) {
    // The segment's delta merges into its base here, before its notes are counted.
    const segment = source.text.segment(shard);
    if (segment.notes.length === 0) {
      await source.store.remove(shardKey(shard));
      continue;
    }
    const encoded = encodeStoredShard(
      segment.notes.map(([path, chunkCount]) => source.stored(path, chunkCount)),
      segment.frozen,
    );
    bytes += encoded.byteLength;
    await source.store.write(shardKey(shard), encoded);
  }
  return { shardsWritten: shards.length + vectors.shardsWritten, bytesWritten: bytes };
}
