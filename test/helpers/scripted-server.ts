/**
 * A scripted model server on 127.0.0.1 (real HTTP, `node:http`) that speaks one of three wire
 * protocols — Ollama (/api/*, NDJSON streaming), OpenAI chat completions (/v1/*, SSE) or Anthropic
 * messages (/v1/messages, SSE) — so the real SDKs run their own transport, parsing and streaming.
 *
 * Model calls are answered from a script of protocol-neutral replies (valid content, an HTTP
 * error, a slow answer, a cut stream, a refusal, a wrong envelope…), in order, the last one
 * repeating. Every request is recorded (method, path, headers, parsed JSON body, time, and whether
 * the client went away before the answer was complete) so tests assert on what was sent.
 *
 * The Ollama protocol behaves as Ollama is documented to (scripted-server-ollama.ts): its own
 * default context window cutting a longer prompt from the start, `stream` true unless false, one
 * model request at a time (the rest queue), output paced at a rate when asked, and generation
 * stopping when the client goes away.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { renderAnthropic } from "./scripted-server-anthropic";
import { renderOllama } from "./scripted-server-ollama";
import { renderOpenAI } from "./scripted-server-openai";
import type { LocalOpenAIServer } from "./scripted-server-openai-local";
import { fakeEmbedding, FAKE_DIMENSIONS } from "./fake-embedding";
import { createPromptCache, type PromptCache } from "./scripted-prompt-cache";

export type Protocol = "ollama" | "openai" | "anthropic";

export interface ScriptedUsage {
  readonly input: number;
  readonly output: number;
}

export type Reply =
  /** A well-formed answer whose text is `text` (JSON or prose). */
  | {
      readonly kind: "content";
      readonly text: string;
      readonly usage?: ScriptedUsage;
      readonly finish?: "stop" | "length";
      /**
       * A reasoning model's thinking, sent where each server puts it: Ollama's `message.thinking`
       * (unless the request says `think: false`), llama-server's and vLLM's `reasoning_content`.
       */
      readonly reasoning?: string;
    }
  /** An HTTP error in the protocol's error format. */
  | { readonly kind: "status"; readonly status: number; readonly message?: string; readonly headers?: Readonly<Record<string, string>> }
  /** Waits before answering (with `then`, or a valid default). */
  | { readonly kind: "slow"; readonly delayMs: number; readonly then?: Reply }
  /** Sends the first `afterChars` characters of `text`, then a half-written event, then drops the connection. */
  | { readonly kind: "cut"; readonly text: string; readonly afterChars: number }
  /** The protocol's own refusal signal (Ollama has none: it answers with the text as content). */
  | { readonly kind: "refusal"; readonly text?: string }
  /** A body that is not the protocol's envelope. */
  | { readonly kind: "raw"; readonly body: string; readonly status?: number; readonly contentType?: string }
  /** Streams `reasoning` (as a reasoning model's thinking) and `text`, then keeps the connection open until the client leaves. */
  | { readonly kind: "stall"; readonly text: string; readonly reasoning?: string }
  /** Streams `text`, then an in-stream error event (Ollama `{"error"}` line, Anthropic `event: error`). */
  | { readonly kind: "stream-error"; readonly text: string; readonly message: string };

/**
 * An answer to an embedding request (/api/embed, /v1/embeddings): vectors (the fake bag-of-words
 * embedding of each input, `dimensions` long; `wrongAt` gives that input one dimension too many),
 * or any Reply (an HTTP error, a raw malformed body, a slow answer).
 */
export type EmbedReply =
  | Reply
  | { readonly kind: "vectors"; readonly dimensions?: number; readonly wrongAt?: number }
  /** Holds the request open until `until` settles, then answers with what it gives (a probe that hangs as long as the test wants). */
  | { readonly kind: "held"; readonly until: Promise<EmbedReply> };

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: unknown;
  /** ms since the server started. */
  readonly at: number;
  /** True when the client closed the connection before the response was complete. */
  aborted: boolean;
  /** The scripted reply used, for model calls. */
  reply: Reply | null;
  /** Ollama and local OpenAI-compatible servers: the prompt's tokens as the server counted them, before any cut. */
  promptTokens?: number;
  /** Ollama (and its /v1): the context window the request ran in (its num_ctx, else the server's default). */
  numCtx?: number;
  /** Ollama (and its /v1): the prompt did not fit `numCtx` and its start was dropped. */
  promptCut?: boolean;
  /** Ollama (and its /v1): the prompt tokens the reply reports (`prompt_eval_count`, `usage.prompt_tokens`): those the model read. */
  promptEvalCount?: number;
}

export interface ScriptedModel {
  readonly name: string;
  readonly capabilities?: readonly string[];
  readonly contextLength?: number;
}

