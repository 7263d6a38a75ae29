/**
 * The context window an OpenAI-compatible request must fit: the one the server reports (lowered
 * by the "Context window" setting when that is smaller), else the setting, else what a hosted
 * model is known to have. A local server refuses a prompt and reply longer than its window (vLLM)
 * or stops the reply where the window ends (llama-server), so `max_tokens` is the step's limit
 * lowered to what the window leaves after the prompt, and a prompt that cannot fit is not sent.
 * Ollama's /v1 neither refuses nor stops: it cuts the prompt's start, and the words for that
 * failure (told by ../prompt-read.ts) are here too.
 */
import { SynapseError } from "../../core/errors";
import { MIN_REPLY_TOKENS } from "../ollama/context-window";
import type { PromptOf } from "../prompt-read";
import { OLLAMA_V1_DEFAULT_WINDOW, type ReportedWindow, type WindowSource } from "./context-probe";

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

/** What the user can change for a larger window: the server's own knob, or the setting; else `shorter`. */
export function windowAdvice(window: WindowInUse, shorter = "ingest a shorter note"): string {
  if (window.from === "server" && window.source) {
    return `${SERVER_ADVICE[window.source]} (Synapse reads the new window itself; ${SETTING} can only lower it), or ${shorter}`;
  }
  if (window.from === "setting") return `raise ${SETTING} if the server holds more, or ${shorter}`;
  return `set ${SETTING} to what the server runs, or ${shorter}`;
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

const SHORTER: Record<PromptOf, string> = { note: "ingest a shorter note", question: "ask a shorter question" };
const UNUSED: Record<PromptOf, string> = { note: "the reply is not used", question: "the answer is not one to rely on" };

/**
 * The failure for a prompt the server read clearly less of than was sent: it runs a smaller window
 * than the one requests were planned for (Ollama's /v1 with "Context window" above what
 * OLLAMA_CONTEXT_LENGTH gives it), and cut the start. Never re-sent as it was.
 */
export function promptCutError(reported: number, estimated: number, window: WindowInUse, of: PromptOf): SynapseError {
  const planned = window.tokens > 0 ? `the ${window.tokens} tokens Synapse planned for` : "the prompt needs";
  const ollama = window.source === "Ollama" ? ` (Ollama's /v1 runs ${OLLAMA_V1_DEFAULT_WINDOW} tokens unless OLLAMA_CONTEXT_LENGTH is set for the server)` : "";
  return new SynapseError(
    "context",
    `The OpenAI-compatible server read only ${reported} of the prompt's ~${estimated} tokens: it ran the request in a smaller context window than ${planned} and cut the start of the prompt (the instructions), so ${UNUSED[of]}. Set ${SETTING} to the window the server runs${ollama}, or ${SHORTER[of]}.`,
  );
}

/**
 * The failure for a prompt that filled the whole window: it counts more tokens than measured for
 * this model, and the server cut its start. The count is learned, so what is sent next is packed by it.
 */
export function promptFilledWindowError(reported: number, estimated: number, window: WindowInUse, of: PromptOf): SynapseError {
  const what = of === "note" ? "the note takes" : "the question and its passages take";
  const advice =
    of === "note"
      ? `${capitalised(windowAdvice(window, "ingest a shorter note, or split it"))}.`
      : `Ask again: Synapse now sizes questions by what the server counted and sends fewer passages; or ${windowAdvice(window, "ask a shorter question")}.`;
  return new SynapseError(
    "context",
    `The OpenAI-compatible server counted the prompt at ${reported} tokens, the whole ${window.tokens}-token context window (Synapse estimated ~${estimated}): ${what} more tokens than estimated for this model, so the server cut the start of the prompt (the instructions) and ${UNUSED[of]}. ${advice}`,
  );
}

export function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
