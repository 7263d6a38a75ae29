/**
 * A structured request streamed (`stream: true` with `format`), read back into one reply. Streaming
 * is what lets a slow local model be timed by silence rather than by length (attempt-timer.ts): each
 * NDJSON line is about one token. Thinking lines (`message.thinking`) count as activity too, but
 * only the content is the reply.
 */
import { envelopeError } from "../classify-error";
import { OLLAMA_HOST_SETTING } from "../server-setting";
import type { ChatRequest } from "ollama/browser";
import type { OllamaApi } from "./client";
import { OllamaChatReply } from "./envelope";

/** The final line, with `message.content` holding the whole reply. */
export async function streamedReply(client: OllamaApi, request: ChatRequest & { stream: true }, signal: AbortSignal, received: (piece: string) => void): Promise<OllamaChatReply> {
  const stream = await client.chat(request);
  // A timeout or a cancel must close the connection, so the server stops generating.
  const stop = () => stream.abort();
  if (signal.aborted) stop();
  else signal.addEventListener("abort", stop, { once: true });
  let content = "";
  try {
    for await (const chunk of stream) {
      const parsed = OllamaChatReply.safeParse(chunk);
      if (!parsed.success) throw envelopeError("Ollama", "a stream line without a message", OLLAMA_HOST_SETTING);
      const piece = parsed.data.message.content ?? "";
      received(piece || (parsed.data.message.thinking ?? ""));
      content += piece;
      if (parsed.data.done) return { ...parsed.data, message: { ...parsed.data.message, content } };
    }
  } finally {
    signal.removeEventListener("abort", stop);
  }
  throw envelopeError("Ollama", "the stream ended before its last line", OLLAMA_HOST_SETTING);
}
