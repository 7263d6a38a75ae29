/**
 * The persisted text index: one binary shard per slice of the vault (a note's shard is a hash of
 * its path), so editing a note rewrites one shard of a few hundred notes, never the whole index, and
 * no shard grows into one giant string. A shard holds its notes' metadata (JSON: times, hashes,
 * chunk counts, links packed one string per note), its chunks' columns (positions as an Int32
 * section; headings as UTF-16 code units and Int32 offsets) and its segment of the inverted index as stored in memory — the
 * sorted terms' UTF-16 code units and packed Int32 postings, little-endian — so opening the index
 * makes typed views on the shard's bytes instead of decoding text, making an object per chunk or
 * rebuilding postings. A header holds a magic, the format version, the body's length and a checksum: a
 * truncated, corrupt or outdated shard is detected, dropped, and its notes indexed again by the
 * next sync. Shards of format 1 (`notes-XX.json`) are removed when the index opens.
 */
import type { StateStore } from "../vault/state-store";
import { isPackedLinks, type PackedLinks } from "./packed-links";
import { SHARD_COUNT, shardOf } from "./shard-of";
import { chunkColumns, headingsWellFormed } from "./chunk-table";
import { readInt32s, readUint16s, writeInt32s, writeUint16s } from "./little-endian";
import { TermDictionary } from "./term-dictionary";
import type { ChunkMeta, FrozenPostings, StoredSegment } from "./text-index";

export { SHARD_COUNT, shardOf };

/**
 * Bump when the shard layout, the tokenizer or the chunker changes: every shard of another version
 * is rebuilt. test/retrieval/index-format-golden.test.ts fails when their output changes without it.
 */
export const INDEX_FORMAT = 8;
export const INDEX_PREFIX = "index";
const MAGIC = 0x544e5953; // "SYNT" little-endian
const HEADER_BYTES = 16;

/** A note as a shard keeps it: everything but the terms, which live in the segment's postings, and its chunks, which are the shard's next `chunkCount`. */
export interface StoredNote {
  readonly path: string;
  readonly mtime: number;
  readonly size: number;
  readonly hash: string;
  readonly chunkCount: number;
  readonly links: PackedLinks;
}

/** A note given with its chunks as objects (`encodeShard`: tests and tools). */
export interface NoteToStore extends Omit<StoredNote, "chunkCount"> {
  readonly chunks: readonly ChunkMeta[];
}

export interface StoredShard {
  readonly shard: number;
  readonly notes: readonly StoredNote[];
  /** The segment's postings and its chunks' columns (views on the shard's bytes). */
  readonly frozen: StoredSegment;
}

/** A note's metadata in the JSON part: path, mtime, size, hash, its chunk count, its links packed (packed-links.ts). */
type EncodedNote = [string, number, number, string, number, PackedLinks];
/** Each chunk's start, end and length, in the ranges section: 435,000 chunks at 50,000 notes, which as JSON arrays cost ~0.4 s to parse and collect. */
const RANGE_WORDS = 3;

export function shardKey(shard: number): string {
  return `${INDEX_PREFIX}/text-${shard.toString(16).padStart(2, "0")}.bin`;
}

/**
 * FNV-1a over the body's 32-bit words: cheap enough to check every shard at start-up. `h` stays an int32 in the loop, which a uint32 would leave (a profile blamed that for
 * ~117 ms at 50,000 notes; over that index's 246 MB alone, both loops took ~90 ms of CPU here);
 * `Math.imul` reads only the low 32 bits, so `>>> 0` once at the end gives the same value.
 */
export function wordsChecksum(words: Int32Array): number {
  let h = 0x811c9dc5 | 0;
  for (let i = 0; i < words.length; i++) h = Math.imul(h ^ (words[i] as number), 0x01000193);
  return h >>> 0;
}

const pad4 = (n: number) => (n + 3) & ~3;

/** The shard of notes given with their chunks as objects. */
export function encodeShard(notes: readonly NoteToStore[], frozen: FrozenPostings): Uint8Array {
  const stored = notes.map(({ chunks, ...note }): StoredNote => ({ ...note, chunkCount: chunks.length }));
  return encodeStoredShard(stored, { ...frozen, chunks: chunkColumns(notes.flatMap((n) => n.chunks)) });
}

