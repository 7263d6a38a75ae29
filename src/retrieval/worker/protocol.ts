/**
 * The messages between the main thread and the search index's worker, both ways, as zod schemas:
 * the single source of the protocol's shapes and types. The main thread parses what the worker
 * sends with them. The worker imports only types from here (so its bundle holds no zod) and checks
 * just the envelope of what it receives (inbound.ts): every message it gets comes from this
 * plugin's own main thread, built from the same code and typed by these schemas.
 *
 * - The main thread sends requests (`open`, `apply`, `sync`, …), each with an id, and `cancel`s
 *   them; the worker answers each with one `reply` (a value, or an error as data), preceded by any
 *   `progress` events of that request.
 * - The worker calls back for what only the main thread has (`call`, answered by an `answer`):
 *   the vault's files and metadata, the state store's shard files, the embedding model, and
 *   whether a prepared note is still current. A call made for a request names it, so the main
 *   thread answers with that request's vault, signal and hooks.
 * - Shard bytes and vectors travel as typed arrays whose buffers are in the transfer list.
 *
 * Every reply carries the index's counts, and is preceded by what changed of its catalogue (which
 * paths are indexed, which exist but are never indexed) in pieces of CATALOG_PIECE paths, each
 * message a task of its own on the main thread: so the main thread answers `stats()` and an
 * ingest's catalogue lookups at once, without a round trip, and never copies 50,000 names in one task.
 */
import * as z from "zod";

const Stat = z.object({ mtime: z.number(), size: z.number() });
const HostLinks = z.object({ links: z.array(z.string()), embeds: z.array(z.string()), tags: z.array(z.string()) });
/** A note's frontmatter values (note-frontmatter.ts), read on the main thread: the worker has no YAML parser. */
const Frontmatter = z.object({ title: z.string().nullable(), aliases: z.array(z.string()), tags: z.array(z.string()), sources: z.array(z.string()) });

const Scope = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("wiki") }),
  z.object({ kind: z.literal("notes") }),
  z.object({ kind: z.literal("all") }),
  z.object({ kind: z.literal("folders"), folders: z.array(z.string()) }),
]);

const VaultChange = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("upsert"), path: z.string(), text: z.string(), stat: Stat, links: HostLinks.nullish(), frontmatter: Frontmatter }),
  z.object({ kind: z.literal("delete"), path: z.string() }),
  z.object({ kind: z.literal("rename"), from: z.string(), to: z.string(), text: z.string(), stat: Stat.optional(), links: HostLinks.nullish(), frontmatter: Frontmatter }),
]);

/** An error as data: its message, and its kind when it is a SynapseError (so the caller can tell an input error from a failure). */
export const ErrorData = z.object({ message: z.string(), name: z.string(), kind: z.string().optional() });
export type ErrorData = z.infer<typeof ErrorData>;

// ——— main thread → worker ———

const OpenOptions = z.object({
  wikiFolder: z.string(),
  excludedFolders: z.array(z.string()),
  maxNoteBytes: z.number().optional(),
  /** The embedder's `modelId`, or null without one (the vectors' calls then never come). */
  embeddingModel: z.string().nullable(),
  configuredEmbeddingModel: z.string().nullable().optional(),
  /** Whether the main thread sends a note's host links with its text (Obsidian's metadata cache). */
  knownLinks: z.boolean(),
});

const SyncOptions = z.object({
  batchSize: z.number().optional(),
  flush: z.boolean().optional(),
  embed: z.boolean().optional(),
  only: z.object({ folders: z.array(z.string()), notes: z.array(z.string()).optional() }).optional(),
  /** Which of the optional VaultPort calls the request's vault has. */
  vault: z.object({ readWithStat: z.boolean(), statMany: z.boolean() }),
});

const request = <Op extends string, Shape extends z.ZodRawShape>(op: Op, shape: Shape) =>
  z.object({ type: z.literal("request"), id: z.number(), op: z.literal(op), ...shape });

export const Request = z.discriminatedUnion("op", [
  request("open", { options: OpenOptions }),
  request("apply", { changes: z.array(VaultChange), stillCurrent: z.boolean() }),
  request("sync", { options: SyncOptions }),
  request("compact", {}),
  request("embedPending", {}),
  request("flush", {}),
  request("close", {}),
  request("retrieve", { query: z.string(), options: z.object({ scope: Scope, limit: z.number() }) }),
  request("reconnect", {}),
]);
export type Request = z.infer<typeof Request>;
export type RequestOp = Request["op"];

export const Answer = z.discriminatedUnion("ok", [
  z.object({ type: z.literal("answer"), id: z.number(), ok: z.literal(true), value: z.unknown() }),
  z.object({ type: z.literal("answer"), id: z.number(), ok: z.literal(false), error: ErrorData }),
]);

export const ToWorker = z.union([Request, z.object({ type: z.literal("cancel"), id: z.number() }), Answer]);
export type ToWorker = z.infer<typeof ToWorker>;

// ——— worker → main thread ———

const call = <Service extends string, Shape extends z.ZodRawShape>(service: Service, shape: Shape) =>
  z.object({ type: z.literal("call"), id: z.number(), request: z.number().nullable(), service: z.literal(service), ...shape });

