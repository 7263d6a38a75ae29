/**
 * A question's answer streamed from /v1/chat/completions, as parts for the facade (call.ts): the
 * text, a reasoning model's thinking apart, the usage. A local server says how much of the prompt
 * it read only in the last chunk's usage, after the answer has streamed to the reader; `readCount`
 * is handed that count once the stream is whole, and throws when the prompt was not read whole (a
 * prompt cut from the start lost its instructions and first passages: not an answer that stands).
 * Such an answer is not sent again: what the reader was shown cannot be taken back; the count
 * sizes the next question instead (token-calibration.ts).
 */
import { SynapseError } from "../../core/errors";
import type { StreamPart } from "../call";
import { envelopeError } from "../classify-error";
import { OPENAI_URL_SETTING } from "../server-setting";
import { OpenAIChunk, tokenUsageOf } from "./envelope";

export function refusalError(text: string): SynapseError {
  return new SynapseError("refusal", `The model declined to answer ("${text.slice(0, 160)}"); the note may touch a topic it will not write about.`);
}

export async function* answerParts(chunks: AsyncIterable<unknown>, readCount: (counted: number | null | undefined) => void): AsyncGenerator<StreamPart> {
  let finished = false;
  let refusal = "";
  let counted: number | null | undefined;
  for await (const raw of chunks) {
    const parsed = OpenAIChunk.safeParse(raw);
    if (!parsed.success) throw envelopeError("The OpenAI-compatible server", "a stream chunk without choices", OPENAI_URL_SETTING);
    const chunk = parsed.data;
    for (const choice of chunk.choices ?? []) {
      if (choice.delta?.content) yield { type: "text", text: choice.delta.content };
      else if (choice.delta?.reasoning_content || choice.delta?.reasoning) yield { type: "thinking", text: choice.delta.reasoning_content ?? choice.delta.reasoning ?? "" };
      if (choice.delta?.refusal) refusal += choice.delta.refusal;
      if (choice.finish_reason) finished = true;
    }
    if (chunk.usage) {
      // The tokens were spent whatever the count says: recorded before the prompt is judged.
      yield { type: "usage", usage: tokenUsageOf(chunk.usage) };
      counted = chunk.usage.prompt_tokens;
    }
  }
  if (refusal) throw refusalError(refusal);
  if (!finished) throw new SynapseError("transport", "The OpenAI-compatible stream ended before the reply was complete; try again.");
  readCount(counted);
}
