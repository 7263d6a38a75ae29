/**
 * Ollama runs a request in the context window the request asks for (`options.num_ctx`); without
 * one it uses its own default (4,096 tokens on most machines, 2,048 on older versions), whatever
 * the model could hold, and a longer prompt is cut *from the start* — the instructions and the
 * schema go first — with no error. So every request asks for a window sized to it: its prompt and
 * its reply, rounded up, within the model's own limit and the "Context window" setting (the window
 * costs memory). A reply whose reported prompt size (`prompt_eval_count`, which counts cached
 * tokens too) falls well short of the prompt sent, or fills the window, was cut all the same, and
 * is its own failure (../prompt-read.ts judges the count; the words for it are here).
 */
import { SynapseError } from "../../core/errors";
import { outgrown, type PromptOf } from "../prompt-read";

/** Windows are asked for in steps of this many tokens, so nearby requests share one (Ollama reloads the model when num_ctx changes). */
export const WINDOW_STEP = 1024;
/** A reply keeps at least this much room, or the request is refused before it is sent. */
export const MIN_REPLY_TOKENS = 256;

/** The largest window a request may ask for: the setting, within the model's own (0: not known). */
export function windowCeiling(setting: number, modelContext: number): number {
  return modelContext > 0 ? Math.min(setting, modelContext) : setting;
}

export interface WindowPlan {
  /** Sent as `options.num_ctx`. */
  readonly numCtx: number;
  /** Sent as `options.num_predict`: the step's limit, lowered to what the window leaves. */
  readonly numPredict: number;
}

/**
 * The window and output limit one request asks for; a `capability` refusal when even the prompt
 * and a minimal reply do not fit under the ceiling (nothing is sent: Ollama would cut it).
 */
export function planWindow(promptTokens: number, outputLimit: number, ceiling: number, model: string): WindowPlan {
  if (promptTokens + MIN_REPLY_TOKENS > ceiling) {
    throw new SynapseError(
      "capability",
      `The request needs about ${promptTokens} tokens but ${model} may use a ${ceiling}-token context window (setting "Context window" under Local: Ollama, within the model's own limit); raise the setting if the machine has the memory, or ingest a shorter note.`,
    );
  }
  const numPredict = Math.max(MIN_REPLY_TOKENS, Math.min(outputLimit, ceiling - promptTokens));
  const numCtx = Math.min(ceiling, Math.ceil((promptTokens + numPredict) / WINDOW_STEP) * WINDOW_STEP);
  return { numCtx, numPredict };
}

/** The failure for a prompt that outgrew its window: its start (the instructions) was cut. */
export function promptFilledWindowError(reported: number, estimated: number, numCtx: number, of: PromptOf = "note"): SynapseError {
  const what = of === "note" ? "the note takes" : "the question and its passages take";
  const unused = of === "note" ? "the reply is not used" : "the answer is not one to rely on";
  const advice =
    of === "note"
      ? `Raise "Context window" under Local: Ollama if the machine has the memory, or ingest a shorter note, or split it.`
      : `Ask again: Synapse now sizes questions by what Ollama counted and sends fewer passages; or raise "Context window" under Local: Ollama if the machine has the memory.`;
  return outgrown(
    new SynapseError(
      "context",
      `Ollama counted the prompt at ${reported} tokens, the whole ${numCtx}-token window asked for (Synapse estimated ~${estimated}): ${what} more tokens than estimated for this model, so Ollama cut the start of the prompt (the instructions) and ${unused}. ${advice}`,
    ),
    numCtx,
  );
}

/** The failure for a cut prompt: never an output-limit raise, never re-sent as it was. */
export function promptCutError(reported: number, estimated: number, numCtx: number, of: PromptOf = "note"): SynapseError {
  const unused = of === "note" ? "the reply is not used" : "the answer is not one to rely on";
  const shorter = of === "note" ? "ingest a shorter note" : "ask a shorter question";
  return new SynapseError(
    "context",
    `Ollama read only ${reported} of the prompt's ~${estimated} tokens: it ran the request in a smaller context window than the ${numCtx} tokens asked for and cut the start of the prompt (the instructions), so ${unused}. Raise "Context window" under Local: Ollama, check that the server honours num_ctx (OLLAMA_CONTEXT_LENGTH, an old Ollama), or ${shorter}.`,
  );
}
