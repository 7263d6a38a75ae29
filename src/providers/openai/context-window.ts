/**
 * The context window an OpenAI-compatible request must fit: the one the server reports (lowered
 * by the "Context window" setting when that is smaller), else the setting, else what a hosted
 * model is known to have. A local server refuses a prompt and reply longer than its window (vLLM)
 * or stops the reply where the window ends (llama-server), so `max_tokens` is the step's limit
 * lowered to what the window leaves after the prompt, and a prompt that cannot fit is not sent.
 */
import { SynapseError } from "../../core/errors";
import { MIN_REPLY_TOKENS } from "../ollama/context-window";
import type { ReportedWindow, WindowSource } from "./context-probe";

export const SETTING = `"Context window" under API: OpenAI-compatible`;

export interface WindowInUse {
  /** 0: not known (nothing is clamped or refused). */
  readonly tokens: number;
  readonly from: "server" | "setting" | "known" | "none";
  readonly source: WindowSource | null;
}

export function resolveWindow(reported: ReportedWindow | null, setting: number, known: number): WindowInUse {
  if (reported?.settableUpTo !== undefined && setting > 0) {
    const tokens = reported.settableUpTo > 0 ? Math.min(setting, reported.settableUpTo) : setting;
    return { tokens, from: "setting", source: reported.source };
  }
  if (reported) {
    return setting > 0 && setting < reported.tokens
      ? { tokens: setting, from: "setting", source: reported.source }
      : { tokens: reported.tokens, from: "server", source: reported.source };
  }
  if (setting > 0) return { tokens: setting, from: "setting", source: null };
  return known > 0 ? { tokens: known, from: "known", source: null } : { tokens: 0, from: "none", source: null };
}

const SERVER_ADVICE: Record<WindowSource, string> = {
  "llama-server": "start llama-server with a larger --ctx-size (-c) if the machine has the memory",
  "LM Studio": "load the model in LM Studio with a larger context length if the machine has the memory",
  vLLM: "start vLLM with a larger --max-model-len if the GPU has the memory",
  Ollama: `set OLLAMA_CONTEXT_LENGTH for the Ollama server and the same number in ${SETTING} (or use the Local: Ollama backend, which sizes the window per request)`,
};

/** What the user can change for a larger window: the server's own knob, or the setting. */
export function windowAdvice(window: WindowInUse): string {
  if (window.from === "server" && window.source) {
    return `${SERVER_ADVICE[window.source]} (Synapse reads the new window itself; ${SETTING} can only lower it), or ingest a shorter note`;
  }
  if (window.from === "setting") return `raise ${SETTING} if the server holds more, or ingest a shorter note`;
  return `set ${SETTING} to what the server runs, or ingest a shorter note`;
}

/** One line for Test connection and `synapse models`. */
export function describeWindow(window: WindowInUse): string {
  switch (window.from) {
    case "server":
      return `Context window in use: ${window.tokens} tokens (reported by ${window.source}); each request keeps its prompt and reply within it.`;
    case "setting":
      return `Context window in use: ${window.tokens} tokens (setting ${SETTING}${window.source ? ` for ${window.source}` : ""}); each request keeps its prompt and reply within it.`;
    case "known":
      return `Context window in use: ${window.tokens} tokens (the model's documented window).`;
    case "none":
      return `Context window: the server does not report one; set ${SETTING} so requests stay within it.`;
  }
}

/**
 * The output limit one request sends: `limit` (0: the step sets none) within what the window
 * leaves after the prompt; a `capability` refusal when not even a minimal reply fits.
 */
export function fitOutput(promptTokens: number, limit: number, window: WindowInUse, model: string): number {
  if (window.tokens <= 0) return limit;
  if (promptTokens + MIN_REPLY_TOKENS > window.tokens) {
    throw new SynapseError(
      "capability",
      `The request needs about ${promptTokens} tokens but ${model} runs in a ${window.tokens}-token context window; ${windowAdvice(window)}.`,
    );
  }
  const room = window.tokens - promptTokens;
  return limit > 0 ? Math.min(limit, room) : room;
}

/**
 * The prompt's tokens as the server counted them, from its refusal of a request too long for its
 * window (llama-server "request (N tokens) exceeds…", vLLM "(N in the messages, …)", LM Studio
 * "n_keep: N >= n_ctx"); null when the message names no count.
 */
export function refusedPromptTokens(message: string): number | null {
  const found = /request \((\d+) tokens\) exceeds the available context size|\((\d+) in the messages|n_keep: (\d+) >= n_ctx/.exec(message);
  const count = Number(found?.[1] ?? found?.[2] ?? found?.[3]);
  return Number.isFinite(count) && count > 0 ? count : null;
}
