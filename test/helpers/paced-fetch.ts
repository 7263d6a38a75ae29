/**
 * A model server in virtual time: a `fetch` that answers the model endpoint with a stream paced by
 * `setTimeout` — `firstMs` of silence (a CPU reading the prompt), then one token every
 * `1000 / tokensPerSecond` ms — so under vitest's fake timers a reply of minutes runs in
 * milliseconds while the real SDKs and our attempt timers see every pause as it would be. Ollama
 * (/api/chat NDJSON, /api/show), an OpenAI-compatible llama-server (/v1/chat/completions SSE,
 * /props) or Anthropic's Messages API (/v1/messages SSE: a forced tool call's input comes as
 * input_json_delta pieces, anything else as text_delta). A token is four characters. The scripted servers (scripted-server.ts) pace in real time;
 * this is for replies too slow to wait for.
 */
import type { FetchLike } from "../../src/providers/environment";

export interface PacedReply {
  readonly protocol: "ollama" | "openai" | "anthropic";
  /** The reply's content, written four characters a token. */
  readonly text: string;
  /** Silence before the first token. */
  readonly firstMs: number;
  readonly tokensPerSecond: number;
  /** llama-server's n_ctx (/props) and the model's context length (/api/show). */
  readonly contextSize?: number;
}

export interface PacedFetch {
  readonly fetch: FetchLike;
  /** Model requests received (bodies). */
  readonly requests: unknown[];
  /** Model requests whose client went away before the reply ended. */
  aborted(): number;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function tokensOf(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += 4) out.push(text.slice(i, i + 4));
  return out;
}

interface Frames {
  /** Sent with the first token (Anthropic's message_start and content_block_start). */
  readonly start?: string;
  readonly token: (t: string) => string;
  readonly end: (count: number) => string;
}

interface PacedBody {
  model?: string;
  stream?: boolean;
  tool_choice?: { type?: string; name?: string };
}

