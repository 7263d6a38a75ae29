/**
 * The persisted vectors: binary shards in the model's own folder (`index/vectors/<model>/vectors-XX.bin`,
 * see vector-models.ts), one per slice of the vault by the same path hash as the text shards, so
 * editing a note rewrites one small shard. A shard holds, for each of its notes, the chunk keys
 * (SHA-256) and their int8 vectors with a scale — never one giant JSON string. The header carries a
 * magic, the format version, the dimension, the body's length and a checksum; the body names the
 * model. A truncated, corrupt, outdated or other-model shard is dropped when the index opens and its
 * notes are embedded again (from the cache where another shard already holds the same chunk).
 */
import type { StateStore } from "../vault/state-store";
import { INDEX_PREFIX } from "./shards";
import { NO_VECTOR } from "./vector-index";
import type { QuantisedVector } from "./vector-math";
import { LEGACY_VECTOR_SHARD, modelFolder, useVectorModel, vectorShardKey } from "./vector-models";

export { vectorShardKey };

/** Bump when the layout changes: every vector shard of another version is rebuilt. */
export const VECTOR_FORMAT = 1;
const MAGIC = 0x564e5953; // "SYNV" little-endian
const HEADER_BYTES = 20;
const KEY_BYTES = 32;

export interface VectorNoteRecord {
  readonly path: string;
  /** Content hash of the note's text when it was embedded (compared with the text index's). */
  readonly hash: string;
  /** Chunk keys by ordinal (NO_VECTOR for a chunk without text). */
  readonly keys: readonly string[];
}

export interface VectorShard {
  readonly modelId: string;
  readonly notes: readonly VectorNoteRecord[];
  readonly vectors: ReadonlyMap<string, QuantisedVector>;
}

/**
 * FNV-1a over the body's bytes. `h` stays an int32 in the loop (as in shards.ts): `Math.imul` reads
 * only the low 32 bits, so `>>> 0` once at the end gives the value a uint32 in the loop would.
 */
function bytesChecksum(bytes: Uint8Array, from: number): number {
  let h = 0x811c9dc5 | 0;
  for (let i = from; i < bytes.length; i++) h = Math.imul(h ^ (bytes[i] as number), 0x01000193);
  return h >>> 0;
}

function hexToBytes(hex: string, into: Uint8Array, at: number): void {
  for (let i = 0; i < KEY_BYTES; i++) into[at + i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
}

function bytesToHex(bytes: Uint8Array, at: number): string {
  let hex = "";
  for (let i = 0; i < KEY_BYTES; i++) hex += (bytes[at + i] ?? 0).toString(16).padStart(2, "0");
  return hex;
}

/** The shard's bytes; a vector missing or of another dimension than `dims` is an error. */
export function encodeVectorShard(modelId: string, dims: number, notes: readonly VectorNoteRecord[], vectorOf: (key: string) => QuantisedVector | undefined): Uint8Array {
  const encoder = new TextEncoder();
  const model = encoder.encode(modelId);
  const paths = notes.map((n) => encoder.encode(n.path));
  const hashes = notes.map((n) => encoder.encode(n.hash));
  const vectors = notes.map((note) =>
    note.keys.map((key) => {
      if (key === NO_VECTOR) return null;
      const vector = vectorOf(key);
      if (!vector || vector.values.length !== dims) throw new Error(`The vector under ${key} is missing or of the wrong dimension.`);
      return vector;
    }),
  );
  let size = HEADER_BYTES + 2 + model.length + 4;
  notes.forEach((note, i) => {
    size += 2 + (paths[i]?.length ?? 0) + 1 + (hashes[i]?.length ?? 0) + 4;
    for (const key of note.keys) size += 1 + (key === NO_VECTOR ? 0 : KEY_BYTES + 4 + dims);
  });
  const bytes = new Uint8Array(size);
  const view = new DataView(bytes.buffer);
  let at = HEADER_BYTES;
  view.setUint16(at, model.length, true);
  bytes.set(model, at + 2);
  at += 2 + model.length;
  view.setUint32(at, notes.length, true);
  at += 4;
  for (let i = 0; i < notes.length; i++) {
    const note = notes[i] as VectorNoteRecord;
    const path = paths[i] ?? new Uint8Array(0);
    view.setUint16(at, path.length, true);
    bytes.set(path, at + 2);
    at += 2 + path.length;
    const hash = hashes[i] ?? new Uint8Array(0);
    bytes[at] = hash.length;
    bytes.set(hash, at + 1);
    at += 1 + hash.length;
    view.setUint32(at, note.keys.length, true);
    at += 4;
    note.keys.forEach((key, c) => {
      const vector = vectors[i]?.[c];
      if (!vector) {
        bytes[at++] = 0;
        return;
      }
      bytes[at++] = 1;
      hexToBytes(key, bytes, at);
      at += KEY_BYTES;
      view.setFloat32(at, vector.scale, true);
      at += 4;
      bytes.set(new Uint8Array(vector.values.buffer, vector.values.byteOffset, dims), at);
      at += dims;
    });
  }
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, VECTOR_FORMAT, true);
  view.setUint32(8, dims, true);
  view.setUint32(12, size - HEADER_BYTES, true);
  view.setUint32(16, bytesChecksum(bytes, HEADER_BYTES), true);
  return bytes;
}

