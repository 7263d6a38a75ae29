/**
 * What every batch command needs, built once per command from the vault and the record's provider:
 * the batch API client (batch-clients.ts, keys from the environment), the provider adapter over
 * any transport, the search index, and one note's ingest as `synapse ingest` runs it (its review
 * rule, its journal).
 */
import { toSynapseError } from "../core/errors";
import { MemoryRunLogger } from "../core/log";
import { batchApi } from "../batch/batch-clients";
import { BatchStore } from "../batch/batch-store";
import type { BatchProvider } from "../batch/record";
import type { BatchDeps } from "../batch/rounds";
import type { ProviderEnvironment } from "../providers/environment";
import { createProvider } from "../providers/factory";
import { createNodeFetch } from "../providers/transports/node-fetch";
import type { Settings } from "../settings/schema";
import type { NodeVault } from "../vault/node-vault";
import type { WriteContext } from "../write/apply";
import { effectiveWikiFolder } from "../wiki/page-paths";
import { envSecrets } from "./env-secrets";
import { ingestNote } from "../wiki/ingest-note";
import type { ReviewPlan } from "../wiki/review";
import { formatDiffs } from "./ingest-run";
import type { CliIO } from "./io";
import { openIndexIn, type OpenedIndex } from "./open-index";
import type { RetryPolicy } from "../providers/retry";

/**
 * A pass answered from the batch retries without waiting: the retry is answered from the same
 * results or kept for the next round, never sent to a server that could need the pause, and a
 * second of backoff per note and round added up to minutes over a folder of notes.
 */
const NO_BACKOFF: Partial<RetryPolicy> = { baseDelayMs: 0, maxDelayMs: 0 };

export interface SessionOptions {
  readonly vaultRoot: string;
  readonly vault: NodeVault;
  readonly write: WriteContext;
  /** Settings with the record's provider and model applied. */
  readonly settings: Settings;
  readonly provider: BatchProvider;
  readonly io: CliIO;
  readonly json: boolean;
  readonly diff: boolean;
  /** Notes the index must see as they are now (the batch's notes). */
  readonly notePaths: readonly string[];
  readonly signal?: AbortSignal;
  readonly writing?: (inProgress: boolean) => void;
  readonly now?: () => number;
  readonly onNote?: BatchDeps["onNote"];
  /** False for a command that ingests nothing (status, cancel): no search index is opened. */
  readonly ingests?: boolean;
}

export interface BatchSession {
  readonly deps: BatchDeps;
  /** Saves the search index (if an ingest wrote pages). */
  close(): Promise<void>;
}

export async function openBatchSession(options: SessionOptions): Promise<BatchSession> {
  const { io, settings, vault, write } = options;
  const logger = new MemoryRunLogger(settings.logContent);
  const transport = createNodeFetch();
  const env: ProviderEnvironment = { settings, secrets: envSecrets(io.env), fetch: transport, streamingFetch: transport, logger, vaultPath: options.vaultRoot };
  const api = batchApi(options.provider, env, transport);
  // Built once here so a missing key is reported before anything is read or sent.
  createProvider(options.provider, env);
  const only = { folders: [effectiveWikiFolder(settings.wikiFolder)], notes: [...options.notePaths] };
  const opened: OpenedIndex | null = options.ingests === false ? null : await openIndexIn(options.vaultRoot, settings, io, { progress: !options.json, persist: "refresh", only, ...(options.signal ? { signal: options.signal } : {}) }).catch((error: unknown) => {
    if (!options.signal?.aborted) io.stderr(`Warning: the search index could not be opened (${toSynapseError(error).message}); going on without it.\n`);
    return null;
  });
  const deps: BatchDeps = {
    vault,
    store: new BatchStore(write.store),
    write,
    api,
    providerOver: (over, live) => createProvider(options.provider, { ...env, fetch: over, streamingFetch: over, ...(live ? {} : { retry: NO_BACKOFF }) }),
    fetch: transport,
    now: options.now ?? (() => Date.now()),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onNote ? { onNote: options.onNote } : {}),
    ingest: async (notePath, provider, signal, beforeWrite) => {
      const report = await ingestNote(
        { vault, provider, settings, write, ...(opened ? { retriever: opened.index, catalog: opened.catalog } : {}) },
        {
          notePath,
          signal,
          log: logger,
          // The terminal's rule, as synapse ingest has it: every change is applied (with --diff, shown first).
          review: (plan: ReviewPlan) => {
            if (!beforeWrite()) return Promise.resolve([]);
            if (options.diff && !options.json && plan.changes.length > 0) io.stdout(formatDiffs(plan));
            return Promise.resolve(plan.changes.map((c) => c.path));
          },
          progress: (event) => {
            if (event.type === "phase" && event.phase === "writing") options.writing?.(true);
          },
        },
      );
      options.writing?.(false);
      return report;
    },
  };
  return {
    deps,
    close: async () => {
      await opened?.finish().catch((error: unknown) => io.stderr(`Warning: the search index was not saved (${toSynapseError(error).message}).\n`));
    },
  };
}
