/**
 * A local HTTP server on 127.0.0.1 that speaks what Synapse's providers speak, generating with the
 * real llama.cpp runtime instead of a script (the scripted servers in test/helpers have the same
 * shapes):
 * - Ollama: `/api/chat` (NDJSON unless `stream: false`; `format` a JSON schema or "json";
 *   `options.num_ctx` the window, else Ollama's default 4,096, a longer prompt cut from the start;
 *   `options.num_predict` the budget; `prompt_eval_count`/`eval_count` counted by the runtime),
 *   `/api/show`, `/api/tags`, `/api/version`.
 * - llama-server: `/v1/chat/completions` (SSE when `stream`; `response_format` json_schema;
 *   `max_tokens`; a prompt that does not fit its `n_ctx` is llama-server's 400
 *   "exceeds the available context size"), `/v1/models`, `/props`.
 * One request generates at a time (a queue); a client that goes away aborts its generation.
 * `stallNext` makes the next reply stop sending after some chunks and hold the connection open,
 * as a server stuck mid-reply does.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { LlamaModel } from "node-llama-cpp";
import { LlamaEngine, type ChatMessage, type Generation } from "./llama-generate";
import type { Runtime } from "./runtime";

/** The name the server lists its one model under. */
export const MODEL_NAME = "tiny-random:latest";
/** Ollama's own window when a request sets no num_ctx. */
const OLLAMA_DEFAULT_CTX = 4096;
/** Ollama keeps a few tokens of room when it cuts a prompt to its window. */
const CUT_ROOM = 16;

export interface ServedRequest {
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
  /** For a model call: what the runtime did with it. */
  generation?: Generation & { readonly window: number; readonly promptCut: boolean; readonly sentTokens: number };
  /** A grammar that failed to compile, with llama.cpp's message. */
  grammarError?: string;
  /** The client went away before the reply ended. */
  clientGone?: boolean;
  /** Text chunks written to the client so far. */
  chunksSent: number;
  /** The reply was held open by `stallNext`. */
  stalled?: boolean;
}

export interface LlamaServer {
  readonly url: string;
  readonly requests: ServedRequest[];
  modelCalls(): ServedRequest[];
  /** The next model reply sends `chunks` text chunks, then nothing more until the client leaves. */
  stallNext(chunks: number): void;
  /** The next model reply never picks an end token: it runs to its budget unless the client leaves. */
  endlessNext(): void;
  reset(): void;
  close(): Promise<void>;
}

export interface LlamaServerOptions {
  /** llama-server's n_ctx for /v1 (default 4,096). */
  readonly openaiContext?: number;
}

interface ChatBody {
  readonly model?: unknown;
  readonly messages?: readonly { readonly role?: unknown; readonly content?: unknown }[];
  readonly stream?: unknown;
  readonly format?: unknown;
  readonly options?: { readonly num_ctx?: unknown; readonly num_predict?: unknown; readonly temperature?: unknown };
  readonly response_format?: { readonly type?: unknown; readonly json_schema?: { readonly schema?: unknown } };
  readonly max_tokens?: unknown;
  readonly max_completion_tokens?: unknown;
  readonly temperature?: unknown;
  readonly stream_options?: { readonly include_usage?: unknown };
}

const positive = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.floor(value) : null);