/** A shard's notes and vectors, or null when it is of another format, truncated or corrupt. */
export function decodeVectorShard(bytes: Uint8Array): VectorShard | null {
  if (bytes.length < HEADER_BYTES) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== MAGIC || view.getUint32(4, true) !== VECTOR_FORMAT) return null;
  const dims = view.getUint32(8, true);
  if (view.getUint32(12, true) !== bytes.length - HEADER_BYTES) return null;
  if (view.getUint32(16, true) !== bytesChecksum(bytes, HEADER_BYTES)) return null;
  const decoder = new TextDecoder();
  try {
    let at = HEADER_BYTES;
    const need = (n: number) => {
      if (at + n > bytes.length) throw new RangeError("short shard");
    };
    need(2);
    const modelLength = view.getUint16(at, true);
    need(2 + modelLength + 4);
    const modelId = decoder.decode(bytes.subarray(at + 2, at + 2 + modelLength));
    at += 2 + modelLength;
    const count = view.getUint32(at, true);
    at += 4;
    const notes: VectorNoteRecord[] = [];
    const vectors = new Map<string, QuantisedVector>();
    for (let n = 0; n < count; n++) {
      need(2);
      const pathLength = view.getUint16(at, true);
      need(2 + pathLength + 1);
      const path = decoder.decode(bytes.subarray(at + 2, at + 2 + pathLength));
      at += 2 + pathLength;
      const hashLength = bytes[at] ?? 0;
      need(1 + hashLength + 4);
      const hash = decoder.decode(bytes.subarray(at + 1, at + 1 + hashLength));
      at += 1 + hashLength;
      const chunks = view.getUint32(at, true);
      at += 4;
      const keys: string[] = [];
      for (let c = 0; c < chunks; c++) {
        need(1);
        if (bytes[at++] === 0) {
          keys.push(NO_VECTOR);
          continue;
        }
        need(KEY_BYTES + 4 + dims);
        const key = bytesToHex(bytes, at);
        at += KEY_BYTES;
        const scale = view.getFloat32(at, true);
        at += 4;
        // A copy, so the shard's buffer is not kept alive by one vector.
        if (!vectors.has(key)) vectors.set(key, { values: new Int8Array(bytes.slice(at, at + dims).buffer), scale });
        at += dims;
        keys.push(key);
      }
      notes.push({ path, hash, keys });
    }
    return at === bytes.length ? { modelId, notes, vectors } : null;
  } catch {
    return null;
  }
}

