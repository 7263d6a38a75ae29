/**
 * How the registry of ingested notes is laid out in the StateStore, and the one-time split of the
 * single file earlier versions kept. The registry is in shards so that an ingest reads and writes a
 * few small files however many notes the vault has (kept whole, 6,667 notes cost every ingest about
 * 110 ms of reading, parsing and rewriting 2.5 MB):
 * - `sources/notes-<xx>.json`: the entries of the notes whose path (NFC) hashes to `xx` (256 shards);
 * - `sources/hashes-<yy>.json`: for each content hash starting with `yy`, the note paths recorded
 *   with it — how a moved or renamed note is found by its content without reading every entry.
 * The hash index is a hint: an entry it names is always checked against the entry itself.
 */
import * as z from "zod";
import type { StateStore } from "../vault/state-store";

/** Where earlier versions kept the whole registry; split into shards once, then removed. */
export const SOURCES_KEY = "sources.json";
export const SOURCES_FOLDER = "sources";

export const SourceEntrySchema = z.object({
  /** `sha256:<hex>` of the note's text with line endings normalised (see `noteFingerprint`). */
  hash: z.string(),
  /** ISO timestamp of the ingest that recorded this entry. */
  ingestedAt: z.string(),
  /** The wiki folder the pages went to; another folder is another wiki, so the note is not up to date there. */
  wikiFolder: z.string(),
  /** Vault paths of the pages that ingest wrote or found already up to date (not index.md or log.md). */
  pages: z.array(z.string()),
  /**
   * The write run that recorded it (null when the ingest changed no file). An undo of that run
   * takes the pages back, so the note is no longer up to date then, whatever its hash says.
   */
  runId: z.string().nullable().default(null),
  /**
   * Paths the note was ingested under before it was moved or renamed, which sections on its pages
   * may still name (a move alone writes no page). The next ingest that writes the note's pages
   * revises those sections as the note's own and spells them with its new path.
   */
  formerPaths: z.array(z.string()).optional(),
  /**
   * Pages whose changes the review left out at that ingest. Such an ingest applied only part of
   * what the note yields, so the note is not up to date: the next ingest offers what was left out.
   */
  leftOut: z.array(z.string()).optional(),
});
export type SourceEntry = z.infer<typeof SourceEntrySchema>;

/** A notes shard, and the whole registry of earlier versions (the same shape). */
export const NotesShardSchema = z.object({
  version: z.literal(1),
  /** Keyed by the note's vault path in Unicode NFC, so a macOS (NFD) listing finds the same entry. */
  notes: z.record(z.string(), SourceEntrySchema),
});
export type NotesShard = z.infer<typeof NotesShardSchema>;

export const HashShardSchema = z.object({
  version: z.literal(1),
  /** Content hash → the note paths (NFC) recorded with it. */
  paths: z.record(z.string(), z.array(z.string())),
});
export type HashShard = z.infer<typeof HashShardSchema>;

const NOTES_SHARD = /^sources\/notes-[0-9a-f]{2}\.json$/;
const HASH_SHARD = /^sources\/hashes-[0-9a-f]{2}\.json$/;

export const isNotesShard = (key: string): boolean => NOTES_SHARD.test(key);
export const isHashShard = (key: string): boolean => HASH_SHARD.test(key);

/** Two hex digits of FNV-1a over the text: uniform enough that 256 shards stay small. */
function twoHex(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return (h & 0xff).toString(16).padStart(2, "0");
}

/** The shard holding a note's entry; `noteKey` is the NFC path. */
export function notesShardKey(noteKey: string): string {
  return `${SOURCES_FOLDER}/notes-${twoHex(noteKey)}.json`;
}

/** The shard listing the paths recorded with a content hash: its first two hex digits (already uniform). */
export function hashShardKey(hash: string): string {
  return `${SOURCES_FOLDER}/hashes-${/^sha256:([0-9a-f]{2})/.exec(hash)?.[1] ?? twoHex(hash)}.json`;
}

export const emptyNotes = (): NotesShard => ({ version: 1, notes: {} });
export const emptyHashes = (): HashShard => ({ version: 1, paths: {} });

/** Parses a stored shard; missing, unreadable or foreign reads as empty (the registry is a cache). */
export function parseShard<T>(text: string | null, schema: z.ZodType<T>, empty: () => T): T {
  if (text === null) return empty();
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : empty();
  } catch {
    return empty();
  }
}

export async function readShard<T>(store: StateStore, key: string, schema: z.ZodType<T>, empty: () => T): Promise<T> {
  return parseShard(await store.read(key).catch(() => null), schema, empty);
}

/** A shard as stored; an empty one is removed (null) rather than kept. */
export function serializeShard(shard: NotesShard | HashShard): string | null {
  const entries = "notes" in shard ? shard.notes : shard.paths;
  return Object.keys(entries).length === 0 ? null : `${JSON.stringify(shard, null, 1)}\n`;
}

/**
 * Splits the whole `sources.json` of an earlier version into shards and removes it; does nothing
 * when there is none. Shards first, the file last: interrupted, it is done again from the start,
 * and an entry a shard already holds (recorded since) wins over the old file's. Runs under the
 * write lock (see `applyPlan` and `recoverInterruptedRun`), so no run writes a shard meanwhile.
 * Returns how many entries it moved.
 */
export async function migrateWholeRegistry(store: StateStore): Promise<number> {
  const text = await store.read(SOURCES_KEY).catch(() => null);
  if (text === null) return 0;
  const whole = parseShard(text, NotesShardSchema, emptyNotes);
  const notes = new Map<string, Record<string, SourceEntry>>();
  const hashes = new Map<string, Record<string, string[]>>();
  for (const [path, entry] of Object.entries(whole.notes)) {
    const notesKey = notesShardKey(path.normalize("NFC"));
    notes.set(notesKey, { ...notes.get(notesKey), [path.normalize("NFC")]: entry });
    const hashKey = hashShardKey(entry.hash);
    const byHash = hashes.get(hashKey) ?? {};
    byHash[entry.hash] = [...(byHash[entry.hash] ?? []), path.normalize("NFC")];
    hashes.set(hashKey, byHash);
  }
  for (const [key, moved] of notes) {
    const shard = await readShard(store, key, NotesShardSchema, emptyNotes);
    shard.notes = { ...moved, ...shard.notes };
    const out = serializeShard(shard);
    if (out !== null) await store.write(key, out);
  }
  for (const [key, moved] of hashes) {
    const shard = await readShard(store, key, HashShardSchema, emptyHashes);
    for (const [hash, paths] of Object.entries(moved)) shard.paths[hash] = [...new Set([...(shard.paths[hash] ?? []), ...paths])];
    const out = serializeShard(shard);
    if (out !== null) await store.write(key, out);
  }
  await store.remove(SOURCES_KEY);
  return Object.keys(whole.notes).length;
}
