/**
 * A scripted batch server on 127.0.0.1 that speaks both batch protocols, so the real SDK clients
 * run their own requests, uploads and JSONL decoding:
 * - Anthropic Message Batches: POST /v1/messages/batches, GET …/{id} (processing_status
 *   in_progress → ended, request_counts, results_url), GET …/{id}/results (JSON lines of
 *   succeeded | errored | canceled | expired), POST …/{id}/cancel (canceling, then ended);
 * - OpenAI Batch: POST /v1/files (the JSONL upload), POST /v1/batches, GET /v1/batches/{id}
 *   (validating → in_progress → finalizing → completed | expired | cancelling → cancelled),
 *   GET /v1/files/{id}/content (output and error files), POST /v1/batches/{id}/cancel.
 * Each batch ends after `pollsToEnd` status polls (no clock: a poll is an event). The interactive
 * model endpoints (/v1/messages, /v1/chat/completions streamed) answer too, for retries. What each
 * request gets is the test's `answer`: a reply text, an error, or "expired".
 */
import { replyResponse } from "../../src/batch/replies";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type BatchProtocol = "anthropic" | "openai";

/** What the request asks for, read from its body (the adapters name their schemas). */
export type RequestKind = "analysis" | "pages" | "same_subject" | "other";

export interface ScriptedRequest {
  readonly kind: RequestKind;
  /** The note the request is about, from the prompt. */
  readonly notePath: string | null;
  readonly body: Record<string, unknown>;
  /** True for a request sent to the interactive endpoint. */
  readonly interactive: boolean;
}

export type BatchAnswer =
  | { readonly kind: "text"; readonly text: string; readonly usage?: { readonly input: number; readonly output: number } }
  | { readonly kind: "errored"; readonly message: string }
  | { readonly kind: "expired" };

export interface BatchServerOptions {
  readonly protocol: BatchProtocol;
  readonly answer: (request: ScriptedRequest) => BatchAnswer;
  /** Status polls a batch takes to end (default 2: one "in progress", then ended). */
  readonly pollsToEnd?: number;
}

interface StoredBatch {
  readonly id: string;
  readonly requests: { readonly customId: string; readonly body: Record<string, unknown> }[];
  polls: number;
  canceled: boolean;
  /** Computed when the batch ends. */
  results: { customId: string; answer: BatchAnswer | { kind: "canceled" } }[] | null;
}

export interface BatchServer {
  readonly url: string;
  readonly batches: StoredBatch[];
  /** Requests sent to the interactive model endpoint. */
  readonly interactive: ScriptedRequest[];
  setAnswer(answer: (request: ScriptedRequest) => BatchAnswer): void;
  /** The next batch creation is refused with this HTTP status (an outage, an overloaded API). */
  refuseNextCreate(status: number): void;
  /**
   * Holds the next download of a batch's results (Anthropic's results, OpenAI's output file) until
   * `release`; `reached` settles when a collector asks for them. A test overlaps two collectors so.
   */
  holdNextResults(): { readonly reached: Promise<void>; release(): void };
  close(): Promise<void>;
}

const DEFAULT_USAGE = { input: 100, output: 50 };

function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(textOf).join("\n");
  if (value && typeof value === "object") return Object.values(value as Record<string, unknown>).map(textOf).join("\n");
  return "";
}

export function describeRequest(body: Record<string, unknown>, interactive: boolean): ScriptedRequest {
  const all = JSON.stringify(body);
  const kind: RequestKind = /Submit the analysis|"name":"analysis"/.test(all)
    ? "analysis"
    : /Submit the pages|"name":"wiki_pages"/.test(all)
      ? "pages"
      : /same_subject|same-subject/.test(all)
        ? "same_subject"
        : "other";
  const text = textOf(body.system) + "\n" + textOf(body.messages);
  const fromSystem = /lists "([^"]+)" exactly as written/.exec(text)?.[1];
  const fromUser = [...text.matchAll(/Source note "([^"]+)":/g)].pop()?.[1];
  return { kind, notePath: (kind === "pages" ? fromSystem : fromUser) ?? fromSystem ?? null, body, interactive };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

