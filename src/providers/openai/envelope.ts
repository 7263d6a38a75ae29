/** The parts of an OpenAI chat-completions reply we use, parsed loosely (see ollama/envelope.ts). */
import * as z from "zod";

const Count = z.number().nonnegative().nullish();

export const OpenAIUsage = z.looseObject({
  prompt_tokens: Count,
  completion_tokens: Count,
  /** Of prompt_tokens, those OpenAI's automatic prefix cache served (billed at the cached rate). */
  prompt_tokens_details: z.looseObject({ cached_tokens: Count }).nullish(),
});

/** The usage as Synapse counts it: prompt tokens, of which the cached ones are a part. */
export function tokenUsageOf(usage: z.infer<typeof OpenAIUsage>): { inputTokens: number; outputTokens: number; cacheReadTokens: number } {
  return { inputTokens: usage.prompt_tokens ?? 0, outputTokens: usage.completion_tokens ?? 0, cacheReadTokens: usage.prompt_tokens_details?.cached_tokens ?? 0 };
}

export const OpenAICompletion = z.looseObject({
  choices: z
    .array(
      z.looseObject({
        message: z.looseObject({ content: z.string().nullish(), refusal: z.string().nullish() }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
  usage: OpenAIUsage.nullish(),
});
export type OpenAICompletion = z.infer<typeof OpenAICompletion>;

export const OpenAIChunk = z.looseObject({
  choices: z
    .array(
      z.looseObject({
        delta: z
          .looseObject({
            content: z.string().nullish(),
            refusal: z.string().nullish(),
            // A reasoning model's thinking: llama-server and vLLM say reasoning_content, Ollama's /v1 and OpenRouter reasoning.
            reasoning_content: z.string().nullish(),
            reasoning: z.string().nullish(),
          })
          .nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .nullish(),
  usage: OpenAIUsage.nullish(),
});

export const OpenAIModelList = z.looseObject({ data: z.array(z.looseObject({ id: z.string() })) });

/** An /v1/embeddings reply (asked for with `encoding_format: "float"`). */
export const OpenAIEmbeddingReply = z.looseObject({
  data: z.array(z.looseObject({ index: z.number().int().nonnegative(), embedding: z.array(z.number()) })),
  usage: z.looseObject({ prompt_tokens: Count }).nullish(),
});
