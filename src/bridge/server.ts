/**
 * The companion bridge's HTTP server. Bound to 127.0.0.1 only. Every request passes the gate
 * (Host, Origin, token) before routing; bodies are capped; every refusal is a JSON error with a
 * status and a code. An ingest runs the agent in a staging copy and streams NDJSON events; a query
 * runs it read-only in a copy of the wiki and the scoped notes and streams its answer; closing
 * the request, POST /cancel, the run timeout or stopping the bridge aborts the agent.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { realpath } from "node:fs/promises";
import * as z from "zod";
import { agentEnvironment } from "./agent-env";
import { runAgent, type AgentOutcome, type QueryFunction } from "./agent";
import { runQueryAgent } from "./query-agent";
import { createQueryStaging } from "./query-staging";
import { diagnose } from "./doctor";
import { HttpError, readJsonBody, sendError, sendJson, startStream } from "./http";
import {
  CancelRequestSchema,
  IngestRequestSchema,
  MAX_REQUEST_BYTES,
  QueryRequestSchema,
  type BridgeEvent,
  type ParsedIngestRequest,
  type ParsedQueryRequest,
} from "../core/bridge-protocol";
import { recoverBridgeVault } from "./recovery";
import { checkGate } from "./security";
import { excludedFoldersOf, refuseExcludedFolder } from "./vault-perimeter";
import { collectChanges, createStaging, DEFAULT_STAGING_LIMITS, StagingError, type StagingLimits } from "./staging";

export interface BridgeServerOptions {
  /** Vault folders this bridge serves; nothing else is ever staged. */
  readonly vaults: readonly string[];
  readonly token: string;
  /** 0 picks a free port (tests). */
  readonly port: number;
  /** Synapse version, reported on /health. */
  readonly version: string;
  /** The bridge's own environment: the agent's credentials come from here. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Loads the SDK's `query`; by default a dynamic import, so a missing SDK is a 503, not a crash. */
  readonly loadQuery?: () => Promise<QueryFunction>;
  readonly pathToClaudeCodeExecutable?: string;
  readonly maxConcurrentRuns?: number;
  /** Hard ceiling of one run, whatever the client does. */
  readonly runTimeoutMs?: number;
  readonly stagingLimits?: StagingLimits;
  /** Folder the staging copies are made in (the system's temp folder by default). */
  readonly stagingParent?: string;
  readonly maxRequestBytes?: number;
  /** Interval of heartbeat events on a quiet stream. */
  readonly heartbeatMs?: number;
  /** One line per request (method, path, status, duration) and per run; never tokens or content. */
  readonly log?: (line: string) => void;
  /** The native binary's stderr, for debugging. */
  readonly agentStderr?: (line: string) => void;
}

export interface BridgeServer {
  readonly url: string;
  readonly port: number;
  /** Agent runs in progress, and finished ones whose staging copy is still being removed. */
  activeRuns(): number;
  /** Aborts running agents and closes the server. */
  close(): Promise<void>;
}

const defaultLoadQuery = async (): Promise<QueryFunction> => {
  const sdk = await import("@anthropic-ai/claude-agent-sdk");
  return sdk.query;
};

const ROUTES: Readonly<Record<string, string>> = { "/health": "GET", "/ingest": "POST", "/query": "POST", "/cancel": "POST" };

