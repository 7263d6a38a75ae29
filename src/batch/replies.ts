/**
 * A batch result handed back to the provider adapter as if the server had just sent it: an
 * Anthropic message as the JSON body of `POST /v1/messages`, an OpenAI chat completion as the
 * event stream the adapter asked for (`stream: true`), one chunk holding the whole reply. The
 * adapter then parses and validates it exactly as it does an interactive reply.
 */
import { OpenAICompletion } from "../providers/openai/envelope";
import type { BatchProvider } from "./record";

const JSON_HEADERS = { "content-type": "application/json" };

export function replyResponse(provider: BatchProvider, reply: unknown, streamed: boolean): Response {
  if (provider === "anthropic" || !streamed) return new Response(JSON.stringify(reply), { status: 200, headers: JSON_HEADERS });
  const parsed = OpenAICompletion.safeParse(reply);
  // A result that is not a completion goes to the adapter as it came: its own parsing says what is wrong.
  if (!parsed.success) return new Response(`data: ${JSON.stringify(reply)}\n\ndata: [DONE]\n\n`, { status: 200, headers: { "content-type": "text/event-stream" } });
  const choice = parsed.data.choices[0];
  const delta = { role: "assistant", content: choice?.message.content ?? "", ...(choice?.message.refusal ? { refusal: choice.message.refusal } : {}) };
  const chunk = { object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: choice?.finish_reason ?? "stop" }], usage: parsed.data.usage ?? null };
  return new Response(`data: ${JSON.stringify(chunk)}\n\ndata: [DONE]\n\n`, { status: 200, headers: { "content-type": "text/event-stream" } });
}

/** The body as a batch request: the same request, not streamed (a batch answers whole). */
export function batchBody(body: Record<string, unknown>): Record<string, unknown> {
  const { stream: _stream, stream_options: _options, ...rest } = body;
  return rest;
}

/** Is this request the provider's model call (and not a probe, a model list, a batch call)? */
export function isModelCall(provider: BatchProvider, method: string, url: URL): boolean {
  if (method !== "POST") return false;
  return provider === "anthropic" ? url.pathname.endsWith("/v1/messages") : url.pathname.endsWith("/chat/completions");
}