function anthropicMessage(body: Record<string, unknown>, text: string, usage: { input: number; output: number }): Record<string, unknown> {
  const tool = (body.tool_choice as { name?: string } | undefined)?.name;
  let content: Record<string, unknown>[] = [{ type: "text", text }];
  if (tool) {
    try {
      content = [{ type: "tool_use", id: "toolu_1", name: tool, input: JSON.parse(text) as unknown }];
    } catch {
      // Not JSON: prose, as a model may answer.
    }
  }
  return { id: "msg_b", type: "message", role: "assistant", model: body.model, content, stop_reason: tool ? "tool_use" : "end_turn", stop_sequence: null, usage: { input_tokens: usage.input, output_tokens: usage.output } };
}

function openaiCompletion(body: Record<string, unknown>, text: string, usage: { input: number; output: number }): Record<string, unknown> {
  return {
    id: "chatcmpl_b",
    object: "chat.completion",
    created: 0,
    model: body.model,
    choices: [{ index: 0, message: { role: "assistant", content: text, refusal: null }, finish_reason: "stop" }],
    usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
  };
}

export async function startBatchServer(options: BatchServerOptions): Promise<BatchServer> {
  let answer = options.answer;
  const pollsToEnd = options.pollsToEnd ?? 2;
  const batches: StoredBatch[] = [];
  const files = new Map<string, string>();
  const interactive: ScriptedRequest[] = [];
  let url = "";
  let refuseCreate: number | null = null;
  let resultsGate: { arrived: () => void; open: Promise<void> } | null = null;
  /** Waits at the gate, if one is set for this download (each gate holds one download). */
  const passGate = async () => {
    const gate = resultsGate;
    if (!gate) return;
    resultsGate = null;
    gate.arrived();
    await gate.open;
  };
  const refused = (res: ServerResponse): boolean => {
    if (refuseCreate === null) return false;
    const status = refuseCreate;
    refuseCreate = null;
    json(res, status, options.protocol === "anthropic" ? { type: "error", error: { type: "overloaded_error", message: "Overloaded" } } : { error: { message: "The server is overloaded.", type: "server_error" } });
    return true;
  };

  const finish = (batch: StoredBatch) => {
    batch.results ??= batch.requests.map((r) => ({ customId: r.customId, answer: batch.canceled ? { kind: "canceled" as const } : answer(describeRequest(r.body, false)) }));
    return batch.results;
  };
  const ended = (batch: StoredBatch) => batch.canceled || batch.polls >= pollsToEnd;
  const counts = (batch: StoredBatch) => {
    const results = ended(batch) ? finish(batch) : null;
    const of = (kind: string) => (results ? results.filter((r) => r.answer.kind === kind).length : 0);
    return { results, succeeded: of("text"), errored: of("errored"), expired: of("expired"), canceled: of("canceled") };
  };

  const anthropicBatch = (batch: StoredBatch) => {
    const c = counts(batch);
    const done = c.results !== null;
    return {
      id: batch.id,
      type: "message_batch",
      processing_status: done ? "ended" : batch.canceled ? "canceling" : "in_progress",
      request_counts: { processing: done ? 0 : batch.requests.length, succeeded: c.succeeded, errored: c.errored, canceled: c.canceled, expired: c.expired },
      results_url: done ? `${url}/v1/messages/batches/${batch.id}/results` : null,
      created_at: new Date(0).toISOString(),
      expires_at: new Date(86_400_000).toISOString(),
      ended_at: done ? new Date(1000).toISOString() : null,
      archived_at: null,
      cancel_initiated_at: batch.canceled ? new Date(500).toISOString() : null,
    };
  };

  const openaiBatch = (batch: StoredBatch) => {
    const c = counts(batch);
    const done = c.results !== null;
    let output_file_id: string | null = null;
    let error_file_id: string | null = null;
    if (c.results) {
      const body = (r: StoredBatch["requests"][number]) => r.body;
      const request = (id: string) => batch.requests.find((r) => r.customId === id);
      const ok = c.results.filter((r) => r.answer.kind === "text");
      const bad = c.results.filter((r) => r.answer.kind !== "text");
      output_file_id = `file-out-${batch.id}`;
      files.set(
        output_file_id,
        ok
          .map((r) => {
            const a = r.answer as Extract<BatchAnswer, { kind: "text" }>;
            return JSON.stringify({ id: `req_${r.customId}`, custom_id: r.customId, response: { status_code: 200, request_id: "req", body: openaiCompletion(body(request(r.customId)!), a.text, a.usage ?? DEFAULT_USAGE) }, error: null });
          })
          .join("\n"),
      );
      if (bad.length > 0) {
        error_file_id = `file-err-${batch.id}`;
        files.set(
          error_file_id,
          bad
            .map((r) => {
              if (r.answer.kind === "errored") return JSON.stringify({ id: `req_${r.customId}`, custom_id: r.customId, response: { status_code: 400, request_id: "req", body: { error: { message: r.answer.message, type: "invalid_request_error" } } }, error: null });
              const code = r.answer.kind === "expired" ? "batch_expired" : "batch_cancelled";
              return JSON.stringify({ id: `req_${r.customId}`, custom_id: r.customId, response: null, error: { code, message: `This request ${code === "batch_expired" ? "expired" : "was cancelled"}.` } });
            })
            .join("\n"),
        );
      }
    }
    const status = done ? (batch.canceled ? "cancelled" : c.expired > 0 ? "expired" : "completed") : batch.canceled ? "cancelling" : batch.polls === 0 ? "validating" : "in_progress";
    return {
      id: batch.id,
      object: "batch",
      endpoint: "/v1/chat/completions",
      input_file_id: "file-in",
      completion_window: "24h",
      status,
      output_file_id,
      error_file_id,
      created_at: 0,
      request_counts: { total: batch.requests.length, completed: c.succeeded, failed: c.errored + c.expired + c.canceled },
    };
  };

  const interactiveReply = (res: ServerResponse, body: Record<string, unknown>) => {
    const request = describeRequest(body, true);
    interactive.push(request);
    const a = answer(request);
    if (a.kind !== "text") return json(res, 400, options.protocol === "anthropic" ? { type: "error", error: { type: "invalid_request_error", message: a.kind === "errored" ? a.message : "expired" } } : { error: { message: "refused", type: "invalid_request_error" } });
    const usage = a.usage ?? DEFAULT_USAGE;
    if (options.protocol === "anthropic" && body.stream !== true) return json(res, 200, anthropicMessage(body, a.text, usage));
    if (options.protocol === "anthropic") {
      // A streamed request (the adapter streams structured calls) gets the message as Anthropic's events.
      res.writeHead(200, { "content-type": "text/event-stream" });
      void replyResponse("anthropic", anthropicMessage(body, a.text, usage), true).text().then((events) => res.end(events));
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream" });
    const chunk = { id: "c", object: "chat.completion.chunk", created: 0, model: body.model, choices: [{ index: 0, delta: { role: "assistant", content: a.text }, finish_reason: "stop" }] };
    res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    res.write(`data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 0, model: body.model, choices: [], usage: { prompt_tokens: usage.input, completion_tokens: usage.output } })}\n\n`);
    res.end("data: [DONE]\n\n");
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    const method = req.method ?? "GET";
    const raw = await readBody(req);
    const body = (() => {
      try {
        return JSON.parse(raw) as Record<string, unknown>;
      } catch {
        return {};
      }
    })();
    let m: RegExpExecArray | null;
    if (options.protocol === "anthropic") {
      if (method === "POST" && path === "/v1/messages") return interactiveReply(res, body);
      if (method === "POST" && path === "/v1/messages/batches") {
        if (refused(res)) return;
        const requests = (body.requests as { custom_id: string; params: Record<string, unknown> }[]).map((r) => ({ customId: r.custom_id, body: r.params }));
        const batch: StoredBatch = { id: `msgbatch_${batches.length + 1}`, requests, polls: 0, canceled: false, results: null };
        batches.push(batch);
        return json(res, 200, anthropicBatch(batch));
      }
      if ((m = /^\/v1\/messages\/batches\/([^/]+)(\/results|\/cancel)?$/.exec(path))) {
        const batch = batches.find((b) => b.id === m?.[1]);
        if (!batch) return json(res, 404, { type: "error", error: { type: "not_found_error", message: "no such batch" } });
        if (m[2] === "/cancel") {
          if (!batch.results) batch.canceled = true;
          return json(res, 200, anthropicBatch(batch));
        }
        if (m[2] === "/results") {
          await passGate();
          const results = finish(batch);
          const model = (r: (typeof results)[number]) => batch.requests.find((q) => q.customId === r.customId)!.body;
          const lines = results.map((r) => {
            const a = r.answer;
            const result =
              a.kind === "text"
                ? { type: "succeeded", message: anthropicMessage(model(r), a.text, a.usage ?? DEFAULT_USAGE) }
                : a.kind === "errored"
                  ? { type: "errored", error: { type: "error", error: { type: "invalid_request_error", message: a.message } } }
                  : { type: a.kind };
            return JSON.stringify({ custom_id: r.customId, result });
          });
          res.writeHead(200, { "content-type": "application/binary" });
          return res.end(`${lines.join("\n")}\n`);
        }
        batch.polls += 1;
        return json(res, 200, anthropicBatch(batch));
      }
    } else {
      if (method === "POST" && path === "/v1/chat/completions") return interactiveReply(res, body);
      if (method === "POST" && path === "/v1/files") {
        const id = `file-in-${files.size + 1}`;
        files.set(id, raw.split(/\r?\n/).filter((line) => line.startsWith("{") && line.includes("custom_id")).join("\n"));
        return json(res, 200, { id, object: "file", bytes: raw.length, created_at: 0, filename: "synapse-batch.jsonl", purpose: "batch" });
      }
      if (method === "POST" && path === "/v1/batches") {
        if (refused(res)) return;
        const input = files.get(String(body.input_file_id)) ?? "";
        const requests = input
          .split("\n")
          .filter(Boolean)
          .map((line) => JSON.parse(line) as { custom_id: string; body: Record<string, unknown> })
          .map((r) => ({ customId: r.custom_id, body: r.body }));
        const batch: StoredBatch = { id: `batch_${batches.length + 1}`, requests, polls: 0, canceled: false, results: null };
        batches.push(batch);
        return json(res, 200, openaiBatch(batch));
      }
      if ((m = /^\/v1\/files\/([^/]+)\/content$/.exec(path))) {
        if (m[1]?.startsWith("file-out-")) await passGate();
        const text = files.get(m[1] ?? "");
        if (text === undefined) return json(res, 404, { error: { message: "no such file" } });
        res.writeHead(200, { "content-type": "application/octet-stream" });
        return res.end(text);
      }
      if ((m = /^\/v1\/batches\/([^/]+)(\/cancel)?$/.exec(path))) {
        const batch = batches.find((b) => b.id === m?.[1]);
        if (!batch) return json(res, 404, { error: { message: "no such batch" } });
        if (m[2] === "/cancel") {
          if (!batch.results) batch.canceled = true;
          return json(res, 200, openaiBatch(batch));
        }
        batch.polls += 1;
        return json(res, 200, openaiBatch(batch));
      }
    }
    return json(res, 404, { error: { message: `Unknown route ${method} ${path}` } });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    batches,
    interactive,
    setAnswer(next) {
      answer = next;
    },
    refuseNextCreate(status) {
      refuseCreate = status;
    },
    holdNextResults() {
      let arrived = () => undefined as void;
      let release = () => undefined as void;
      const reached = new Promise<void>((resolve) => (arrived = resolve));
      const open = new Promise<void>((resolve) => (release = resolve));
      resultsGate = { arrived, open };
      return { reached, release };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