/** What the worker asks of the main thread. `request` names the request a vault call or a `stillCurrent` belongs to. */
export const Call = z.discriminatedUnion("service", [
  call("vault.list", { folder: z.string() }),
  call("vault.stat", { path: z.string() }),
  call("vault.read", { path: z.string() }),
  call("vault.readWithStat", { path: z.string() }),
  call("vault.statMany", { paths: z.array(z.string()) }),
  call("note.read", { path: z.string() }),
  call("store.read", { key: z.string() }),
  call("store.readBytes", { key: z.string() }),
  call("store.write", { key: z.string(), content: z.union([z.string(), z.instanceof(Uint8Array)]) }),
  call("store.append", { key: z.string(), text: z.string() }),
  call("store.remove", { key: z.string() }),
  call("store.list", { prefix: z.string() }),
  call("store.createExclusive", { key: z.string(), content: z.string() }),
  call("embed", { texts: z.array(z.string()) }),
  call("stillCurrent", { path: z.string() }),
]);
export type Call = z.infer<typeof Call>;
export type Service = Call["service"];

const NullableStat = Stat.nullable();
const ReadNote = z.object({ text: z.string(), links: HostLinks.nullable(), frontmatter: Frontmatter });

/** What each call's answer holds (its type is what the worker's ports return). */
export const AnswerValue = {
  "vault.list": z.array(z.string()),
  "vault.stat": NullableStat,
  "vault.read": ReadNote,
  "vault.readWithStat": z.object({ stat: Stat, text: z.string(), links: HostLinks.nullable(), frontmatter: Frontmatter }).nullable(),
  "vault.statMany": z.array(NullableStat),
  "note.read": z.string(),
  "store.read": z.string().nullable(),
  "store.readBytes": z.instanceof(Uint8Array).nullable(),
  "store.write": z.null(),
  "store.append": z.null(),
  "store.remove": z.null(),
  "store.list": z.array(z.string()),
  "store.createExclusive": z.boolean(),
  embed: z.array(z.instanceof(Float32Array)),
  stillCurrent: z.boolean(),
} as const satisfies Record<Service, z.ZodType>;

/** The index's counts, sent with every reply. */
export const IndexState = z.object({
  notes: z.number(),
  chunks: z.number(),
  rejectedShards: z.number(),
  wikiPages: z.number(),
  vectors: z.object({ notes: z.number(), rejectedShards: z.number(), error: z.string().nullable() }).nullable(),
});
export type IndexState = z.infer<typeof IndexState>;

/**
 * What changed of the catalogue since the last reply, in pieces of CATALOG_PIECE paths
 * (protocol-names.ts): paths joined by NUL (no file name holds one) with their places
 * (PATH_GONE, PATH_INDEXED, PATH_UNINDEXED), one byte each — one string and one buffer a piece.
 */
export const CatalogDelta = z.object({ paths: z.string(), places: z.instanceof(Uint8Array) });
export type CatalogDelta = z.infer<typeof CatalogDelta>;

const Outcome = z.enum(["changed", "unchanged", "stale", "skipped"]);
const Flushed = z.object({ shardsWritten: z.number(), bytesWritten: z.number() });

/** What each request's reply holds. */
export const ReplyValue = {
  open: z.null(),
  apply: z.object({ outcomes: z.array(Outcome) }),
  sync: z.object({
    total: z.number(),
    indexed: z.number(),
    removed: z.number(),
    unchanged: z.number(),
    shardsWritten: z.number(),
    bytesWritten: z.number(),
    embedded: z.number(),
    vectorError: z.string().nullable(),
  }),
  compact: z.null(),
  embedPending: z.object({ notes: z.number(), embedded: z.number(), reused: z.number(), error: z.string().nullable() }),
  flush: Flushed,
  close: Flushed,
  retrieve: z.array(z.object({ path: z.string(), heading: z.string(), score: z.number(), snippet: z.string(), text: z.string() })),
  reconnect: z.boolean(),
} as const satisfies Record<RequestOp, z.ZodType>;

export const FromWorker = z.union([
  z.discriminatedUnion("ok", [
    z.object({ type: z.literal("reply"), id: z.number(), ok: z.literal(true), value: z.unknown(), state: IndexState }),
    z.object({ type: z.literal("reply"), id: z.number(), ok: z.literal(false), error: ErrorData, state: IndexState.nullable() }),
  ]),
  /** A piece of what a request changed of the catalogue, sent before its reply. */
  z.object({ type: z.literal("catalog"), delta: CatalogDelta }),
  z.object({ type: z.literal("progress"), id: z.number(), part: z.enum(["sync", "embed"]), done: z.number(), total: z.number() }),
  z.object({ type: z.literal("vectorFailure"), message: z.string() }),
  /** The worker could not read a message at all: nothing it was asked can be trusted to finish. */
  z.object({ type: z.literal("fatal"), error: ErrorData }),
  Call,
]);
export type FromWorker = z.infer<typeof FromWorker>;

/** Either end of the channel: a Worker, the worker's own scope, or a MessagePort (node:worker_threads in tests). */
export interface IndexPort {
  postMessage(message: unknown, transfer?: ArrayBuffer[]): void;
  addEventListener(type: "message", listener: (event: { readonly data: unknown }) => void): void;
}
