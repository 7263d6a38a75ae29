/**
 * The Ollama wire protocol for the scripted server: /api/chat (NDJSON unless `stream: false`),
 * /api/version, /api/tags, /api/show, /api/embed — behaving as Ollama's docs say it does:
 * - a request runs in its `options.num_ctx`, else the server's default (4,096); a prompt longer
 *   than that is cut from the start (the system message first), and `prompt_eval_count` reports
 *   the tokens kept, not those sent;
 * - `num_predict` bounds the reply (`done_reason: "length"` when it stops there), absent it is unbounded;
 * - output can be paced at `tokensPerSecond`, and stops when the client goes away.
 * A token is counted as four characters (`charsPerToken`), a message's template as four tokens.
 */
import type { ServerResponse } from "node:http";
import {
  chunksOf,
  cutJson,
  defaultMessage,
  jsonResponse,
  usageOf,
  writeCut,
  type RecordedRequest,
  type RenderContext,
  type Renderer,
  type Reply,
} from "./scripted-server";

function modelOf(request: RecordedRequest): string {
  const body = request.body as { model?: unknown } | null;
  return typeof body?.model === "string" ? body.model : "";
}

/** Ollama streams unless told not to. */
function isStream(request: RecordedRequest): boolean {
  return (request.body as { stream?: unknown } | null)?.stream !== false;
}

const CHARS_PER_TOKEN = 4;
const TEMPLATE_TOKENS = 4;
/** Ollama keeps a few tokens of room when it cuts a prompt to its window. */
const CUT_ROOM = 16;

interface ChatBody {
  readonly messages?: readonly { readonly content?: unknown }[];
  readonly options?: { readonly num_ctx?: unknown; readonly num_predict?: unknown };
}

function positive(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : null;
}

/** Counts the prompt, applies the window (recording it on the request) and returns the tokens the model read. */
function readPrompt(request: RecordedRequest, ctx: RenderContext): number {
  const body = (request.body ?? {}) as ChatBody;
  const tokens = (body.messages ?? []).reduce((sum, m) => sum + Math.ceil((typeof m.content === "string" ? m.content.length : 0) / ctx.charsPerToken) + TEMPLATE_TOKENS, 0);
  const numCtx = positive(body.options?.num_ctx) ?? ctx.defaultNumCtx;
  request.promptTokens = tokens;
  request.numCtx = numCtx;
  request.promptCut = tokens > numCtx;
  request.promptEvalCount = request.promptCut ? numCtx - CUT_ROOM : tokens;
  return request.promptEvalCount;
}

function tokensOf(text: string): string[] {
  const tokens: string[] = [];
  for (let i = 0; i < text.length; i += CHARS_PER_TOKEN) tokens.push(text.slice(i, i + CHARS_PER_TOKEN));
  return tokens;
}

/**
 * The reply as the model writes it, in tokens: its thinking first (unless the request says
 * `think: false`), then the content, all of it under num_predict and counted in eval_count, as
 * Ollama counts every token it generates.
 */
function writtenTokens(request: RecordedRequest, text: string, reasoning: string | undefined): { thinking: string[]; tokens: string[]; length: boolean } {
  const thinks = reasoning !== undefined && reasoning.length > 0 && (request.body as { think?: unknown } | null)?.think !== false;
  const thinking = thinks ? tokensOf(reasoning) : [];
  const tokens = tokensOf(text);
  const limit = positive(((request.body ?? {}) as ChatBody).options?.num_predict);
  if (limit === null || thinking.length + tokens.length <= limit) return { thinking, tokens, length: false };
  return { thinking: thinking.slice(0, limit), tokens: tokens.slice(0, Math.max(0, limit - thinking.length)), length: true };
}

/** Writes `tokens` one by one at the server's pace (all at once without one), then `end`. */
function paced(ctx: RenderContext, tokens: readonly string[], write: (token: string) => void, end: () => void): void {
  const rate = ctx.tokensPerSecond;
  if (rate === null) {
    for (const chunk of chunksOf(tokens.join(""))) write(chunk);
    end();
    return;
  }
  let i = 0;
  const next = () => {
    if (i >= tokens.length) return end();
    write(tokens[i++] ?? "");
    ctx.later(1000 / rate, next);
  };
  ctx.later(1000 / rate, next);
}

function line(model: string, content: string, done: boolean, extra: Record<string, unknown> = {}): string {
  return `${JSON.stringify({ model, created_at: new Date(0).toISOString(), message: { role: "assistant", content }, done, ...extra })}\n`;
}

function known(ctx: RenderContext, name: string): boolean {
  const norm = (n: string) => (n.includes(":") ? n : `${n}:latest`);
  return ctx.models.some((m) => norm(m.name) === norm(name));
}