export interface LoadedVectorShards {
  readonly shards: readonly VectorShard[];
  /** Shards dropped as unreadable, outdated or of another model (their notes are embedded again). */
  readonly rejected: number;
}

/**
 * Loads the vectors of `modelId` from its folder, after recording it as the model in use (which
 * removes the vectors of every model but `configured`, the one the settings choose, and the most
 * recent other one). Vector shards of the first layout move into the folder of the model their
 * header names, whichever model opens the index first; only unreadable ones are dropped.
 */
export async function loadVectorShards(store: StateStore, modelId: string, configured: string | null): Promise<LoadedVectorShards> {
  const legacy = await readLegacyShards(store);
  const adopted = [...new Set(legacy.flatMap((l) => (l.modelId === null ? [] : [l.modelId])))];
  const kept = await useVectorModel(store, modelId, { configured, adopted });
  let rejected = await adoptLegacyShards(store, legacy, new Set(kept));
  const keys = (await store.list(modelFolder(modelId))).filter((k) => /\/vectors-[0-9a-f]{2}\.bin$/.test(k));
  const shards: VectorShard[] = [];
  for (const key of keys) {
    const bytes = await store.readBytes(key);
    const decoded = bytes === null ? null : decodeVectorShard(bytes);
    if (!decoded || decoded.modelId !== modelId) {
      rejected += 1;
      await store.remove(key);
      continue;
    }
    shards.push(decoded);
  }
  return { shards, rejected };
}

interface LegacyShard {
  readonly key: string;
  readonly shard: number;
  /** The model its header names, or null when it is unreadable. */
  readonly modelId: string | null;
}

/** The model a shard's header names, once its format, length and checksum are found right; null otherwise. */
function shardModel(bytes: Uint8Array): string | null {
  if (bytes.length < HEADER_BYTES + 2) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== MAGIC || view.getUint32(4, true) !== VECTOR_FORMAT) return null;
  if (view.getUint32(12, true) !== bytes.length - HEADER_BYTES) return null;
  if (view.getUint32(16, true) !== bytesChecksum(bytes, HEADER_BYTES)) return null;
  const length = view.getUint16(HEADER_BYTES, true);
  if (length === 0 || HEADER_BYTES + 2 + length > bytes.length) return null;
  return new TextDecoder().decode(bytes.subarray(HEADER_BYTES + 2, HEADER_BYTES + 2 + length));
}

/** The shards of the first layout and the model of each (read, not kept in memory: there may be 256 of a few MB). */
async function readLegacyShards(store: StateStore): Promise<LegacyShard[]> {
  const found: LegacyShard[] = [];
  for (const key of await store.list(INDEX_PREFIX)) {
    const match = LEGACY_VECTOR_SHARD.exec(key);
    if (!match) continue;
    const bytes = await store.readBytes(key);
    const modelId = bytes === null ? null : shardModel(bytes);
    found.push({ key, shard: parseInt(match[1] ?? "", 16), modelId });
  }
  return found;
}

/**
 * Moves each shard of the first layout into the folder of the model its header names, when that
 * model keeps its vectors (it was recorded before this, so a crash half-way leaves named folders);
 * removes the rest. Says how many were unreadable.
 */
async function adoptLegacyShards(store: StateStore, legacy: readonly LegacyShard[], kept: ReadonlySet<string>): Promise<number> {
  let unreadable = 0;
  for (const { key, shard, modelId } of legacy) {
    const bytes = await store.readBytes(key);
    if (bytes === null || modelId === null) unreadable += 1;
    else if (kept.has(modelId)) {
      const target = vectorShardKey(modelId, shard);
      // Written before the old key goes: a crash in between leaves a copy, never nothing.
      if ((await store.readBytes(target)) === null) await store.write(target, bytes);
    }
    await store.remove(key);
  }
  return unreadable;
}