/** The shard's bytes. The notes' chunk counts add up to the chunks'. */
export function encodeStoredShard(notes: readonly StoredNote[], frozen: StoredSegment): Uint8Array {
  const encoder = new TextEncoder();
  const meta = encoder.encode(
    JSON.stringify(
      notes.map((n): EncodedNote => [
        n.path,
        n.mtime,
        n.size,
        n.hash,
        n.chunkCount,
        n.links,
      ]),
    ),
  );
  const { ranges, headings } = frozen.chunks;
  const units = frozen.terms.units;
  // body: metaLength, meta, chunkCount, chunk ranges, heading offsets (chunkCount + 1), the headings' UTF-16 units,
  // dictLength (bytes), the terms' UTF-16 units, termCount, postingCount (each part padded to 4), term starts, offsets, postings
  const metaAt = 4;
  const chunkCountAt = pad4(metaAt + meta.length);
  const headingOffsetsAt = chunkCountAt + 4 + 4 * ranges.length;
  const headingUnitsAt = headingOffsetsAt + 4 * headings.offsets.length;
  const dictLengthAt = pad4(headingUnitsAt + 2 * headings.units.length);
  const dictAt = dictLengthAt + 4;
  const countsAt = pad4(dictAt + 2 * units.length);
  const startsAt = countsAt + 8;
  const offsetsAt = startsAt + 4 * frozen.terms.starts.length;
  const postingsAt = offsetsAt + 4 * frozen.offsets.length;
  const bodyLength = postingsAt + 4 * frozen.postings.length;
  const bytes = new Uint8Array(HEADER_BYTES + bodyLength);
  const body = bytes.subarray(HEADER_BYTES);
  const view = new DataView(bytes.buffer, HEADER_BYTES);
  view.setUint32(0, meta.length, true);
  body.set(meta, metaAt);
  view.setUint32(chunkCountAt, ranges.length / RANGE_WORDS, true);
  writeInt32s(bytes.buffer, HEADER_BYTES + chunkCountAt + 4, ranges);
  writeInt32s(bytes.buffer, HEADER_BYTES + headingOffsetsAt, headings.offsets);
  writeUint16s(bytes.buffer, HEADER_BYTES + headingUnitsAt, headings.units);
  view.setUint32(dictLengthAt, 2 * units.length, true);
  writeUint16s(bytes.buffer, HEADER_BYTES + dictAt, units);
  view.setUint32(countsAt, frozen.terms.size, true);
  view.setUint32(countsAt + 4, frozen.postings.length, true);
  writeInt32s(bytes.buffer, HEADER_BYTES + startsAt, frozen.terms.starts);
  writeInt32s(bytes.buffer, HEADER_BYTES + offsetsAt, frozen.offsets);
  writeInt32s(bytes.buffer, HEADER_BYTES + postingsAt, frozen.postings);
  const checksum = wordsChecksum(readInt32s(bytes.buffer, HEADER_BYTES, bodyLength / 4));
  const header = new DataView(bytes.buffer, 0, HEADER_BYTES);
  header.setUint32(0, MAGIC, true);
  header.setUint32(4, INDEX_FORMAT, true);
  header.setUint32(8, bodyLength, true);
  header.setUint32(12, checksum, true);
  return bytes;
}

/** The notes and postings of a shard, or null when it is of another format, truncated or corrupt. */
export function decodeShard(input: Uint8Array, shard: number): StoredShard | null {
  if (input.length < HEADER_BYTES) return null;
  // Typed views need 4-byte alignment; a buffer from a pool may not have it.
  const bytes = input.byteOffset % 4 === 0 ? input : input.slice();
  const header = new DataView(bytes.buffer, bytes.byteOffset, HEADER_BYTES);
  const bodyLength = header.getUint32(8, true);
  if (header.getUint32(0, true) !== MAGIC || header.getUint32(4, true) !== INDEX_FORMAT) return null;
  if (bodyLength !== bytes.length - HEADER_BYTES || bodyLength % 4 !== 0) return null;
  const base = bytes.byteOffset + HEADER_BYTES;
  if (header.getUint32(12, true) !== wordsChecksum(readInt32s(bytes.buffer, base, bodyLength / 4))) return null;
  try {
    const view = new DataView(bytes.buffer, base, bodyLength);
    const body = bytes.subarray(HEADER_BYTES);
    const decoder = new TextDecoder();
    const metaLength = view.getUint32(0, true);
    const chunkCountAt = pad4(4 + metaLength);
    const chunkCount = view.getUint32(chunkCountAt, true);
    const headingOffsetsAt = chunkCountAt + 4 + 4 * RANGE_WORDS * chunkCount;
    const headingUnitsAt = headingOffsetsAt + 4 * (chunkCount + 1);
    if (headingUnitsAt > bodyLength) return null;
    const headingOffsets = readInt32s(bytes.buffer, base + headingOffsetsAt, chunkCount + 1);
    const headingUnitCount = headingOffsets[chunkCount] as number;
    if (headingUnitCount < 0 || headingUnitsAt + 2 * headingUnitCount > bodyLength) return null;
    const headings = { units: readUint16s(bytes.buffer, base + headingUnitsAt, headingUnitCount), offsets: headingOffsets };
    // Offsets that fall or leave their units would make wrong headings (or throw) when one is read, long after the load.
    if (!headingsWellFormed(headings, chunkCount)) return null;
    const dictLengthAt = pad4(headingUnitsAt + 2 * headingUnitCount);
    if (dictLengthAt + 4 > bodyLength) return null;
    const dictLength = view.getUint32(dictLengthAt, true);
    const countsAt = pad4(dictLengthAt + 4 + dictLength);
    if (dictLength % 2 !== 0 || countsAt + 8 > bodyLength) return null;
    const termCount = view.getUint32(countsAt, true);
    const postingCount = view.getUint32(countsAt + 4, true);
    const startsAt = countsAt + 8;
    const offsetsAt = startsAt + 4 * (termCount + 1);
    const postingsAt = offsetsAt + 4 * (termCount + 1);
    if (postingsAt + 4 * postingCount !== bodyLength) return null;
    const encoded = JSON.parse(decoder.decode(body.subarray(4, 4 + metaLength))) as EncodedNote[];
    const ranges = readInt32s(bytes.buffer, base + chunkCountAt + 4, RANGE_WORDS * chunkCount);
    let chunks = 0;
    const notes: StoredNote[] = encoded.map(([path, mtime, size, hash, chunkCount, links]) => {
      chunks += Number.isInteger(chunkCount) && chunkCount >= 0 ? chunkCount : NaN;
      return { path, mtime, size, hash, chunkCount, links };
    });
    // Every chunk belongs to one note: a shard whose notes' counts and chunk columns disagree is corrupt.
    if (chunks !== chunkCount) return null;
    // Views on the shard's bytes (copies on a big-endian host): they keep its buffer alive, as the segment does.
    const units = readUint16s(bytes.buffer, base + dictLengthAt + 4, dictLength / 2);
    const terms = new TermDictionary(units, readInt32s(bytes.buffer, base + startsAt, termCount + 1));
    const offsets = readInt32s(bytes.buffer, base + offsetsAt, termCount + 1);
    const postings = readInt32s(bytes.buffer, base + postingsAt, postingCount);
    if (!wellFormed(notes, shard, terms, offsets, postings)) return null;
    return { shard, notes, frozen: { terms, offsets, postings, chunks: { ranges, headings } } };
  } catch {
    return null;
  }
}

