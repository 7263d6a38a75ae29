/**
 * The write path's persisted records, in the StateStore: the journal of the run in progress
 * (`journal/<device>.json`), the lock naming the one writer of this device's copy
 * (`locks/<device>.json`) and the history of the last runs (`history/<id>.json`, for undo). Sync
 * tools copy the state folder between devices, so every record names the device and the vault that
 * wrote it (see `writer-device.ts`). zod is the single source of truth for their shape; a record
 * that does not parse is reported, never guessed at.
 */
import * as z from "zod";
import { DeviceSchema } from "../core/device";
import { LineChangeSchema } from "./line-changes";

export const OPERATIONS = ["ingest", "query", "lint", "undo", "retract", "index"] as const;
export type WriteOperation = (typeof OPERATIONS)[number];

export { DeviceSchema, type Device } from "../core/device";

export const WriterSchema = z.object({
  /** Which program writes: the plugin, the CLI or the bridge. */
  kind: z.enum(["plugin", "cli", "bridge"]),
  /** Process id, where the program has one it can tell (not the plugin on mobile). */
  pid: z.number().int().nullable(),
  /** Host name, where the program can tell it; with pid it lets a process on the same host see a dead owner. */
  host: z.string().nullable(),
  /** The device it runs on; absent in records of earlier versions (an unknown device). */
  device: DeviceSchema.optional(),
  /** The id of the vault whose state folder it wrote (`vault-id.json`); absent in earlier records. */
  vault: z.string().optional(),
});
export type WriterIdentity = z.infer<typeof WriterSchema>;

export const LockSchema = z.object({
  version: z.literal(1),
  writer: WriterSchema,
  /** Unique per acquisition, so a writer never releases someone else's lock. */
  token: z.string(),
  /** What it is doing, for the message another writer shows ("ingest of Note"). */
  activity: z.string(),
  /** Epoch milliseconds by the holder's clock: named only by the device that wrote it. */
  started: z.number(),
  /**
   * Changed while the lock is held. Another writer judges the holder alive while it sees this
   * value change, timed by its own monotonic clock: the value is never compared with a clock.
   */
  heartbeat: z.number(),
});
export type LockRecord = z.infer<typeof LockSchema>;

export const JournalEntrySchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("write"),
    path: z.string(),
    /** What the file held before the run, or null when it did not exist. */
    previous: z.string().nullable(),
    /** Hash of what the run writes (null: the run removes the file), to tell our write from a later edit. */
    nextHash: z.string().nullable(),
  }),
  z.object({
    kind: z.literal("state"),
    /** A key of Synapse's StateStore the run changes with the files (a contradiction's status, a note's registry entry). */
    key: z.string(),
    previous: z.string().nullable(),
    nextHash: z.string().nullable(),
  }),
  z.object({
    kind: z.literal("append"),
    path: z.string(),
    /** The exact text appended to an existing file; rolling back removes exactly this text. */
    text: z.string(),
    /**
     * The file's size in bytes before the append (absent in journals of earlier versions): tells
     * "not appended yet" from "appended" even when the file already ended with the same text.
     */
    sizeBefore: z.number().int().nonnegative().optional(),
  }),
  z.object({
    /** A file that grows with the wiki (index.md), changed in place: only the lines the run replaced. */
    kind: z.literal("lines"),
    path: z.string(),
    change: LineChangeSchema,
  }),
]);
export type JournalEntry = z.infer<typeof JournalEntrySchema>;

export const JournalSchema = z.object({
  version: z.literal(1),
  runId: z.string(),
  operation: z.enum(OPERATIONS),
  label: z.string(),
  started: z.number(),
  writer: WriterSchema,
  /** Every file the run may touch, written before the first one changes. */
  entries: z.array(JournalEntrySchema),
});
export type Journal = z.infer<typeof JournalSchema>;

export const WholeRunFileSchema = z.object({
  path: z.string(),
  type: z.string(),
  title: z.string(),
  action: z.enum(["created", "updated", "merged", "removed"]),
  /** Content before the run; null when the run created the file. */
  before: z.string().nullable(),
  /** Content after the run; null when the run removed the file. */
  after: z.string().nullable(),
});
export type WholeRunFile = z.infer<typeof WholeRunFileSchema>;

/** A file that grows with the wiki (index.md), changed in place: the lines the run replaced, not two copies. */
export const LinesRunFileSchema = z.object({
  path: z.string(),
  type: z.string(),
  title: z.string(),
  action: z.literal("updated"),
  lines: LineChangeSchema,
});
export type LinesRunFile = z.infer<typeof LinesRunFileSchema>;

export const RunFileSchema = z.union([WholeRunFileSchema, LinesRunFileSchema]);
export type RunFile = z.infer<typeof RunFileSchema>;

export const RunStateSchema = z.object({
  key: z.string(),
  /** The value before the run; null when the key did not exist. */
  before: z.string().nullable(),
  /** The value the run left; null when the run removed the key. */
  after: z.string().nullable(),
});
export type RunState = z.infer<typeof RunStateSchema>;

export function isLinesRunFile(file: RunFile): file is LinesRunFile {
  return "lines" in file;
}

export const RunRecordSchema = z.object({
  version: z.literal(1),
  id: z.string(),
  operation: z.enum(OPERATIONS),
  label: z.string(),
  /** Epoch milliseconds when the run finished. */
  at: z.number(),
  writer: WriterSchema,
  /** Every file the run changed, log.md excepted (it only grows). */
  files: z.array(RunFileSchema),
  /** Synapse's own records the run changed with the files, so that undo reverts them too (absent in older records). */
  state: z.array(RunStateSchema).default([]),
  /** The entry appended to log.md, if any. */
  log: z.object({ path: z.string(), text: z.string() }).nullable(),
  /** For an undo: the id of the run it undid (a run is undone when a later record names it here). */
  undoes: z.string().nullable(),
});
export type RunRecord = z.infer<typeof RunRecordSchema>;

/** Parses a stored record; null with the reason when it is not one. */
export function parseRecord<T>(schema: z.ZodType<T>, text: string): { ok: true; value: T } | { ok: false; reason: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, reason: "it is not JSON" };
  }
  const parsed = schema.safeParse(json);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, reason: parsed.error.issues[0]?.message ?? "invalid" };
}
