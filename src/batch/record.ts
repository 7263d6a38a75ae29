/**
 * A batch ingest's record in the state folder (`batches/<id>.json`): everything a later process
 * needs to carry the ingest on — the provider and model, the round and its remote batch, and for
 * each note its path, the hash of the text that was submitted, where it stands, and every model
 * call's result. The record is the only memory of a batch: `synapse batch status|collect|cancel`
 * and the plugin read nothing else.
 */
import * as z from "zod";

export const BATCHES_PREFIX = "batches";

/** The batch APIs a batch ingest can go through (the API profiles of the same names). */
export const BatchProviderSchema = z.enum(["anthropic", "openai"]);
export type BatchProvider = z.infer<typeof BatchProviderSchema>;

/**
 * One model call of a note's ingest. `key` says which call it is (`analyze:0`, `generate:1`,
 * `ask:<hash>`); `status` is where its request stands: waiting in the current round's batch, or
 * the result the batch gave.
 */
export const BatchCallSchema = z.object({
  key: z.string().min(1),
  /** The request's id in its batch (Anthropic: 1–64 characters of [a-zA-Z0-9_-]). */
  customId: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/),
  round: z.number().int().positive(),
  status: z.enum(["pending", "succeeded", "errored", "expired", "canceled"]),
  /** The provider's reply as it came (an Anthropic message, an OpenAI chat completion); null until it succeeded. */
  reply: z.unknown().nullable(),
  /** Why the request did not succeed, in a sentence; null otherwise. */
  error: z.string().nullable(),
});
export type BatchCall = z.infer<typeof BatchCallSchema>;

export const NoteStateSchema = z.enum([
  /** Calls are waiting in a batch, or results came back and its ingest goes on at the next collect. */
  "running",
  /** Its pages were written, one run in the history. */
  "applied",
  /** It was ingested already and had not changed: nothing to do. */
  "up_to_date",
  /** A request failed, expired or was cancelled, or the ingest did not converge: `collect --retry-failed`. */
  "failed",
  /** Edited since it was submitted: skipped, never overwritten. */
  "changed",
]);
export type NoteState = z.infer<typeof NoteStateSchema>;

export const BatchNoteSchema = z.object({
  path: z.string().min(1),
  /** The fingerprint (source-registry.ts) of the text whose requests were submitted. */
  hash: z.string().min(1),
  state: NoteStateSchema,
  /** What happened, for status and collect to say (a failure's reason, the run that applied it). */
  message: z.string().nullable(),
  calls: z.array(BatchCallSchema),
});
export type BatchNote = z.infer<typeof BatchNoteSchema>;

/** One round's remote batch. */
export const BatchRoundSchema = z.object({
  round: z.number().int().positive(),
  /** Null between recording the round and the provider accepting it (a crash there: collect submits it again). */
  remoteId: z.string().nullable(),
  requests: z.number().int().nonnegative(),
  submittedAt: z.string(),
  /** When its results were taken in; null while it runs. */
  collectedAt: z.string().nullable(),
  canceled: z.boolean(),
});
export type BatchRound = z.infer<typeof BatchRoundSchema>;

export const BatchRecordSchema = z.object({
  version: z.literal(1),
  id: z.string().regex(/^[a-z0-9-]{1,64}$/),
  provider: BatchProviderSchema,
  model: z.string().min(1),
  /**
   * The command-line choices of the submission that later rounds must keep (the server, the
   * generation attempts, the wiki's language); null where the vault's settings decided.
   */
  flags: z.object({ baseUrl: z.string().nullable(), maxIter: z.string().nullable(), lang: z.string().nullable() }),
  /** The folder that was ingested ("" for the whole vault). */
  folder: z.string(),
  createdAt: z.string(),
  rounds: z.array(BatchRoundSchema),
  notes: z.array(BatchNoteSchema),
});
export type BatchRecord = z.infer<typeof BatchRecordSchema>;

/** The round still at the provider (submitted, results not yet taken in), if any. */
export function openRound(record: BatchRecord): BatchRound | null {
  const last = record.rounds[record.rounds.length - 1];
  return last && last.collectedAt === null ? last : null;
}

/** Nothing is left to do for any note but a retry of the failed ones. */
export function isSettled(record: BatchRecord): boolean {
  return openRound(record) === null && record.notes.every((n) => n.state !== "running");
}
