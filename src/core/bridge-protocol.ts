/**
 * The bridge's wire protocol: the single source of truth for what the bridge server and the `cli`
 * provider exchange. Pure zod, no Node, so the plugin bundle can import it. Requests are parsed
 * strictly (the bridge is the security boundary); events and reports are parsed loosely on the
 * client side, so a newer bridge adding a field breaks no older plugin.
 */
import * as z from "zod";
import { isIso6391 } from "./iso639";
import { WikiPageSchema } from "./schemas";

/** Version of this protocol; the bridge reports it on /health, the client checks it. */
export const BRIDGE_PROTOCOL_VERSION = 1;

/** Largest request body the bridge reads (413 beyond). */
export const MAX_REQUEST_BYTES = 1024 * 1024;
/** Caps inside a request, chosen so a full request stays below MAX_REQUEST_BYTES. */
export const MAX_CONTEXT_CHARS = 256 * 1024;
export const MAX_PREVIOUS_PAGES_CHARS = 512 * 1024;

/** A vault-relative path: forward slashes, no leading slash, no `.` or `..` segments, no drive. */
const RelativePathSchema = z
  .string()
  .min(1)
  .max(1024)
  .refine((p) => !p.includes("\\") && !p.includes("\0"), "use forward slashes")
  .refine((p) => !p.startsWith("/") && !/^[A-Za-z]:/.test(p), "must be relative to the vault")
  .refine((p) => p.split("/").every((s) => s !== "" && s !== "." && s !== ".."), "must not contain empty, . or .. segments");

export const IngestRequestSchema = z.strictObject({
  /** Absolute path of the vault on the bridge's machine; must be one the bridge serves. */
  vault: z.string().min(1).max(4096),
  /** Vault-relative path of the note to ingest. */
  notePath: RelativePathSchema.refine((p) => p.toLowerCase().endsWith(".md"), "must be a Markdown note"),
  /** Vault-relative folder the wiki lives in. */
  wikiFolder: RelativePathSchema,
  /** Folders whose notes must never reach the agent (the vault's "Excluded folders" setting). */
  excludedFolders: z.array(z.string().max(1024)).max(500).default([]),
  maxTurns: z.number().int().min(1).max(1000),
  maxBudgetUsd: z.number().positive().max(1000),
  /** Related wiki pages and, on a repair round, the validation errors of the previous attempt. */
  retrievalContext: z.string().max(MAX_CONTEXT_CHARS).default(""),
  /**
   * Pages the previous attempt of this ingest returned, put back into the staging copy so a repair
   * round edits them instead of starting over.
   */
  previousPages: z
    .array(z.strictObject({ path: RelativePathSchema, content: z.string() }))
    .max(200)
    .default([])
    .refine((pages) => pages.reduce((n, p) => n + p.content.length, 0) <= MAX_PREVIOUS_PAGES_CHARS, "previous pages are too large"),
  /** The model the agent uses; the agent's default when absent. */
  model: z.string().min(1).max(200).optional(),
  /** ISO 639-1 code every page is written in, when the user fixed the wiki's language; else each note's. */
  wikiLanguage: z.string().refine(isIso6391, "must be a two-letter ISO 639-1 code").optional(),
});
export type IngestRequest = z.input<typeof IngestRequestSchema>;
export type ParsedIngestRequest = z.output<typeof IngestRequestSchema>;

/** Caps of a question's conversation, so a full query request stays below MAX_REQUEST_BYTES. */
export const MAX_QUERY_MESSAGES = 41;
export const MAX_QUERY_MESSAGES_CHARS = 256 * 1024;

/** What the agent may read besides the wiki (mirrors the run's `NoteScope`). */
export const QueryNotesSchema = z.union([
  z.enum(["none", "all"]),
  z.strictObject({ folders: z.array(RelativePathSchema).min(1).max(50) }),
]);

export const QueryMessageSchema = z.strictObject({
  role: z.enum(["user", "assistant"]),
  content: z.string().min(1).max(MAX_QUERY_MESSAGES_CHARS),
});

/**
 * A question for the agent, answered read-only: it gets Read, Glob and Grep in a staging copy of
 * the wiki and the scoped notes, and nothing it does is ever written back.
 */
export const QueryRequestSchema = z.strictObject({
  /** Absolute path of the vault on the bridge's machine; must be one the bridge serves. */
  vault: z.string().min(1).max(4096),
  wikiFolder: RelativePathSchema,
  /** Folders never staged, whatever `notes` says. */
  excludedFolders: z.array(z.string().max(1024)).max(500).default([]),
  notes: QueryNotesSchema,
  /** The conversation, oldest first; the last message is the question. */
  messages: z
    .array(QueryMessageSchema)
    .min(1)
    .max(MAX_QUERY_MESSAGES)
    .refine((m) => m.at(-1)?.role === "user", "the last message must be the user's question")
    .refine((m) => m.reduce((n, x) => n + x.content.length, 0) <= MAX_QUERY_MESSAGES_CHARS, "the conversation is too long"),
  /** The numbered passages the answer is grounded in (and its citations checked against). */
  retrievalContext: z.string().max(MAX_CONTEXT_CHARS).default(""),
  maxTurns: z.number().int().min(1).max(1000),
  maxBudgetUsd: z.number().positive().max(1000),
  /** The most output tokens each model request of the answer may use (lint's pair checks cap their replies). */
  maxOutputTokens: z.number().int().positive().max(1_000_000).optional(),
  model: z.string().min(1).max(200).optional(),
  /** ISO 639-1 code the answer is written in, when the user fixed the wiki's language. */
  wikiLanguage: z.string().refine(isIso6391, "must be a two-letter ISO 639-1 code").optional(),
});
export type QueryRequest = z.input<typeof QueryRequestSchema>;
export type ParsedQueryRequest = z.output<typeof QueryRequestSchema>;

