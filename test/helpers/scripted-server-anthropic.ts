/** The Anthropic messages wire protocol for the scripted server: /v1/messages (JSON or SSE) and /v1/models. */
import type { ServerResponse } from "node:http";
import { chunksOf, cutJson, defaultMessage, jsonResponse, usageOf, writeCut, type RecordedRequest, type RenderContext, type Renderer, type Reply } from "./scripted-server";

interface Body {
  model?: string;
  stream?: boolean;
  tool_choice?: { type?: string; name?: string };
}

function event(name: string, data: Record<string, unknown>): string {
  return `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;
}

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  529: "overloaded_error",
};

/** A forced tool call answers with a tool_use block when the scripted text is a JSON object. */
function contentBlocks(body: Body, text: string): Record<string, unknown>[] {
  if (body.tool_choice?.type === "tool" && body.tool_choice.name) {
    try {
      const input = JSON.parse(text) as unknown;
      if (input && typeof input === "object" && !Array.isArray(input)) return [{ type: "tool_use", id: "toolu_1", name: body.tool_choice.name, input }];
    } catch {
      // Not JSON: the model answered in prose instead.
    }
  }
  return [{ type: "text", text }];
}

interface MessageUsage {
  readonly input: number;
  readonly output: number;
  readonly cacheRead?: number;
  readonly cacheWrite?: number;
}

function message(model: string, content: Record<string, unknown>[], stopReason: string, usage: MessageUsage): Record<string, unknown> {
  const cache = usage.cacheRead !== undefined ? { cache_creation_input_tokens: usage.cacheWrite ?? 0, cache_read_input_tokens: usage.cacheRead } : {};
  return { id: "msg_1", type: "message", role: "assistant", model, content, stop_reason: stopReason, stop_sequence: null, usage: { input_tokens: usage.input, output_tokens: usage.output, ...cache } };
}

/**
 * Whether a streamed forced tool call answers `text` with a tool_use block (its input in
 * input_json_delta pieces): whenever the text is meant as a JSON object, even one that does not
 * parse (cut at max_tokens, or malformed) — the API streams the pieces before anyone parses them.
 */
function answersWithTool(body: Body, text: string): boolean {
  return isToolCall(body) && text.trimStart().startsWith("{");
}

/** The start of a streamed message, as Anthropic sends it: message_start, one content block's start, its deltas. */
function streamText(res: ServerResponse, body: Body, text: string, usage: MessageUsage, asTool = answersWithTool(body, text)): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  res.write(event("message_start", { message: { ...message(body.model ?? "", [], "", { ...usage, output: 1 }), stop_reason: null } }));
  res.write(event("ping", {}));
  if (asTool) {
    res.write(event("content_block_start", { index: 0, content_block: { type: "tool_use", id: "toolu_1", name: body.tool_choice?.name ?? "", input: {} } }));
    for (const part of chunksOf(text)) res.write(event("content_block_delta", { index: 0, delta: { type: "input_json_delta", partial_json: part } }));
    return;
  }
  res.write(event("content_block_start", { index: 0, content_block: { type: "text", text: "" } }));
  for (const part of chunksOf(text)) res.write(event("content_block_delta", { index: 0, delta: { type: "text_delta", text: part } }));
}

function isToolCall(body: Body): boolean {
  return body.tool_choice?.type === "tool" && Boolean(body.tool_choice.name);
}

export const renderAnthropic: Renderer = {
  isModelCall: (method, path) => method === "POST" && path === "/v1/messages",

  error(status, msg, res, headers = {}) {
    jsonResponse(res, status, { type: "error", error: { type: ERROR_TYPES[status] ?? "api_error", message: msg } }, { "request-id": "req_scripted", ...headers });
  },

  model(reply: Reply, request: RecordedRequest, res: ServerResponse, ctx: RenderContext): void {
    const body = (request.body ?? {}) as Body;
    const model = body.model ?? "";
    const stream = body.stream === true;
    const finish = (stopReason: string, output: number) => {
      res.write(event("content_block_stop", { index: 0 }));
      res.write(event("message_delta", { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: output } }));
      res.end(event("message_stop", {}));
    };
    switch (reply.kind) {
      case "status":
        return this.error(reply.status, reply.message ?? (reply.status === 404 ? `model: ${model}` : defaultMessage(reply.status)), res, reply.headers);
      case "slow":
        return ctx.later(reply.delayMs, () => this.model(reply.then ?? { kind: "content", text: "{}" }, request, res, ctx));
      case "raw":
        res.writeHead(reply.status ?? 200, { "content-type": reply.contentType ?? "application/json" });
        res.end(reply.body);
        return;
      case "refusal": {
        const text = reply.text ?? "";
        if (!stream) return jsonResponse(res, 200, message(model, text ? [{ type: "text", text }] : [], "refusal", { input: 20, output: 3 }));
        streamText(res, body, text, { input: 20, output: 3 }, false);
        return finish("refusal", 3);
      }
      case "content": {
        // With a prompt cache, the input is the request's own, split into uncached, read and written.
        const cached = ctx.promptCache?.anthropic(request.body);
        const usage: MessageUsage = cached ? { output: usageOf(reply).output, ...cached } : usageOf(reply);
        const stopReason = reply.finish === "length" ? "max_tokens" : "end_turn";
        if (!stream) {
          const blocks = contentBlocks(body, reply.text);
          return jsonResponse(res, 200, message(model, blocks, blocks[0]?.type === "tool_use" && reply.finish !== "length" ? "tool_use" : stopReason, usage));
        }
        streamText(res, body, reply.text, usage);
        return finish(stopReason, usage.output);
      }
      case "cut": {
        if (!stream) return cutJson(res, message(model, [{ type: "text", text: reply.text }], "end_turn", { input: 1, output: 1 }), reply.afterChars + 40);
        streamText(res, body, reply.text.slice(0, reply.afterChars), { input: 10, output: 1 }, false);
        writeCut(res, `event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"${reply.text.slice(reply.afterChars, reply.afterChars + 5)}`);
        return;
      }
      case "stall":
        streamText(res, body, reply.text, { input: 10, output: 1 });
        return;
      case "stream-error":
        streamText(res, body, reply.text, { input: 10, output: 1 }, false);
        res.end(`event: error\ndata: ${JSON.stringify({ type: "error", error: { type: "overloaded_error", message: reply.message } })}\n\n`);
        return;
    }
  },

  other(request, res, ctx) {
    if (request.method === "GET" && request.path === "/v1/models") {
      const data = ctx.models.map((m) => ({ type: "model", id: m.name, display_name: m.name, created_at: new Date(0).toISOString() }));
      return jsonResponse(res, 200, { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data[data.length - 1]?.id ?? null });
    }
    return this.error(404, `Unknown route ${request.method} ${request.path}`, res);
  },
};