export interface ScriptedServerOptions {
  readonly protocol: Protocol;
  readonly script?: readonly Reply[] | ((request: RecordedRequest, index: number) => Reply);
  readonly models?: readonly ScriptedModel[];
  readonly version?: string;
  /** Replaces the answer of a non-model path ("/api/show", "/v1/models"…). */
  readonly overrides?: Readonly<Record<string, Reply>>;
  /** Answers to embedding requests, in order, the last repeating (default: vectors). */
  readonly embed?: readonly EmbedReply[] | ((request: RecordedRequest, index: number) => EmbedReply);
  /** Ollama: the context window of a request that sets no num_ctx (Ollama's default: 4,096). */
  readonly defaultNumCtx?: number;
  /** Ollama: characters of the prompt per token the server counts (default 4; fewer for a dense script, or a model with a small vocabulary). */
  readonly charsPerToken?: number;
  /** Ollama: output tokens per second (a token is about four characters); absent, replies come at once. */
  readonly tokensPerSecond?: number;
  /** Ollama: prompt tokens read per second before the first output token (a CPU's prompt evaluation); absent, at once. */
  readonly promptTokensPerSecond?: number;
  /** Ollama: model requests run at once (OLLAMA_NUM_PARALLEL); the rest wait their turn. Default 1. */
  readonly parallel?: number;
  /** OpenAI: behave as this local server does (its window endpoint, its refusal of a prompt too long). */
  readonly localServer?: LocalOpenAIServer;
  /**
   * Anthropic and OpenAI: count the prompt from the request and report prompt-cache reads and writes
   * as the provider documents them (scripted-prompt-cache.ts), instead of a reply's scripted input.
   */
  readonly promptCache?: boolean;
}

export interface ScriptedServer {
  readonly url: string;
  readonly port: number;
  readonly protocol: Protocol;
  /** Epoch ms the server started at; a request's `at` counts from here. */
  readonly startedAt: number;
  readonly requests: RecordedRequest[];
  /** Requests to the model endpoint only. */
  modelRequests(): RecordedRequest[];
  /** Whether a request with this method and path goes to the model endpoint (for counting sends at the client). */
  isModelCall(method: string, path: string): boolean;
  /** Requests to the embedding endpoint only. */
  embedRequests(): RecordedRequest[];
  setEmbed(script: readonly EmbedReply[] | ((request: RecordedRequest, index: number) => EmbedReply)): void;
  setScript(script: readonly Reply[] | ((request: RecordedRequest, index: number) => Reply)): void;
  setOverride(path: string, reply: Reply | null): void;
  reset(): void;
  close(): Promise<void>;
}

/** What a protocol renderer needs from the server. */
export interface RenderContext {
  readonly models: readonly ScriptedModel[];
  readonly version: string;
  readonly defaultNumCtx: number;
  readonly charsPerToken: number;
  readonly tokensPerSecond: number | null;
  readonly promptTokensPerSecond: number | null;
  readonly localServer: LocalOpenAIServer | null;
  readonly promptCache: PromptCache | null;
  /** Registers a timer that is cleared when the connection closes. */
  later(ms: number, fn: () => void): void;
}

export type Renderer = {
  isModelCall(method: string, path: string): boolean;
  /** The protocol's embedding endpoint, if it has one. */
  isEmbedCall?(method: string, path: string): boolean;
  /** A successful embedding reply in the protocol's envelope. */
  embeddings?(vectors: readonly (readonly number[])[], request: RecordedRequest, res: ServerResponse, ctx: RenderContext): void;
  model(reply: Reply, request: RecordedRequest, res: ServerResponse, ctx: RenderContext): void;
  other(request: RecordedRequest, res: ServerResponse, ctx: RenderContext): void;
  error(status: number, message: string, res: ServerResponse, headers?: Readonly<Record<string, string>>): void;
};

const RENDERERS: Record<Protocol, Renderer> = { ollama: renderOllama, openai: renderOpenAI, anthropic: renderAnthropic };

export const MODEL_PATHS: Record<Protocol, string> = { ollama: "/api/chat", openai: "/v1/chat/completions", anthropic: "/v1/messages" };

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

