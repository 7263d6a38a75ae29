/**
 * The persisted index: one small shard per slice of the vault (a note's shard is a hash of its path),
 * so editing a note rewrites one shard of a few hundred notes, never the whole index, and no shard
 * grows into one giant string. Each shard opens with a header line holding the format version, the
 * body's length and a checksum: a truncated or corrupt shard is detected, dropped, and its notes
 * indexed again by the next sync.
 */
import type { StateStore } from "../vault/state-store";
import type { NoteLinks } from "./links";
import type { ChunkTerms } from "./text-index";

/** Bump when the shard layout or the tokenizer changes: every shard of another version is rebuilt. */
export const INDEX_FORMAT = 1;
export const SHARD_COUNT = 256;
export const INDEX_PREFIX = "index";
const MAGIC = "synapse-index";

export interface NoteRecord {
  readonly path: string;
  readonly mtime: number;
  readonly size: number;
  /** Content hash of the note's text when it was indexed. */
  readonly hash: string;
  readonly chunks: readonly ChunkTerms[];
  readonly links: NoteLinks;
}

type EncodedChunk = [string, number, number, number, string, string];
type EncodedNote = [string, number, number, string, EncodedChunk[], string[], string[], string[], string[]];

export function shardOf(path: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) h = Math.imul(h ^ path.charCodeAt(i), 0x01000193) >>> 0;
  return h % SHARD_COUNT;
}

export function shardKey(shard: number): string {
  return `${INDEX_PREFIX}/notes-${shard.toString(16).padStart(2, "0")}.json`;
}

export function checksum(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x5bd1e995) >>> 0;
  }
  return a.toString(16).padStart(8, "0") + b.toString(16).padStart(8, "0");
}

export function encodeShard(notes: Iterable<NoteRecord>): string {
  const body: EncodedNote[] = [];
  for (const n of notes) {
    body.push([
      n.path,
      n.mtime,
      n.size,
      n.hash,
      n.chunks.map((c): EncodedChunk => [c.heading, c.start, c.end, c.length, c.terms.join(" "), c.freqs.join(",")]),
      [...n.links.links],
      [...n.links.embeds],
      [...n.links.tags],
      [...n.links.sources],
    ]);
  }
  const json = JSON.stringify(body);
  return `${MAGIC} ${INDEX_FORMAT} ${json.length} ${checksum(json)}\n${json}`;
}

/** The notes of a shard, or null when it is of another format, truncated or corrupt. */
export function decodeShard(text: string): NoteRecord[] | null {
  const newline = text.indexOf("\n");
  if (newline < 0) return null;
  const [magic, format, length, sum] = text.slice(0, newline).split(" ");
  const json = text.slice(newline + 1);
  if (magic !== MAGIC || format !== String(INDEX_FORMAT) || length !== String(json.length) || sum !== checksum(json)) return null;
  try {
    const body = JSON.parse(json) as EncodedNote[];
    if (!Array.isArray(body)) return null;
    return body.map(([path, mtime, size, hash, chunks, links, embeds, tags, sources]) => ({
      path,
      mtime,
      size,
      hash,
      chunks: chunks.map(([heading, start, end, length, terms, freqs]) => ({
        heading,
        start,
        end,
        length,
        terms: terms === "" ? [] : terms.split(" "),
        freqs: freqs === "" ? [] : freqs.split(",").map(Number),
      })),
      links: { links, embeds, tags, sources },
    }));
  } catch {
    return null;
  }
}

export interface LoadedShards {
  readonly notes: NoteRecord[];
  /** Shards found unreadable (their notes are indexed again by the next sync). */
  readonly rejected: number;
}

export async function loadShards(store: StateStore): Promise<LoadedShards> {
  const keys = (await store.list(INDEX_PREFIX)).filter((k) => /\/notes-[0-9a-f]{2}\.json$/.test(k));
  const notes: NoteRecord[] = [];
  let rejected = 0;
  for (const key of keys) {
    const text = await store.read(key);
    const decoded = text === null ? null : decodeShard(text);
    if (!decoded) {
      rejected += 1;
      await store.remove(key);
      continue;
    }
    notes.push(...decoded);
  }
  return { notes, rejected };
}