function messagesOf(body: ChatBody): ChatMessage[] {
  return (body.messages ?? []).map((m) => ({ role: typeof m.role === "string" ? m.role : "user", content: typeof m.content === "string" ? m.content : JSON.stringify(m.content ?? "") }));
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function show(model: LlamaModel): Record<string, unknown> {
  return {
    capabilities: ["completion"],
    model_info: { "general.architecture": "llama", "llama.context_length": model.trainContextSize },
    details: { family: "llama", parameter_size: "1M", quantization_level: "F32" },
  };
}

export async function startLlamaServer(runtime: Extract<Runtime, { ok: true }>, options: LlamaServerOptions = {}): Promise<LlamaServer> {
  const engine = new LlamaEngine(runtime.llama, runtime.model, 7);
  const requests: ServedRequest[] = [];
  const openaiContext = options.openaiContext ?? 4096;
  let stallChunks: number | null = null;
  let endless = false;
  let queue: Promise<unknown> = Promise.resolve();

  /** Runs one generation in the queue, streaming its chunks to `write`; stops when the client leaves. */
  function generateFor(
    record: ServedRequest,
    res: ServerResponse,
    plan: { prompt: ReturnType<LlamaEngine["tokenize"]>; sentTokens: number; window: number; maxTokens: number; format: unknown; temperature?: number },
    write: (text: string) => void,
  ): Promise<Generation | "stalled" | "gone"> {
    const run = async (): Promise<Generation | "stalled" | "gone"> => {
      const controller = new AbortController();
      let finished = false;
      res.on("close", () => {
        if (finished) return;
        record.clientGone = true;
        controller.abort();
      });
      if (res.destroyed) {
        record.clientGone = true;
        return "gone";
      }
      const stallAfter = stallChunks;
      stallChunks = null;
      const neverEnd = endless;
      endless = false;
      let stalled = false;
      const grammar = plan.format === undefined ? null : await engine.grammarFor(plan.format);
      const generation = await engine.generate(plan.prompt, {
        window: plan.window,
        maxTokens: plan.maxTokens,
        grammar,
        neverEnd,
        ...(plan.temperature === undefined ? {} : { temperature: plan.temperature }),
        signal: controller.signal,
        onText: (text) => {
          if (stalled || controller.signal.aborted) return;
          if (stallAfter !== null && record.chunksSent >= stallAfter) {
            stalled = record.stalled = true;
            controller.abort();
            return;
          }
          record.chunksSent++;
          write(text);
        },
      });
      finished = !stalled;
      record.generation = { ...generation, window: plan.window, promptCut: plan.sentTokens > plan.prompt.length, sentTokens: plan.sentTokens };
      if (stalled) return "stalled";
      return record.clientGone ? "gone" : generation;
    };
    const result = queue.then(run, run);
    queue = result.catch(() => undefined);
    return result;
  }

  async function ollamaChat(record: ServedRequest, body: ChatBody, res: ServerResponse): Promise<void> {
    const model = typeof body.model === "string" ? body.model : "";
    if (model !== MODEL_NAME && `${model}:latest` !== MODEL_NAME) return json(res, 404, { error: `model '${model}' not found, try pulling it first` });
    if (body.format !== undefined && body.format !== "json") {
      try {
        await engine.grammarFor(body.format);
      } catch (error) {
        record.grammarError = error instanceof Error ? error.message : String(error);
        return json(res, 500, { error: `failed to load model vocabulary required for format: ${record.grammarError}` });
      }
    }
    const window = Math.min(positive(body.options?.num_ctx) ?? OLLAMA_DEFAULT_CTX, runtime.model.trainContextSize);
    const sent = engine.tokenize(messagesOf(body));
    // Ollama cuts a prompt too long for its window from the start: the system message goes first.
    const prompt = sent.length > window - CUT_ROOM ? sent.slice(sent.length - (window - CUT_ROOM)) : sent;
    const budget = positive(body.options?.num_predict) ?? Number.POSITIVE_INFINITY;
    const stream = body.stream !== false;
    // Ollama would shift its window and write on; here a reply ends where the window does, so
    // a reply with no num_predict still ends (Synapse always sends one).
    const line = (content: string, done: boolean, extra: Record<string, unknown> = {}) =>
      `${JSON.stringify({ model, created_at: new Date().toISOString(), message: { role: "assistant", content }, done, ...extra })}\n`;
    if (stream) res.writeHead(200, { "content-type": "application/x-ndjson" });
    const temperature = typeof body.options?.temperature === "number" ? body.options.temperature : undefined;
    const result = await generateFor(
      record,
      res,
      { prompt, sentTokens: sent.length, window, maxTokens: Math.max(1, Math.min(budget, window - prompt.length)), format: body.format, ...(temperature === undefined ? {} : { temperature }) },
      (text) => {
        if (stream) res.write(line(text, false));
      },
    );
    if (result === "stalled" || result === "gone") return;
    const final = { done_reason: result.stop === "length" ? "length" : "stop", prompt_eval_count: result.promptTokens, eval_count: result.outputTokens };
    if (stream) res.end(line("", true, final));
    else json(res, 200, { model, created_at: new Date().toISOString(), message: { role: "assistant", content: result.text }, done: true, ...final });
  }

  async function openaiChat(record: ServedRequest, body: ChatBody, res: ServerResponse): Promise<void> {
    const model = typeof body.model === "string" ? body.model : MODEL_NAME;
    const schema = body.response_format?.type === "json_schema" ? body.response_format.json_schema?.schema : body.response_format?.type === "json_object" ? "json" : undefined;
    if (schema !== undefined && schema !== "json") {
      try {
        await engine.grammarFor(schema);
      } catch (error) {
        record.grammarError = error instanceof Error ? error.message : String(error);
        return json(res, 400, { error: { code: 400, message: `Failed to parse grammar: ${record.grammarError}`, type: "invalid_request_error" } });
      }
    }
    const prompt = engine.tokenize(messagesOf(body));
    if (prompt.length >= openaiContext) {
      return json(res, 400, {
        error: {
          code: 400,
          message: `request (${prompt.length} tokens) exceeds the available context size (${openaiContext} tokens), try increasing it`,
          type: "exceed_context_size_error",
          n_prompt_tokens: prompt.length,
          n_ctx: openaiContext,
        },
      });
    }
    const budget = positive(body.max_tokens) ?? positive(body.max_completion_tokens) ?? Number.POSITIVE_INFINITY;
    const stream = body.stream === true;
    const id = `chatcmpl-${requests.length}`;
    const chunk = (delta: Record<string, unknown>, finish: string | null, extra: Record<string, unknown> = {}) =>
      `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created: 0, model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
    if (stream) {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.write(chunk({ role: "assistant", content: "" }, null));
    }
    const temperature = typeof body.temperature === "number" ? body.temperature : undefined;
    const result = await generateFor(
      record,
      res,
      // llama-server stops a reply where its window ends.
      { prompt, sentTokens: prompt.length, window: openaiContext, maxTokens: Math.max(1, Math.min(budget, openaiContext - prompt.length)), format: schema, ...(temperature === undefined ? {} : { temperature }) },
      (text) => {
        if (stream) res.write(chunk({ content: text }, null));
      },
    );
    if (result === "stalled" || result === "gone") return;
    const finish = result.stop === "length" ? "length" : "stop";
    const usage = { prompt_tokens: result.promptTokens, completion_tokens: result.outputTokens, total_tokens: result.promptTokens + result.outputTokens };
    if (!stream) {
      return json(res, 200, { id, object: "chat.completion", created: 0, model, choices: [{ index: 0, message: { role: "assistant", content: result.text }, finish_reason: finish }], usage });
    }
    if (body.stream_options?.include_usage === true) {
      res.write(chunk({}, finish));
      res.write(`data: ${JSON.stringify({ id, object: "chat.completion.chunk", created: 0, model, choices: [], usage })}\n\n`);
    } else {
      res.write(chunk({}, finish, { usage }));
    }
    res.end("data: [DONE]\n\n");
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const method = req.method ?? "GET";
    const body = await readBody(req);
    const record: ServedRequest = { method, path, body, chunksSent: 0 };
    requests.push(record);
    const chat = (body ?? {}) as ChatBody;
    if (method === "POST" && path === "/api/chat") return ollamaChat(record, chat, res);
    if (method === "POST" && path === "/v1/chat/completions") return openaiChat(record, chat, res);
    if (method === "GET" && path === "/api/version") return json(res, 200, { version: "0.12.0" });
    if (method === "GET" && path === "/api/tags") {
      return json(res, 200, { models: [{ name: MODEL_NAME, model: MODEL_NAME, modified_at: new Date(0).toISOString(), size: 1, digest: "sha256:0", details: { family: "llama" } }] });
    }
    if (method === "POST" && path === "/api/show") return json(res, 200, show(runtime.model));
    if (method === "GET" && path === "/v1/models") {
      return json(res, 200, { object: "list", data: [{ id: MODEL_NAME, object: "model", created: 0, owned_by: "llamacpp", meta: { n_ctx_train: runtime.model.trainContextSize } }] });
    }
    if (method === "GET" && path === "/props") {
      return json(res, 200, { default_generation_settings: { n_ctx: openaiContext, params: { n_predict: -1 } }, total_slots: 1, model_path: runtime.modelPath, build_info: "node-llama-cpp" });
    }
    return json(res, 404, { error: `no route ${method} ${path}` });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) json(res, 500, { error: error instanceof Error ? error.message : String(error) });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    modelCalls: () => requests.filter((r) => r.path === "/api/chat" || r.path === "/v1/chat/completions"),
    stallNext: (chunks) => (stallChunks = chunks),
    endlessNext: () => (endless = true),
    reset: () => {
      requests.length = 0;
      stallChunks = null;
      endless = false;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await queue;
      await engine.dispose();
    },
  };
}