export async function startScriptedServer(options: ScriptedServerOptions): Promise<ScriptedServer> {
  const renderer = RENDERERS[options.protocol];
  const started = Date.now();
  const requests: RecordedRequest[] = [];
  let script = options.script ?? [];
  const overrides = new Map<string, Reply>(Object.entries(options.overrides ?? {}));
  let modelCalls = 0;
  const promptCache = options.promptCache ? createPromptCache() : null;
  let embedScript = options.embed ?? [{ kind: "vectors" }];
  let embedCalls = 0;
  const pickEmbed = (request: RecordedRequest): EmbedReply => {
    const index = embedCalls++;
    if (typeof embedScript === "function") return embedScript(request, index);
    return embedScript[Math.min(index, embedScript.length - 1)] ?? { kind: "vectors" };
  };

  const pick = (request: RecordedRequest): Reply => {
    const index = modelCalls++;
    if (typeof script === "function") return script(request, index);
    const list = script;
    const reply = list[Math.min(index, list.length - 1)];
    if (!reply) throw new Error("The scripted server has no replies scripted.");
    return reply;
  };

  // Ollama answers `parallel` model requests at a time; the others wait, as on a real server.
  const parallel = Math.max(1, options.parallel ?? 1);
  let running = 0;
  const waiting: (() => void)[] = [];
  const turn = (res: ServerResponse): Promise<void> =>
    new Promise((resolve) => {
      const start = () => {
        // A client that left while it waited takes no turn.
        if (res.closed || res.destroyed) {
          resolve();
          waiting.shift()?.();
          return;
        }
        running++;
        res.on("close", () => {
          running--;
          waiting.shift()?.();
        });
        resolve();
      };
      if (running < parallel) start();
      else waiting.push(start);
    });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const body = await readBody(req);
    const request: RecordedRequest = { method: req.method ?? "GET", path: url.pathname, headers: req.headers, body, at: Date.now() - started, aborted: false, reply: null };
    requests.push(request);
    const timers = new Set<NodeJS.Timeout>();
    res.on("close", () => {
      if (!res.writableFinished) request.aborted = true;
      for (const timer of timers) clearTimeout(timer);
    });
    const ctx: RenderContext = {
      models: options.models ?? [],
      version: options.version ?? "0.12.3",
      defaultNumCtx: options.defaultNumCtx ?? 4096,
      charsPerToken: options.charsPerToken ?? 4,
      tokensPerSecond: options.tokensPerSecond ?? null,
      promptTokensPerSecond: options.promptTokensPerSecond ?? null,
      localServer: options.localServer ?? null,
      promptCache,
      later: (ms, fn) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (!res.destroyed) fn();
        }, ms);
        timers.add(timer);
      },
    };
    const override = overrides.get(url.pathname);
    if (renderer.isEmbedCall?.(request.method, url.pathname) && renderer.embeddings && !override) {
      let reply = pickEmbed(request);
      while (reply.kind === "held") reply = await reply.until;
      if (res.destroyed) return;
      if (reply.kind !== "vectors") {
        request.reply = reply;
        renderer.model(reply, request, res, ctx);
        return;
      }
      const input = (request.body as { input?: unknown } | null)?.input;
      const texts = (Array.isArray(input) ? input : [input]).map((t) => (typeof t === "string" ? t : ""));
      const dims = reply.dimensions ?? FAKE_DIMENSIONS;
      renderer.embeddings(texts.map((t, i) => fakeEmbedding(t, i === reply.wrongAt ? dims + 1 : dims)), request, res, ctx);
      return;
    }
    if (renderer.isModelCall(request.method, url.pathname) && !override) {
      if (options.protocol === "ollama") {
        await turn(res);
        if (res.destroyed) return;
      }
      const reply = pick(request);
      request.reply = reply;
      renderer.model(reply, request, res, ctx);
    } else if (override) {
      request.reply = override;
      renderer.model(override, request, res, ctx);
    } else {
      renderer.other(request, res, ctx);
    }
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(error));
    });
  });
  // Always a free port, never a chosen one: a test that needs a server down and back switches its
  // replies (setEmbed, setScript) instead of closing it and binding its port again, which another
  // process could take meanwhile.
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    startedAt: started,
    url: `http://127.0.0.1:${port}`,
    port,
    protocol: options.protocol,
    requests,
    modelRequests: () => requests.filter((r) => renderer.isModelCall(r.method, r.path)),
    isModelCall: (method, path) => renderer.isModelCall(method, path),
    embedRequests: () => requests.filter((r) => renderer.isEmbedCall?.(r.method, r.path) === true),
    setEmbed(next) {
      embedScript = next;
      embedCalls = 0;
    },
    setScript(next) {
      script = next;
      modelCalls = 0;
    },
    setOverride(path, reply) {
      if (reply) overrides.set(path, reply);
      else overrides.delete(path);
    },
    reset() {
      requests.length = 0;
      modelCalls = 0;
      embedCalls = 0;
      overrides.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Splits text into a few chunks for streaming, so clients see several deltas. */
export function chunksOf(text: string, size = 16): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** Streams `chunks` with `write`, then calls `end`; cut replies stop early and drop the socket. */
export function writeCut(res: ServerResponse, partial: string): void {
  res.write(partial);
  // Let the partial write leave the process before the connection is dropped.
  setTimeout(() => res.socket?.destroy(), 5);
}

export function jsonResponse(res: ServerResponse, status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** A cut non-streaming body: the promised length is never delivered. */
export function cutJson(res: ServerResponse, body: unknown, afterChars: number): void {
  const text = JSON.stringify(body);
  res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  writeCut(res, text.slice(0, Math.max(1, Math.min(afterChars, text.length - 1))));
}

export function defaultMessage(status: number): string {
  switch (status) {
    case 401:
      return "invalid api key";
    case 404:
      return "model not found";
    case 429:
      return "rate limit exceeded";
    case 529:
      return "Overloaded";
    default:
      return status >= 500 ? "internal server error" : "bad request";
  }
}

export function usageOf(reply: { usage?: ScriptedUsage }): ScriptedUsage {
  return reply.usage ?? { input: 100, output: 50 };
}
