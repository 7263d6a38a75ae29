/**
 * A batch result handed back to the provider adapter as if the server had just sent it: as the
 * JSON body the adapter asked for, or, when it asked for a stream (`stream: true`), as the event
 * stream of that API holding the whole reply — an OpenAI chat completion in one chunk, an
 * Anthropic message as its documented events (message_start, one start/delta/stop per content
 * block, message_delta, message_stop). The adapter then parses and validates it exactly as it
 * does an interactive reply.
 */
import { AnthropicMessage } from "../providers/anthropic/envelope";
import { OpenAICompletion } from "../providers/openai/envelope";
import type { BatchProvider } from "./record";

const JSON_HEADERS = { "content-type": "application/json" };

const STREAM_HEADERS = { "content-type": "text/event-stream" };

export function replyResponse(provider: BatchProvider, reply: unknown, streamed: boolean): Response {
  if (!streamed) return new Response(JSON.stringify(reply), { status: 200, headers: JSON_HEADERS });
  if (provider === "anthropic") return new Response(anthropicEvents(reply), { status: 200, headers: STREAM_HEADERS });
  const parsed = OpenAICompletion.safeParse(reply);
  // A result that is not a completion goes to the adapter as it came: its own parsing says what is wrong.
  if (!parsed.success) return new Response(`data: ${JSON.stringify(reply)}\n\ndata: [DONE]\n\n`, { status: 200, headers: STREAM_HEADERS });
  const choice = parsed.data.choices[0];
  const delta = { role: "assistant", content: choice?.message.content ?? "", ...(choice?.message.refusal ? { refusal: choice.message.refusal } : {}) };
  const chunk = { object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: choice?.finish_reason ?? "stop" }], usage: parsed.data.usage ?? null };
  return new Response(`data: ${JSON.stringify(chunk)}\n\ndata: [DONE]\n\n`, { status: 200, headers: STREAM_HEADERS });
}

/** An Anthropic message as the events its stream would have carried. */
function anthropicEvents(reply: unknown): string {
  const event = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  const parsed = AnthropicMessage.safeParse(reply);
  // A result that is not a message: one event carrying it, which the adapter's own parsing refuses.
  if (!parsed.success) return event("error", { error: { type: "invalid_result", message: "The batch result is not a message." } });
  const { content, stop_reason, usage } = parsed.data;
  const parts = [event("message_start", { message: { ...parsed.data, content: [], stop_reason: null, usage: { ...usage, output_tokens: 0 } } })];
  content.forEach((block, index) => {
    if (block.type === "tool_use") {
      parts.push(event("content_block_start", { index, content_block: { type: "tool_use", id: `toolu_${index}`, name: block.name ?? "", input: {} } }));
      parts.push(event("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input ?? {}) } }));
    } else {
      parts.push(event("content_block_start", { index, content_block: { type: block.type, text: "" } }));
      parts.push(event("content_block_delta", { index, delta: { type: "text_delta", text: block.text ?? "" } }));
    }
    parts.push(event("content_block_stop", { index }));
  });
  parts.push(event("message_delta", { delta: { stop_reason: stop_reason ?? "end_turn" }, usage: { output_tokens: usage?.output_tokens ?? 0 } }));
  parts.push(event("message_stop", {}));
  return parts.join("");
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