function describeZodError(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.join(".") || "body"}: ${issue.message}`)
    .join("; ");
}

const STAGING_STATUS: Readonly<Record<StagingError["code"], number>> = {
  note_not_found: 404,
  folder_not_found: 404,
  not_a_note: 400,
  outside_vault: 403,
  too_large: 413,
  excluded: 403,
};

export async function startBridgeServer(options: BridgeServerOptions): Promise<BridgeServer> {
  const vaults = await Promise.all(options.vaults.map((v) => realpath(v)));
  const recovery = { env: options.env, log: options.log ?? (() => undefined) };
  // A run a crash interrupted is rolled back before the bridge serves anything from the vault.
  // If that fails, the bridge still starts; each ingest tries again and refuses while it fails.
  for (const vault of vaults) {
    await recoverBridgeVault(vault, recovery).catch((error: unknown) => recovery.log(`${vault}: recovery failed: ${error instanceof Error ? error.message : String(error)}`));
  }
  const runs = new Map<string, AbortController>();
  /** Staging copies of finished runs still being removed. */
  const cleanups = new Set<Promise<void>>();
  const maxRuns = options.maxConcurrentRuns ?? 2;
  /** Requests past the limit check that are still loading the SDK or staging. */
  let starting = 0;
  const maxBytes = options.maxRequestBytes ?? MAX_REQUEST_BYTES;
  const loadQuery = options.loadQuery ?? defaultLoadQuery;
  const log = options.log ?? (() => undefined);
  let port = options.port;

  async function resolveVault(vault: string): Promise<string> {
    const real = await realpath(vault).catch(() => null);
    if (real === null || !vaults.includes(real)) {
      throw new HttpError(403, "vault_not_served", "This bridge does not serve that vault; start it with --vault pointing at the vault's folder.");
    }
    return real;
  }

  /** Before each staging: a CLI killed since start-up must not leave the agent half a wiki. */
  async function recovered(vaultRoot: string, wikiFolder: string): Promise<void> {
    await recoverBridgeVault(vaultRoot, recovery, wikiFolder).catch((error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error);
      throw new HttpError(409, "recovery_failed", `An interrupted run in this vault could not be rolled back (${reason}); nothing was staged.`);
    });
  }

  async function health(res: ServerResponse): Promise<void> {
    const report = await diagnose({
      version: options.version,
      vaults,
      env: options.env,
      ...(options.pathToClaudeCodeExecutable ? { pathToClaudeCodeExecutable: options.pathToClaudeCodeExecutable } : {}),
    });
    sendJson(res, 200, report);
  }

  async function cancel(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const parsed = CancelRequestSchema.safeParse(await readJsonBody(req, maxBytes));
    if (!parsed.success) throw new HttpError(400, "invalid_request", describeZodError(parsed.error));
    const run = runs.get(parsed.data.runId);
    if (!run) throw new HttpError(404, "run_not_found", "No run with that id is in progress.");
    run.abort();
    sendJson(res, 200, { cancelled: true, runId: parsed.data.runId });
  }

  /**
   * Takes a run slot, loads the SDK and stages the copy the agent works in. The slot is taken
   * before the first await, so simultaneous requests cannot all slip past the limit.
   */
  async function prepare<T extends { dispose(): Promise<void> }>(what: string, stage: () => Promise<T>): Promise<{ runId: string; controller: AbortController; query: QueryFunction; staging: T }> {
    if (runs.size + starting >= maxRuns) throw new HttpError(429, "busy", `The bridge is already running ${runs.size + starting} ${what}; try again when one finishes.`);
    starting += 1;
    try {
      let query: QueryFunction;
      try {
        query = await loadQuery();
      } catch {
        throw new HttpError(503, "sdk_missing", "The Claude Agent SDK could not be loaded; run the bridge from the Synapse folder after npm install.");
      }
      const staging = await stage().catch((error: unknown) => {
        if (error instanceof StagingError) throw new HttpError(STAGING_STATUS[error.code], error.code, error.message);
        throw error;
      });
      const runId = randomUUID();
      const controller = new AbortController();
      runs.set(runId, controller);
      return { runId, controller, query, staging };
    } finally {
      starting -= 1;
    }
  }

  /**
   * Streams one run as NDJSON: `started`, heartbeats while the agent is quiet, whatever `execute`
   * emits, and `error` when it is cancelled or fails. Closing the request, POST /cancel, the run
   * timeout or stopping the bridge aborts it; the staging copy is removed in every case.
   */
  async function streamRun(
    res: ServerResponse,
    run: { runId: string; controller: AbortController; staging: { dispose(): Promise<void> } },
    label: string,
    model: string | null,
    /** Runs the agent; `detail` heads the run's log line ("3 pages, "). */
    execute: (emit: (event: BridgeEvent) => void, signal: AbortSignal) => Promise<{ outcome: AgentOutcome; detail: string }>,
  ): Promise<void> {
    const { runId, controller, staging } = run;
    const started = Date.now();
    const timer = setTimeout(() => controller.abort(), options.runTimeoutMs ?? 20 * 60_000);
    // The client going away (closed request, cancelled fetch) cancels the agent.
    res.on("close", () => {
      if (!res.writableFinished) controller.abort();
    });
    const emit = (event: BridgeEvent) => {
      if (!res.writableEnded && !res.destroyed) res.write(`${JSON.stringify(event)}\n`);
    };
    startStream(res);
    emit({ type: "started", runId, model });
    // A model turn can be silent for minutes; fetch clients drop bodies idle for about five.
    const heartbeat = setInterval(() => emit({ type: "heartbeat" }), options.heartbeatMs ?? 15_000);
    log(`run ${runId} started: ${label}`);
    try {
      const { outcome, detail } = await execute(emit, controller.signal);
      if (outcome.aborted) {
        emit({ type: "error", error: { code: "cancelled", message: "The run was cancelled; nothing was returned." } });
        log(`run ${runId} cancelled after ${Date.now() - started} ms`);
      } else {
        log(`run ${runId} ${outcome.subtype}: ${detail}${outcome.denied.length} denied, ${outcome.numTurns} turns, ${Date.now() - started} ms`);
      }
    } catch (error) {
      emit({ type: "error", error: { code: "internal", message: error instanceof Error ? error.message : String(error) } });
      log(`run ${runId} failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      clearTimeout(timer);
      clearInterval(heartbeat);
      // The agent is done: its slot is free at once, before the client (which stops reading at the
      // final event) can send its next request. The staging copy's removal is still awaited by
      // close() and counted by activeRuns().
      runs.delete(runId);
      const cleanup = staging.dispose().catch(() => undefined);
      cleanups.add(cleanup);
      res.end();
      await cleanup;
      cleanups.delete(cleanup);
    }
  }

  function agentOptions(signal: AbortSignal, emit: (event: BridgeEvent) => void, query: QueryFunction) {
    return {
      env: agentEnvironment(options.env, `synapse-bridge/${options.version}`),
      signal,
      emit,
      query,
      ...(options.pathToClaudeCodeExecutable ? { pathToClaudeCodeExecutable: options.pathToClaudeCodeExecutable } : {}),
      ...(options.agentStderr ? { stderr: options.agentStderr } : {}),
    };
  }

  async function ingest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const parsed = IngestRequestSchema.safeParse(await readJsonBody(req, maxBytes));
    if (!parsed.success) throw new HttpError(400, "invalid_request", describeZodError(parsed.error));
    const request: ParsedIngestRequest = parsed.data;
    const vaultRoot = await resolveVault(request.vault);
    // The vault's own excluded folders bound the staging, whatever the request lists.
    const excludedFolders = await excludedFoldersOf(vaultRoot, request.excludedFolders);
    refuseExcludedFolder(request.wikiFolder, excludedFolders, "The wiki folder");
    const limits = options.stagingLimits ?? DEFAULT_STAGING_LIMITS;
    const run = await prepare("ingests", async () => {
      await recovered(vaultRoot, request.wikiFolder);
      return createStaging(
        { vaultRoot, notePath: request.notePath, wikiFolder: request.wikiFolder, excludedFolders, previousPages: request.previousPages },
        limits,
        ...(options.stagingParent ? [options.stagingParent] : []),
      );
    });
    const started = Date.now();
    await streamRun(res, run, request.notePath, request.model ?? null, async (emit, signal) => {
      const outcome = await runAgent({ staging: run.staging, request, ...agentOptions(signal, emit, run.query) });
      if (outcome.aborted) return { outcome, detail: "" };
      const changes = await collectChanges(run.staging, limits);
      emit({ type: "usage", usage: outcome.usage });
      emit({
        type: "result",
        outcome: { ok: outcome.ok, subtype: outcome.subtype, message: outcome.message, numTurns: outcome.numTurns },
        pages: changes.pages,
        ignored: changes.ignored,
        denied: outcome.denied,
        usage: outcome.usage,
        model: outcome.model,
        durationMs: Date.now() - started,
      });
      return { outcome, detail: `${changes.pages.length} pages, ` };
    });
  }

  /** A question, answered read-only: the agent reads a staging copy and streams its answer. */
  async function ask(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const parsed = QueryRequestSchema.safeParse(await readJsonBody(req, maxBytes));
    if (!parsed.success) throw new HttpError(400, "invalid_request", describeZodError(parsed.error));
    const request: ParsedQueryRequest = parsed.data;
    const vaultRoot = await resolveVault(request.vault);
    // The vault's own excluded folders bound the staging, whatever the request lists or scopes.
    const excludedFolders = await excludedFoldersOf(vaultRoot, request.excludedFolders);
    refuseExcludedFolder(request.wikiFolder, excludedFolders, "The wiki folder");
    if (typeof request.notes === "object") for (const folder of request.notes.folders) refuseExcludedFolder(folder, excludedFolders, "The folder");
    const run = await prepare("runs", async () => {
      await recovered(vaultRoot, request.wikiFolder);
      return createQueryStaging(
        { vaultRoot, wikiFolder: request.wikiFolder, excludedFolders, notes: request.notes },
        options.stagingLimits ?? DEFAULT_STAGING_LIMITS,
        ...(options.stagingParent ? [options.stagingParent] : []),
      );
    });
    const started = Date.now();
    await streamRun(res, run, `a question (${run.staging.files.length} files staged)`, request.model ?? null, async (emit, signal) => {
      const outcome = await runQueryAgent({ root: run.staging.root, staged: run.staging.files, request, ...agentOptions(signal, emit, run.query) });
      if (outcome.aborted) return { outcome, detail: "" };
      emit({ type: "usage", usage: outcome.usage });
      emit({
        type: "answer",
        outcome: { ok: outcome.ok, subtype: outcome.subtype, message: outcome.message, numTurns: outcome.numTurns },
        answer: outcome.ok ? outcome.message : "",
        read: outcome.ok ? [...outcome.read] : [],
        denied: outcome.denied,
        usage: outcome.usage,
        model: outcome.model,
        durationMs: Date.now() - started,
      });
      return { outcome, detail: `${outcome.message.length} characters answered, ` };
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const gate = checkGate(req.headers, port, options.token);
    if (gate) {
      sendError(res, gate.status, gate.code, gate.message, gate.status === 401 ? { "www-authenticate": "Bearer" } : {});
      return;
    }
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    const method = ROUTES[path];
    if (!method) {
      sendError(res, 404, "not_found", `There is no ${path} on the bridge; it answers GET /health, POST /ingest, POST /query and POST /cancel.`);
      return;
    }
    if (req.method !== method) {
      sendError(res, 405, "method_not_allowed", `${path} takes ${method} requests.`, { allow: method });
      return;
    }
    if (path === "/health") await health(res);
    else if (path === "/cancel") await cancel(req, res);
    else if (path === "/query") await ask(req, res);
    else await ingest(req, res);
  }

  const server: Server = createServer((req, res) => {
    const started = Date.now();
    res.on("finish", () => log(`${req.method ?? "?"} ${new URL(req.url ?? "/", "http://127.0.0.1").pathname} ${res.statusCode} ${Date.now() - started} ms`));
    handle(req, res).catch((error: unknown) => {
      if (error instanceof HttpError) {
        const closing: Record<string, string> = error.status === 413 ? { connection: "close" } : {};
        sendError(res, error.status, error.code, error.message, closing);
        // Let an oversized upload drain briefly so the client reads the 413, then cut it off.
        if (error.status === 413) {
          req.resume();
          setTimeout(() => req.socket.destroy(), 2000).unref();
        }
        return;
      }
      sendError(res, 500, "internal", error instanceof Error ? error.message : "The bridge failed unexpectedly.");
    });
  });
  // Receiving a request (headers and the ≤1 MiB body) is quick; a slow sender is cut off. The
  // streamed answer is not subject to these (Node's socket timeout stays off; the run timeout rules).
  server.headersTimeout = 15_000;
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    activeRuns: () => runs.size + cleanups.size,
    close: async () => {
      for (const run of runs.values()) run.abort();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // Give running agents a moment to stop and their streams to end, then cut what is left.
      const deadline = Date.now() + 5000;
      while (runs.size + cleanups.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      server.closeAllConnections();
      await closed;
    },
  };
}