function anthropicFrames(body: PacedBody, model: string): Frames {
  const event = (name: string, data: Record<string, unknown>) => `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;
  const tool = body.tool_choice?.type === "tool" ? (body.tool_choice.name ?? "") : null;
  const message = { id: "msg_1", type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 0, output_tokens: 1 } };
  return {
    start: `${event("message_start", { message })}${event("content_block_start", { index: 0, content_block: tool !== null ? { type: "tool_use", id: "toolu_1", name: tool, input: {} } : { type: "text", text: "" } })}`,
    token: (t) => event("content_block_delta", { index: 0, delta: tool !== null ? { type: "input_json_delta", partial_json: t } : { type: "text_delta", text: t } }),
    end: (count) =>
      `${event("content_block_stop", { index: 0 })}${event("message_delta", { delta: { stop_reason: tool !== null ? "tool_use" : "end_turn", stop_sequence: null }, usage: { output_tokens: count } })}${event("message_stop", {})}`,
  };
}

function frames(reply: PacedReply, body: PacedBody): Frames {
  const model = body.model ?? "";
  if (reply.protocol === "anthropic") return anthropicFrames(body, model);
  if (reply.protocol === "ollama") {
    const line = (o: unknown) => `${JSON.stringify(o)}\n`;
    return {
      token: (t) => line({ model, message: { role: "assistant", content: t }, done: false }),
      end: (count) => line({ model, message: { role: "assistant", content: "" }, done: true, done_reason: "stop", prompt_eval_count: 0, eval_count: count }),
    };
  }
  const sse = (o: unknown) => `data: ${JSON.stringify(o)}\n\n`;
  const chunk = (delta: unknown, finish: string | null) => ({ id: "c", object: "chat.completion.chunk", created: 0, model, choices: [{ index: 0, delta, finish_reason: finish }] });
  return {
    token: (t) => sse(chunk({ content: t }, null)),
    end: (count) => `${sse(chunk({}, "stop"))}${sse({ id: "c", object: "chat.completion.chunk", created: 0, model, choices: [], usage: { prompt_tokens: 0, completion_tokens: count, total_tokens: count } })}data: [DONE]\n\n`,
  };
}

function json(body: unknown): Response {
  return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
}

function whole(reply: PacedReply, request: PacedBody, count: number, signal: AbortSignal | undefined, onAbort: () => void): Promise<Response> {
  const model = request.model ?? "";
  const tool = request.tool_choice?.type === "tool" ? (request.tool_choice.name ?? "") : null;
  const body =
    reply.protocol === "anthropic"
      ? { id: "msg_1", type: "message", role: "assistant", model, content: [tool !== null ? { type: "tool_use", id: "toolu_1", name: tool, input: JSON.parse(reply.text) as unknown } : { type: "text", text: reply.text }], stop_reason: tool !== null ? "tool_use" : "end_turn", stop_sequence: null, usage: { input_tokens: 0, output_tokens: count } }
      : reply.protocol === "ollama"
      ? { model, message: { role: "assistant", content: reply.text }, done: true, done_reason: "stop", prompt_eval_count: 0, eval_count: count }
      : { id: "c", object: "chat.completion", created: 0, model, choices: [{ index: 0, message: { role: "assistant", content: reply.text }, finish_reason: "stop" }], usage: { prompt_tokens: 0, completion_tokens: count, total_tokens: count } };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve(json(body)), reply.firstMs + (count * 1000) / reply.tokensPerSecond);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      onAbort();
      reject(signal.reason instanceof Error ? signal.reason : new Error("aborted"));
    }, { once: true });
  });
}

export function pacedFetch(reply: PacedReply): PacedFetch {
  const requests: unknown[] = [];
  let aborted = 0;
  const contextSize = reply.contextSize ?? 8192;
  const fetch: FetchLike = (input, init) => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
    const body = typeof init?.body === "string" ? (JSON.parse(init.body) as PacedBody) : {};
    if (url.pathname === "/api/show") return Promise.resolve(json({ capabilities: ["completion"], model_info: { "general.architecture": "qwen2", "qwen2.context_length": contextSize } }));
    if (url.pathname === "/props") return Promise.resolve(json({ default_generation_settings: { n_ctx: contextSize }, total_slots: 1 }));
    if (url.pathname !== "/api/chat" && !url.pathname.endsWith("/chat/completions") && url.pathname !== "/v1/messages") return Promise.resolve(new Response("not found", { status: 404 }));
    requests.push(body);
    const signal = init?.signal ?? undefined;
    const { start, token, end } = frames(reply, body);
    const tokens = tokensOf(reply.text);
    // Asked for whole (OpenAI's default, Ollama's `stream: false`), the reply comes when it is all written.
    if (reply.protocol === "ollama" ? body.stream === false : body.stream !== true) return whole(reply, body, tokens.length, signal, () => aborted++);
    const encoder = new TextEncoder();
    let sent = 0;
    let closed = false;
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        await wait(sent === 0 ? reply.firstMs : 1000 / reply.tokensPerSecond);
        if (closed) return;
        if (signal?.aborted) {
          aborted++;
          closed = true;
          controller.error(signal.reason);
          return;
        }
        const next = tokens[sent++];
        if (sent === 1 && start) controller.enqueue(encoder.encode(start));
        if (next !== undefined) controller.enqueue(encoder.encode(token(next)));
        else {
          controller.enqueue(encoder.encode(end(tokens.length)));
          closed = true;
          controller.close();
        }
      },
      cancel() {
        if (!closed) aborted++;
        closed = true;
      },
    });
    const type = reply.protocol === "ollama" ? "application/x-ndjson" : "text/event-stream";
    return Promise.resolve(new Response(stream, { status: 200, headers: { "content-type": type } }));
  };
  return { fetch, requests, aborted: () => aborted };
}
