/**
 * The OpenAI chat-completions wire protocol for the scripted server: /v1/chat/completions (JSON or
 * SSE), /v1/embeddings and /v1/models; with `localServer`, also that server's window endpoint and
 * its refusal of a request too long for the window (scripted-server-openai-local.ts).
 */
import type { ServerResponse } from "node:http";
import { modelListExtras, readPrompt, refuseOversized, serveWindowEndpoint } from "./scripted-server-openai-local";
import { chunksOf, cutJson, defaultMessage, jsonResponse, usageOf, writeCut, type RecordedRequest, type RenderContext, type Renderer, type Reply } from "./scripted-server";

interface ChatBody {
  model?: string;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
}

function bodyOf(request: RecordedRequest): ChatBody {
  return (request.body ?? {});
}

function sse(data: unknown): string {
  return `data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
}

function chunk(model: string, delta: Record<string, unknown>, finish: string | null = null): Record<string, unknown> {
  return { id: "chatcmpl-1", object: "chat.completion.chunk", created: 0, model, choices: [{ index: 0, delta, finish_reason: finish }] };
}

/** The request switches thinking off the way llama-server and vLLM (chat_template_kwargs) or Ollama's /v1 (reasoning_effort) document. */
function thinkingOff(request: RecordedRequest): boolean {
  const body = (request.body ?? {}) as { chat_template_kwargs?: { enable_thinking?: unknown }; reasoning_effort?: unknown };
  return body.chat_template_kwargs?.enable_thinking === false || body.reasoning_effort === "none";
}

const ERROR_TYPES: Record<number, string> = { 400: "invalid_request_error", 401: "invalid_request_error", 404: "invalid_request_error", 429: "rate_limit_exceeded" };

export const renderOpenAI: Renderer = {
  // Compatible servers live under various prefixes (OpenRouter: /api/v1).
  isModelCall: (method, path) => method === "POST" && path.endsWith("/v1/chat/completions"),

  error(status, message, res, headers = {}) {
    jsonResponse(res, status, { error: { message, type: ERROR_TYPES[status] ?? "server_error", param: null, code: status === 404 ? "model_not_found" : null } }, headers);
  },

  model(reply: Reply, request: RecordedRequest, res: ServerResponse, ctx: RenderContext): void {
    const body = bodyOf(request);
    const model = body.model ?? "";
    const stream = body.stream === true;
    const usageChunk = (u: { input: number; output: number; cached?: number }) =>
      body.stream_options?.include_usage
        ? sse({ id: "chatcmpl-1", object: "chat.completion.chunk", created: 0, model, choices: [], usage: { prompt_tokens: u.input, completion_tokens: u.output, total_tokens: u.input + u.output, ...(u.cached !== undefined ? { prompt_tokens_details: { cached_tokens: u.cached } } : {}) } })
        : "";
    const sseHead = () => res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    if (ctx.localServer && request.path.endsWith("/chat/completions") && refuseOversized(ctx.localServer, request, res)) return;
    switch (reply.kind) {
      case "status":
        return this.error(reply.status, reply.message ?? (reply.status === 404 ? `The model \`${model}\` does not exist or you do not have access to it.` : defaultMessage(reply.status)), res, reply.headers);
      case "slow":
        return ctx.later(reply.delayMs, () => this.model(reply.then ?? { kind: "content", text: "{}" }, request, res, ctx));
      case "raw":
        res.writeHead(reply.status ?? 200, { "content-type": reply.contentType ?? "application/json" });
        res.end(reply.body);
        return;
      case "refusal": {
        const text = reply.text ?? "I'm sorry, I can't assist with that request.";
        if (!stream) {
          return jsonResponse(res, 200, {
            id: "chatcmpl-1", object: "chat.completion", created: 0, model,
            choices: [{ index: 0, message: { role: "assistant", content: null, refusal: text }, finish_reason: "stop" }],
            usage: { prompt_tokens: 20, completion_tokens: 5, total_tokens: 25 },
          });
        }
        sseHead();
        res.write(sse(chunk(model, { role: "assistant", content: null, refusal: "" })));
        for (const part of chunksOf(text)) res.write(sse(chunk(model, { refusal: part })));
        res.write(sse(chunk(model, {}, "stop")));
        res.end(sse("[DONE]"));
        return;
      }
      case "content": {
        // A model told not to think writes no reasoning (Qwen3's template with enable_thinking false; Ollama's reasoning_effort "none").
        const reasoning = thinkingOff(request) ? undefined : reply.reasoning;
        // Servers count every generated token, thinking included, as completion tokens.
        const scripted = reply.usage ?? (reasoning ? { input: usageOf(reply).input, output: Math.ceil((reasoning.length + reply.text.length) / 4) } : usageOf(reply));
        // A local server reports the prompt as it counted it (Ollama's /v1: what it kept of it).
        const usage = ctx.localServer ? { ...scripted, input: readPrompt(ctx.localServer, request) } : scripted;
        // With a prompt cache, the prompt is counted from the request and its cached prefix reported (OpenAI's automatic caching).
        const cache = ctx.promptCache?.openai(request.body);
        const counted = cache ? { input: cache.prompt, output: usage.output, cached: cache.cached } : usage;
        const finish = reply.finish ?? "stop";
        if (!stream) {
          return jsonResponse(res, 200, {
            id: "chatcmpl-1", object: "chat.completion", created: 0, model,
            choices: [{ index: 0, message: { role: "assistant", content: reply.text, refusal: null, ...(reasoning ? { reasoning_content: reasoning } : {}) }, finish_reason: finish }],
            usage: { prompt_tokens: counted.input, completion_tokens: usage.output, total_tokens: counted.input + usage.output, ...(cache ? { prompt_tokens_details: { cached_tokens: cache.cached } } : {}) },
          });
        }
        sseHead();
        res.write(sse(chunk(model, { role: "assistant", content: "" })));
        // llama-server and vLLM stream reasoning first, in delta.reasoning_content, content null.
        for (const part of chunksOf(reasoning ?? "")) res.write(sse(chunk(model, { content: null, reasoning_content: part })));
        for (const part of chunksOf(reply.text)) res.write(sse(chunk(model, { content: part })));
        res.write(sse(chunk(model, {}, finish)));
        res.write(usageChunk(counted));
        res.end(sse("[DONE]"));
        return;
      }
      case "cut": {
        if (!stream) return cutJson(res, { id: "chatcmpl-1", choices: [{ index: 0, message: { role: "assistant", content: reply.text } }] }, reply.afterChars + 40);
        sseHead();
        for (const part of chunksOf(reply.text.slice(0, reply.afterChars))) res.write(sse(chunk(model, { content: part })));
        writeCut(res, `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"${reply.text.slice(reply.afterChars, reply.afterChars + 5)}`);
        return;
      }
      case "stall":
        sseHead();
        for (const part of chunksOf(reply.reasoning ?? "")) res.write(sse(chunk(model, { content: null, reasoning_content: part })));
        for (const part of chunksOf(reply.text)) res.write(sse(chunk(model, { content: part })));
        return;
      case "stream-error":
        sseHead();
        for (const part of chunksOf(reply.text)) res.write(sse(chunk(model, { content: part })));
        res.end(sse({ error: { message: reply.message, type: "server_error" } }));
        return;
    }
  },

  isEmbedCall: (method, path) => method === "POST" && path.endsWith("/v1/embeddings"),

  embeddings(vectors, request, res, ctx) {
    const model = (request.body as { model?: string } | null)?.model ?? "";
    if (ctx.models.length > 0 && !ctx.models.some((m) => m.name === model)) {
      return this.error(404, `The model \`${model}\` does not exist or you do not have access to it.`, res);
    }
    const input = (request.body as { input?: unknown } | null)?.input;
    const tokens = (Array.isArray(input) ? input : [input]).join(" ").split(/\s+/).length;
    jsonResponse(res, 200, {
      object: "list",
      data: vectors.map((embedding, index) => ({ object: "embedding", index, embedding })),
      model,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
  },

  other(request, res, ctx) {
    if (ctx.localServer && serveWindowEndpoint(ctx.localServer, request, res, ctx.models)) return;
    if (request.method === "GET" && request.path.endsWith("/v1/models")) {
      return jsonResponse(res, 200, {
        object: "list",
        data: ctx.models.map((m) => ({ id: m.name, object: "model", created: 0, owned_by: "scripted", ...modelListExtras(ctx.localServer), ...(m.capabilities ? { supported_parameters: m.capabilities } : {}) })),
      });
    }
    return this.error(404, `Unknown route ${request.method} ${request.path}`, res);
  },
};