/** Everything the search relies on: notes in their shard, sorted terms, ordered offsets, ids in range and rising per term. */
function wellFormed(notes: readonly StoredNote[], shard: number, terms: TermDictionary, offsets: Int32Array, postings: Int32Array): boolean {
  if (!terms.wellFormed() || terms.size + 1 !== offsets.length || offsets[0] !== 0 || offsets[terms.size] !== postings.length) return false;
  let chunks = 0;
  // A path twice would leave the notes' order and their chunks' order apart (chunk-table.ts).
  const paths = new Set<string>();
  for (const n of notes) {
    if (typeof n.path !== "string" || shardOf(n.path) !== shard || !isPackedLinks(n.links) || paths.has(n.path)) return false;
    paths.add(n.path);
    chunks += n.chunkCount;
  }
  for (let i = 0; i < terms.size; i++) {
    const end = offsets[i + 1] as number;
    if ((offsets[i] as number) > end) return false;
    // Pruned scoring seeks through a term's postings by chunk id: ids must rise, frequencies be at least 1.
    let previous = -1;
    for (let p = offsets[i] as number; p < end; p++) {
      const packed = postings[p] as number;
      const id = packed >>> 8;
      if (id >= chunks || id <= previous || (packed & 0xff) === 0) return false;
      previous = id;
    }
  }
  return true;
}

/**
 * Shards read ahead of the one being decoded, so the disk (or the main thread, for the worker) works
 * while this one is decoded instead of in turn with it: a few MB in memory at most.
 */
const SHARDS_AHEAD = 4;

/**
 * Decodes the text shards one by one and hands each to `visit` before the next: what the visit does
 * not keep of a shard dies young (VaultIndex.open), so the load's garbage collections copy only
 * what the index keeps. Says how many shards were rejected (and removed).
 */
export async function eachShard(store: StateStore, visit: (shard: StoredShard) => Promise<void> | void): Promise<{ readonly rejected: number }> {
  const keys = await store.list(INDEX_PREFIX);
  let rejected = 0;
  const found: { readonly key: string; readonly shard: number }[] = [];
  for (const key of keys) {
    if (/\/notes-[0-9a-f]{2}\.json$/.test(key)) {
      // Format 1 (JSON term lists): superseded; its notes are indexed again.
      rejected += 1;
      await store.remove(key);
      continue;
    }
    const match = /\/text-([0-9a-f]{2})\.bin$/.exec(key);
    if (match) found.push({ key, shard: parseInt(match[1] ?? "", 16) });
  }
  const reads = new Map<number, Promise<Uint8Array | null>>();
  let next = 0;
  const readUpTo = (last: number) => {
    for (; next <= last && next < found.length; next++) {
      const reading = store.readBytes((found[next] as { key: string }).key);
      // Its error is raised where it is awaited; a load stopped before then must not leave it unhandled.
      reading.catch(() => undefined);
      reads.set(next, reading);
    }
  };
  for (let i = 0; i < found.length; i++) {
    const { key, shard } = found[i] as { key: string; shard: number };
    readUpTo(i + SHARDS_AHEAD);
    const bytes = await (reads.get(i) as Promise<Uint8Array | null>);
    reads.delete(i);
    const decoded = bytes === null || shard >= SHARD_COUNT ? null : decodeShard(bytes, shard);
    if (!decoded) {
      rejected += 1;
      await store.remove(key);
      continue;
    }
    await visit(decoded);
  }
  return { rejected };
}
