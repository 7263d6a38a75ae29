/**
 * Embedding requests follow the window rules of every other Ollama request. /api/embed runs in the
 * request's `options.num_ctx`, else the server's default, and by default (`truncate: true`) cuts an
 * input longer than that from the end without a word. So each request asks for a window that holds
 * its longest text (in steps, within the embedding model's own context length and the "Context
 * window" setting), a text longer than that is cut here, on a paragraph or word boundary where one
 * is near, and the request says `truncate: false`: what the vector stands for is what we sent.
 */
import { windowTokens } from "../../core/window-tokens";
import { WINDOW_STEP, windowCeiling } from "./context-window";

export interface EmbedPlan {
  /** The texts as sent: each within the window. */
  readonly texts: string[];
  /** Sent as `options.num_ctx`. */
  readonly numCtx: number;
}

/** `windowTokens` counts chars/3 and a template's room; the inverse, for the longest text that fits. */
function charsFor(tokens: number): number {
  return Math.max(0, (tokens - windowTokens("")) * 3);
}

/** The start of `text` within `chars`, ending at a paragraph or a space in its last fifth when there is one. */
function cut(text: string, chars: number): string {
  if (text.length <= chars) return text;
  const head = text.slice(0, chars);
  const floor = Math.floor(chars * 0.8);
  const paragraph = head.lastIndexOf("\n\n");
  if (paragraph >= floor) return head.slice(0, paragraph);
  const space = head.lastIndexOf(" ");
  return space >= floor ? head.slice(0, space) : head;
}

/** The texts cut to the window and the window to ask for. `modelContext` 0: not known. */
export function planEmbedding(texts: readonly string[], setting: number, modelContext: number): EmbedPlan {
  const ceiling = windowCeiling(setting, modelContext);
  const kept = texts.map((t) => cut(t, charsFor(ceiling)));
  const longest = kept.reduce((max, t) => Math.max(max, windowTokens(t)), 0);
  return { texts: kept, numCtx: Math.min(ceiling, Math.max(WINDOW_STEP, Math.ceil(longest / WINDOW_STEP) * WINDOW_STEP)) };
}