export const renderOllama: Renderer = {
  isModelCall: (method, path) => method === "POST" && path === "/api/chat",

  error(status, message, res, headers = {}) {
    jsonResponse(res, status, { error: message }, headers);
  },

  model(reply: Reply, request: RecordedRequest, res: ServerResponse, ctx: RenderContext): void {
    const model = modelOf(request);
    const stream = isStream(request);
    switch (reply.kind) {
      case "status":
        return this.error(reply.status, reply.message ?? (reply.status === 404 ? `model '${model}' not found, try pulling it first` : defaultMessage(reply.status)), res, reply.headers);
      case "slow":
        return ctx.later(reply.delayMs, () => this.model(reply.then ?? { kind: "content", text: "{}" }, request, res, ctx));
      case "raw":
        res.writeHead(reply.status ?? 200, { "content-type": reply.contentType ?? "application/json" });
        res.end(reply.body);
        return;
      case "refusal":
        // Ollama has no refusal signal; a model that declines just says so in prose.
        return this.model({ kind: "content", text: reply.text ?? "I'm sorry, but I can't help with that." }, request, res, ctx);
      case "content": {
        const usage = usageOf(reply);
        const promptEvalCount = readPrompt(request, ctx);
        const written = writtenTokens(request, reply.text, reply.reasoning);
        const finish = written.length || reply.finish === "length" ? "length" : "stop";
        const generated = written.thinking.length + written.tokens.length;
        const final = { done_reason: finish, prompt_eval_count: promptEvalCount, eval_count: reply.usage ? usage.output : generated };
        if (!stream) {
          const text = written.tokens.join("");
          const thinking = written.thinking.join("");
          const message = { role: "assistant", content: text, ...(thinking ? { thinking } : {}) };
          paced(ctx, [...written.thinking, ...written.tokens], () => undefined, () => jsonResponse(res, 200, { model, created_at: new Date(0).toISOString(), message, done: true, ...final }));
          return;
        }
        // The prompt is read before the first token is written.
        const reading = ctx.promptTokensPerSecond ? (promptEvalCount * 1000) / ctx.promptTokensPerSecond : 0;
        res.writeHead(200, { "content-type": "application/x-ndjson" });
        // Thinking streams first, in message.thinking with an empty content (Ollama's api.md, `think`).
        const lines = [
          ...written.thinking.map((piece) => line(model, "", false, { message: { role: "assistant", content: "", thinking: piece } })),
          ...written.tokens.map((token) => line(model, token, false)),
        ];
        const write = () => paced(ctx, lines, (text) => res.write(text), () => res.end(line(model, "", true, final)));
        if (reading > 0) ctx.later(reading, write);
        else write();
        return;
      }
      case "cut": {
        if (!stream) {
          cutJson(res, { model, message: { role: "assistant", content: reply.text }, done: true }, reply.afterChars + 40);
          return;
        }
        res.writeHead(200, { "content-type": "application/x-ndjson" });
        for (const chunk of chunksOf(reply.text.slice(0, reply.afterChars))) res.write(line(model, chunk, false));
        writeCut(res, `{"model":"${model}","message":{"role":"assistant","content":"${reply.text.slice(reply.afterChars, reply.afterChars + 5)}`);
        return;
      }
      case "stall": {
        res.writeHead(200, { "content-type": "application/x-ndjson" });
        if (reply.reasoning && (request.body as { think?: unknown } | null)?.think !== false) {
          for (const piece of chunksOf(reply.reasoning)) res.write(line(model, "", false, { message: { role: "assistant", content: "", thinking: piece } }));
        }
        for (const chunk of chunksOf(reply.text)) res.write(line(model, chunk, false));
        return;
      }
      case "stream-error": {
        res.writeHead(200, { "content-type": "application/x-ndjson" });
        for (const chunk of chunksOf(reply.text)) res.write(line(model, chunk, false));
        res.end(`${JSON.stringify({ error: reply.message })}\n`);
        return;
      }
    }
  },

  isEmbedCall: (method, path) => method === "POST" && path === "/api/embed",

  embeddings(vectors, request, res, ctx) {
    const body = request.body as { model?: string; input?: string | string[] } | null;
    if (!known(ctx, body?.model ?? "")) return this.error(404, `model '${body?.model ?? ""}' not found, try pulling it first`, res);
    const inputs = Array.isArray(body?.input) ? body.input : [body?.input ?? ""];
    // Each input runs in the request's num_ctx, else the default within the model's own length; a longer one is cut
    // from the end (truncate true, the default) or refused (truncate false), as Ollama's api.md says.
    const own = ctx.models.find((m) => known({ ...ctx, models: [m] }, body?.model ?? ""))?.contextLength ?? ctx.defaultNumCtx;
    const window = positive((request.body as { options?: { num_ctx?: unknown } }).options?.num_ctx) ?? Math.min(own, ctx.defaultNumCtx);
    const over = inputs.some((t) => Math.ceil(t.length / CHARS_PER_TOKEN) + TEMPLATE_TOKENS > window);
    request.numCtx = window;
    request.promptCut = over;
    if (over && (request.body as { truncate?: unknown }).truncate === false) return this.error(400, "the input length exceeds the context length", res);
    jsonResponse(res, 200, { model: body?.model, embeddings: vectors, prompt_eval_count: inputs.join(" ").split(/\s+/).length });
  },

  other(request, res, ctx) {
    const { method, path } = request;
    if (method === "GET" && path === "/api/version") return jsonResponse(res, 200, { version: ctx.version });
    if (method === "GET" && path === "/api/tags") {
      return jsonResponse(res, 200, {
        models: ctx.models.map((m) => ({ name: m.name, model: m.name, modified_at: new Date(0).toISOString(), size: 1, digest: "sha256:0", details: { family: "llama" } })),
      });
    }
    if (method === "POST" && path === "/api/show") {
      const name = modelOf(request);
      const found = ctx.models.find((m) => known({ ...ctx, models: [m] }, name));
      if (!found) return this.error(404, `model '${name}' not found`, res);
      return jsonResponse(res, 200, {
        capabilities: found.capabilities ?? ["completion"],
        model_info: { "general.architecture": "llama", "llama.context_length": found.contextLength ?? 8192 },
        details: { family: "llama", parameter_size: "8B" },
      });
    }
    // /api/pull and anything else: recorded, so a test can prove it never happened.
    return this.error(404, `no route ${method} ${path}`, res);
  },
};
