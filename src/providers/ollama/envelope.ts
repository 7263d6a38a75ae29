/**
 * The parts of Ollama's replies we use, parsed loosely: a field Ollama adds breaks nothing, a
 * reply missing what we need is not the protocol (a transport failure, not a schema one).
 */
import * as z from "zod";

const Count = z.number().nonnegative().nullish();

export const OllamaChatReply = z.looseObject({
  message: z.looseObject({ content: z.string().nullish(), thinking: z.string().nullish() }),
  done: z.boolean().nullish(),
  done_reason: z.string().nullish(),
  prompt_eval_count: Count,
  eval_count: Count,
});
export type OllamaChatReply = z.infer<typeof OllamaChatReply>;

export const OllamaShowReply = z.looseObject({
  capabilities: z.array(z.string()).nullish(),
  model_info: z.record(z.string(), z.unknown()).nullish(),
  details: z.looseObject({ family: z.string().nullish(), parameter_size: z.string().nullish() }).nullish(),
});
export type OllamaShowReply = z.infer<typeof OllamaShowReply>;

export const OllamaTagsReply = z.looseObject({
  models: z.array(z.looseObject({ name: z.string(), model: z.string().nullish() })),
});

export const OllamaVersionReply = z.looseObject({ version: z.string() });

export const OllamaEmbedReply = z.looseObject({
  embeddings: z.array(z.array(z.number())),
  prompt_eval_count: Count,
});

/** The context window from `model_info` (`<architecture>.context_length`), 0 when absent. */
export function contextLengthOf(show: OllamaShowReply): number {
  const info = show.model_info ?? {};
  const arch = info["general.architecture"];
  const direct = typeof arch === "string" ? info[`${arch}.context_length`] : undefined;
  if (typeof direct === "number") return direct;
  for (const [key, value] of Object.entries(info)) {
    if (key.endsWith(".context_length") && typeof value === "number") return value;
  }
  return 0;
}

/** `llama3` and `llama3:latest` name the same installed model. */
export function sameModel(installed: string, wanted: string): boolean {
  const norm = (name: string) => (name.includes(":") ? name : `${name}:latest`);
  return norm(installed) === norm(wanted);
}
