/** The parts of an Anthropic Messages reply we use, parsed loosely (see ollama/envelope.ts). */
import * as z from "zod";

const Count = z.number().nonnegative().nullish();

export const AnthropicUsage = z.looseObject({
  input_tokens: Count,
  output_tokens: Count,
  cache_creation_input_tokens: Count,
  cache_read_input_tokens: Count,
});

export const AnthropicMessage = z.looseObject({
  content: z.array(z.looseObject({ type: z.string(), text: z.string().nullish(), name: z.string().nullish(), input: z.unknown().optional() })),
  stop_reason: z.string().nullish(),
  usage: AnthropicUsage.nullish(),
});
export type AnthropicMessage = z.infer<typeof AnthropicMessage>;

export const AnthropicStreamEvent = z.looseObject({
  type: z.string(),
  /** The content block an event is about (content_block_start / _delta / _stop). */
  index: z.number().int().nonnegative().nullish(),
  message: z.looseObject({ usage: AnthropicUsage.nullish() }).nullish(),
  content_block: z.looseObject({ type: z.string(), text: z.string().nullish(), name: z.string().nullish() }).nullish(),
  delta: z
    .looseObject({
      type: z.string().nullish(),
      text: z.string().nullish(),
      /** A tool call's input, a piece of JSON at a time (input_json_delta). */
      partial_json: z.string().nullish(),
      /** Extended thinking (thinking_delta): activity, never the reply. */
      thinking: z.string().nullish(),
      stop_reason: z.string().nullish(),
    })
    .nullish(),
  usage: AnthropicUsage.nullish(),
});

export function inputTokensOf(usage: z.infer<typeof AnthropicUsage> | null | undefined): number {
  if (!usage) return 0;
  return (usage.input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
}

/** The usage as Synapse counts it: every input token, with the cache's reads and writes as parts of it. */
export function tokenUsageOf(usage: z.infer<typeof AnthropicUsage>): { inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheWriteTokens: number } {
  return {
    inputTokens: inputTokensOf(usage),
    outputTokens: usage.output_tokens ?? 0,
    cacheReadTokens: usage.cache_read_input_tokens ?? 0,
    cacheWriteTokens: usage.cache_creation_input_tokens ?? 0,
  };
}
