/**
 * A question's answer streamed from /api/chat. Ollama says how much of the prompt it read only on
 * the last line (`prompt_eval_count`), after the answer has streamed to the reader; `readCount`
 * is handed that count once the usage is out, and throws when the prompt was not read whole (a
 * prompt cut from the start lost its instructions and first passages: not an answer that stands).
 * Such an answer is not sent again: what the reader was shown cannot be taken back (call.ts); the
 * count sizes the next question instead (token-calibration.ts).
 */
import type { ChatRequest } from "ollama/browser";
import { envelopeError } from "../classify-error";
import { OLLAMA_HOST_SETTING } from "../server-setting";
import type { StreamPart, TokenUsage } from "../call";
import type { OllamaConnect, RequestBinding } from "./client";
import { OllamaChatReply } from "./envelope";

export function usageOf(reply: OllamaChatReply): TokenUsage {
  return { inputTokens: reply.prompt_eval_count ?? 0, outputTokens: reply.eval_count ?? 0 };
}

export async function* streamAnswer(
  connect: OllamaConnect,
  binding: RequestBinding,
  request: ChatRequest & { stream: true },
  readCount: (counted: number | null | undefined) => void,
): AsyncGenerator<StreamPart> {
  const client = await connect(binding);
  const stream = await client.chat(request);
  // Closing the iterator (a caller that stops reading, a cancel) must close the connection.
  const stop = () => stream.abort();
  binding.signal.addEventListener("abort", stop, { once: true });
  try {
    for await (const chunk of stream) {
      const parsed = OllamaChatReply.safeParse(chunk);
      if (!parsed.success) throw envelopeError("Ollama", "a stream line without a message", OLLAMA_HOST_SETTING);
      const text = parsed.data.message.content ?? "";
      if (text) yield { type: "text", text };
      else if (parsed.data.message.thinking) yield { type: "thinking", text: parsed.data.message.thinking };
      if (parsed.data.done) {
        // The tokens were spent whatever the count says: recorded before the prompt is judged.
        yield { type: "usage", usage: usageOf(parsed.data) };
        readCount(parsed.data.prompt_eval_count);
        return;
      }
    }
  } finally {
    binding.signal.removeEventListener("abort", stop);
  }
}
