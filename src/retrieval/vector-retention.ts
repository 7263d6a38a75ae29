/**
 * The vectors a flush's sweep must keep though no indexed note refers to them (see
 * vector-backend.ts): the records of notes that left the index, retained until an embedding pass
 * begun after they left has finished, and the keys of the notes a running pass has queued. Keys are
 * counted, because a retained record and a queued note may share them.
 */
import { shardOf } from "./shard-of";
import { NO_VECTOR } from "./vector-index";
import type { VectorNoteRecord } from "./vector-shards";

interface Retained extends VectorNoteRecord {
  /** Passes begun when it was retained: a pass numbered above this one releases it when it finishes. */
  readonly passes: number;
}

export class VectorRetention {
  private readonly retained = new Map<string, Retained>();
  private readonly pins = new Map<string, number>();

  pin(keys: readonly string[]): void {
    for (const key of keys) if (key !== NO_VECTOR) this.pins.set(key, (this.pins.get(key) ?? 0) + 1);
  }

  unpin(keys: readonly string[]): void {
    for (const key of keys) {
      const count = this.pins.get(key);
      if (count === undefined) continue;
      if (count <= 1) this.pins.delete(key);
      else this.pins.set(key, count - 1);
    }
  }

  pinned(key: string): boolean {
    return this.pins.has(key);
  }

  /** Keeps a record (replacing one of the same path) until a pass numbered above `passesBegun` finishes. */
  retain(record: VectorNoteRecord, passesBegun: number): void {
    this.release(record.path);
    this.retained.set(record.path, { path: record.path, hash: record.hash, keys: record.keys, passes: passesBegun });
    this.pin(record.keys);
  }

  release(path: string): void {
    const record = this.retained.get(path);
    if (!record) return;
    this.retained.delete(path);
    this.unpin(record.keys);
  }

  /** Releases the records retained before pass `pass` began; `released` is told each one's path. */
  releaseBefore(pass: number, released: (path: string) => void): void {
    for (const record of [...this.retained.values()]) {
      if (record.passes >= pass) continue;
      this.release(record.path);
      released(record.path);
    }
  }

  /** The retained records by shard, for the shards a flush writes (none: no walk at all). */
  byShard(wanted: ReadonlySet<number>): Map<number, VectorNoteRecord[]> {
    const byShard = new Map<number, VectorNoteRecord[]>();
    if (wanted.size === 0) return byShard;
    for (const record of this.retained.values()) {
      const shard = shardOf(record.path);
      if (!wanted.has(shard)) continue;
      const list = byShard.get(shard);
      if (list) list.push(record);
      else byShard.set(shard, [record]);
    }
    return byShard;
  }
}
