/**
 * Local OpenAI-compatible servers as they are documented to behave, for the scripted OpenAI
 * server: where each reports its context window, and how each refuses a request too long for it.
 *
 * - llama-server: `GET /props` gives `default_generation_settings.n_ctx`; a prompt longer than the
 *   window is a 400 `{"error":{"code":400,"message":"request (N tokens) exceeds the available
 *   context size (M tokens), try increasing it","type":"exceed_context_size_error",
 *   "n_prompt_tokens":N,"n_ctx":M}}`. A reply stops where the window ends.
 * - LM Studio: `GET /api/v0/models` lists `max_context_length` and, once loaded,
 *   `loaded_context_length`; a prompt too long is a 400 whose `error` is a string ("The number of
 *   tokens to keep from the initial prompt is greater than the context length …").
 * - vLLM: `GET /v1/models` gives `max_model_len` per model; prompt plus `max_tokens` beyond it is a
 *   400 "This model's maximum context length is M tokens. However, you requested T tokens …".
 * - Ollama's /v1: `POST /api/show` answers with `model_info` (how a client tells it is Ollama), the
 *   model's own length; requests run in Ollama's default window (4,096 tokens, or what
 *   OLLAMA_CONTEXT_LENGTH says: `runningWindow`) whatever the model could hold, and a longer prompt
 *   is cut from the start with no error, `usage.prompt_tokens` reporting the tokens kept.
 *
 * A token is four characters of the messages here (`charsPerToken`), a little under the client's
 * own estimate; a completion's `usage.prompt_tokens` is that count, as the real servers report theirs.
 */
import type { ServerResponse } from "node:http";
import { jsonResponse, type RecordedRequest, type ScriptedModel } from "./scripted-server";

export interface LocalOpenAIServer {
  readonly kind: "llama-server" | "lmstudio" | "vllm" | "ollama";
  /** The window the server runs (llama-server n_ctx, LM Studio's loaded length, vLLM max_model_len). */
  readonly contextSize: number;
  /** LM Studio: the model's own maximum (`max_context_length`); default the context size. */
  readonly maxContextLength?: number;
  /** LM Studio: the model is not loaded, so the list carries no `loaded_context_length`. */
  readonly notLoaded?: boolean;
  /** Characters of the messages per token the server counts (default 4; fewer for a dense script). */
  readonly charsPerToken?: number;
  /** Ollama's /v1: the window every request runs in (OLLAMA_CONTEXT_LENGTH; default 4,096), whatever `contextSize` the model has. */
  readonly runningWindow?: number;
}

/** What Ollama's /v1 runs a request in when OLLAMA_CONTEXT_LENGTH is not set. */
const OLLAMA_DEFAULT_WINDOW = 4096;
/** Ollama keeps a few tokens of room when it cuts a prompt to its window. */
const CUT_ROOM = 16;

interface ChatBody {
  messages?: { content?: unknown }[];
  max_tokens?: number;
  max_completion_tokens?: number;
}

export function promptTokensOf(request: RecordedRequest, charsPerToken = 4): number {
  const body = (request.body ?? {}) as ChatBody;
  const chars = (body.messages ?? []).reduce((n, m) => n + (typeof m.content === "string" ? m.content.length : 0), 0);
  return Math.ceil(chars / charsPerToken);
}

/**
 * The prompt tokens the server read, recorded on the request (its count, the window it ran in,
 * whether its start was dropped): Ollama's /v1 cuts a prompt longer than its window and reports
 * what it kept; the other servers refuse such a prompt (`refuseOversized`) and read the rest whole.
 */
export function readPrompt(server: LocalOpenAIServer, request: RecordedRequest): number {
  const tokens = promptTokensOf(request, server.charsPerToken);
  request.promptTokens = tokens;
  if (server.kind !== "ollama") return tokens;
  const window = server.runningWindow ?? Math.min(server.contextSize, OLLAMA_DEFAULT_WINDOW);
  request.numCtx = window;
  request.promptCut = tokens > window;
  request.promptEvalCount = request.promptCut ? window - CUT_ROOM : tokens;
  return request.promptEvalCount;
}

/** The server's refusal of a chat request too long for its window, sent; false when it fits. */
export function refuseOversized(server: LocalOpenAIServer, request: RecordedRequest, res: ServerResponse): boolean {
  const prompt = promptTokensOf(request, server.charsPerToken);
  const body = (request.body ?? {}) as ChatBody;
  const output = body.max_tokens ?? body.max_completion_tokens ?? 0;
  const n = server.contextSize;
  switch (server.kind) {
    case "llama-server":
      if (prompt < n) return false;
      jsonResponse(res, 400, {
        error: { code: 400, message: `request (${prompt} tokens) exceeds the available context size (${n} tokens), try increasing it`, type: "exceed_context_size_error", n_prompt_tokens: prompt, n_ctx: n },
      });
      return true;
    case "lmstudio":
      if (prompt < n) return false;
      jsonResponse(res, 400, { error: `The number of tokens to keep from the initial prompt is greater than the context length (n_keep: ${prompt} >= n_ctx: ${n}). Try to load the model with a larger context length, or provide a shorter input.` });
      return true;
    case "vllm":
      if (prompt + output <= n) return false;
      jsonResponse(res, 400, {
        error: {
          message: `This model's maximum context length is ${n} tokens. However, you requested ${prompt + output} tokens (${prompt} in the messages, ${output} in the completion). Please reduce the length of the messages or completion.`,
          type: "BadRequestError",
          param: null,
          code: 400,
        },
      });
      return true;
    case "ollama":
      return false;
  }
}

/** The server's own window endpoint; false for a path it does not serve. */
export function serveWindowEndpoint(server: LocalOpenAIServer, request: RecordedRequest, res: ServerResponse, models: readonly ScriptedModel[]): boolean {
  const { method, path } = request;
  if (server.kind === "llama-server" && method === "GET" && path === "/props") {
    jsonResponse(res, 200, { default_generation_settings: { n_ctx: server.contextSize, params: { n_predict: -1 } }, total_slots: 1, model_path: "/models/model.gguf", build_info: "b6000" });
    return true;
  }
  if (server.kind === "lmstudio" && method === "GET" && path === "/api/v0/models") {
    jsonResponse(res, 200, {
      object: "list",
      data: models.map((m) => ({
        id: m.name,
        object: "model",
        type: "llm",
        state: server.notLoaded ? "not-loaded" : "loaded",
        max_context_length: server.maxContextLength ?? server.contextSize,
        ...(server.notLoaded ? {} : { loaded_context_length: server.contextSize }),
      })),
    });
    return true;
  }
  if (server.kind === "ollama" && method === "POST" && path === "/api/show") {
    jsonResponse(res, 200, { capabilities: ["completion"], model_info: { "general.architecture": "llama", "llama.context_length": server.contextSize } });
    return true;
  }
  return false;
}

/** vLLM adds `max_model_len` to each entry of its OpenAI model list. */
export function modelListExtras(server: LocalOpenAIServer | null): Record<string, unknown> {
  return server?.kind === "vllm" ? { max_model_len: server.contextSize } : {};
}
