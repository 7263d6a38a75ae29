/**
 * A structured request streamed (`stream: true` beside `response_format`), read back into one
 * completion. Streaming is what lets a local server on a CPU be timed by silence rather than by the
 * length of its reply (attempt-timer.ts): a 1,000-token reply at 5 tokens/s takes minutes, far past
 * any whole-request limit, yet a chunk arrives every fraction of a second. A reasoning model's
 * thinking (`delta.reasoning_content` from llama-server and vLLM, `delta.reasoning` from Ollama's
 * /v1 and OpenRouter) counts as activity, never as the reply.
 */
import { SynapseError } from "../../core/errors";
import { envelopeError } from "../classify-error";
import { OPENAI_URL_SETTING } from "../server-setting";
import { OpenAIChunk, type OpenAICompletion } from "./envelope";

const LABEL = "The OpenAI-compatible server";

/** The chunks of a streamed completion (the SDK's Stream is one). */
export type CompletionChunks = AsyncIterable<unknown>;

/**
 * The whole completion from its chunks: the content and refusal joined, the last finish reason and
 * usage kept. `received` hears every piece, thinking included, so the silence timer sees it working.
 */
export async function streamedCompletion(chunks: CompletionChunks, received: (piece: string) => void): Promise<OpenAICompletion> {
  let content = "";
  let refusal = "";
  let finish: string | null = null;
  let usage: OpenAICompletion["usage"] = null;
  let count = 0;
  for await (const raw of chunks) {
    count++;
    const parsed = OpenAIChunk.safeParse(raw);
    if (!parsed.success) throw envelopeError(LABEL, "a stream chunk without choices", OPENAI_URL_SETTING);
    for (const choice of parsed.data.choices ?? []) {
      const delta = choice.delta;
      const piece = delta?.content ?? "";
      content += piece;
      if (delta?.refusal) refusal += delta.refusal;
      received(piece || delta?.reasoning_content || delta?.reasoning || delta?.refusal || "");
      if (choice.finish_reason) finish = choice.finish_reason;
    }
    if (parsed.data.usage) usage = parsed.data.usage;
  }
  // A body that is not a stream of events at all (a proxy's page, another API's JSON) is not a cut stream.
  if (count === 0) throw envelopeError(LABEL, "no stream events in the reply", OPENAI_URL_SETTING);
  if (finish === null && !refusal) throw new SynapseError("transport", "The OpenAI-compatible stream ended before the reply was complete; try again.");
  return { choices: [{ message: { content, refusal: refusal || null }, finish_reason: finish }], usage };
}