export const CancelRequestSchema = z.strictObject({ runId: z.string().min(1).max(100) });

/** A page the agent created or changed, with where it wrote it. */
export const BridgePageSchema = z.object({
  /** Vault-relative path (the staging copy mirrors the vault's layout). */
  path: z.string(),
  action: z.enum(["created", "changed"]),
  page: WikiPageSchema,
  /** The file as the agent wrote it, for a repair round. */
  markdown: z.string(),
});
export type BridgePage = z.infer<typeof BridgePageSchema>;

/** A tool call the bridge refused. */
export const DenialSchema = z.object({
  tool: z.string(),
  /** The path or pattern the call named, when it named one. */
  target: z.string().nullable(),
  reason: z.string(),
});
export type Denial = z.infer<typeof DenialSchema>;

export const AgentUsageSchema = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  costUsd: z.number().nullable(),
});
export type AgentUsage = z.infer<typeof AgentUsageSchema>;

/** How the agent's run ended, in the SDK's own words (`success`, `error_max_turns`, …). */
export const AgentOutcomeSchema = z.object({
  ok: z.boolean(),
  subtype: z.string(),
  /** The agent's last message or the SDK's error text. */
  message: z.string(),
  numTurns: z.number(),
});

/** Pages a query's agent may report having read, and how much of each it quotes back. */
export const MAX_AGENT_READS = 200;
export const MAX_AGENT_READ_CHARS = 4000;

/**
 * A file of the staging copy the agent read with its Read tool while answering: the vault-relative
 * path (the staging copy mirrors the vault) and the start of what Read returned. The client checks
 * citations of these pages as it does those of the passages it sent: the agent's context is what it
 * read. Strict: a path that is absolute or climbs out of the vault is not a page of the vault.
 */
export const AgentReadSchema = z.strictObject({
  path: RelativePathSchema,
  text: z.string().max(MAX_AGENT_READ_CHARS),
});
export type AgentRead = z.infer<typeof AgentReadSchema>;

/** The progress stream of one ingest or query, one JSON object per line (NDJSON). */
export const BridgeEventSchema = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("started"), runId: z.string(), model: z.string().nullable() }),
  /** Sent while the agent is quiet, so no transport gives up on an idle stream. */
  z.looseObject({ type: z.literal("heartbeat") }),
  z.looseObject({ type: z.literal("tool"), tool: z.string(), target: z.string().nullable() }),
  z.looseObject({ type: z.literal("denied"), denial: DenialSchema }),
  z.looseObject({ type: z.literal("file"), path: z.string() }),
  z.looseObject({ type: z.literal("usage"), usage: AgentUsageSchema }),
  z.looseObject({
    type: z.literal("result"),
    outcome: AgentOutcomeSchema,
    pages: z.array(BridgePageSchema),
    /** Files the agent wrote outside the staged wiki folder: never returned, only reported. */
    ignored: z.array(z.string()),
    denied: z.array(DenialSchema),
    usage: AgentUsageSchema,
    model: z.string().nullable(),
    durationMs: z.number(),
  }),
  z.looseObject({ type: z.literal("error"), error: z.object({ code: z.string(), message: z.string() }) }),
  /** A piece of a query's answer, as the model writes it. */
  z.looseObject({ type: z.literal("text"), text: z.string() }),
  /** The end of a query: the agent's final answer (what the streamed text ended with) and how it went. */
  z.looseObject({
    type: z.literal("answer"),
    outcome: AgentOutcomeSchema,
    answer: z.string(),
    /**
     * What the agent read itself. An entry that is not a well-formed read is dropped (null), not
     * allowed to lose the answer; a bridge older than this field sends none.
     */
    read: z.array(AgentReadSchema.nullable().catch(null)).max(MAX_AGENT_READS).default([]),
    denied: z.array(DenialSchema),
    usage: AgentUsageSchema,
    model: z.string().nullable(),
    durationMs: z.number(),
  }),
]);
export type BridgeEvent = z.infer<typeof BridgeEventSchema>;
export type ResultEvent = Extract<BridgeEvent, { type: "result" }>;
export type AnswerEvent = Extract<BridgeEvent, { type: "answer" }>;

export const HealthReportSchema = z.looseObject({
  ok: z.boolean(),
  protocol: z.number(),
  /** Synapse version of the bridge. */
  version: z.string(),
  sdk: z.object({ found: z.boolean(), version: z.string().nullable() }),
  binary: z.object({ found: z.boolean(), path: z.string().nullable(), version: z.string().nullable() }),
  auth: z.object({ configured: z.boolean(), method: z.string().nullable() }),
  /** The vaults this bridge serves (absolute paths). */
  vaults: z.array(z.string()),
  /** What works, one sentence each. */
  details: z.array(z.string()),
  /** What to fix, one sentence each; empty when ok. */
  problems: z.array(z.string()),
});
export type HealthReport = z.infer<typeof HealthReportSchema>;

/** Every error the bridge answers with, whatever the status. */
export const ErrorBodySchema = z.object({ error: z.object({ code: z.string(), message: z.string() }) });
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** Parses one NDJSON line; null for blank lines and for lines that are not an event we know. */
export function parseEventLine(line: string): BridgeEvent | null {
  const trimmed = line.trim();
  if (!trimmed) return null;
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return null;
  }
  const parsed = BridgeEventSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
