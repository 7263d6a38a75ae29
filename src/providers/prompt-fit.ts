/**
 * A prompt that carries the note (the analysis, the pages), fitted to the room the context window
 * leaves it once the step's reply has its share: whole when it fits, else built again around the
 * note's best parts (core/note-excerpt.ts), the prompt saying where parts were left out. Measured
 * the way the adapter sizes its window (windowTokens, times what the server was seen to count:
 * token-calibration.ts), so a note packed here is neither refused by the server nor cut by it.
 */
import { noteExcerpt, OMITTED } from "../core/note-excerpt";
import { MIN_REPLY_TOKENS } from "./ollama/context-window";
import { promptText, type PromptPair } from "./prompts";
import type { StructuredRequest } from "./structured-request";

/** Below this much of the note there is nothing worth analysing: the request is left whole (and refused, with the window's advice). */
const MIN_NOTE_TOKENS = 256;
/** Rebuilds after the first packing, each in less room by what the last one was over. */
const REPACKS = 3;

/** How an adapter measures a prompt for its window. */
export interface PromptMeasure {
  /** The prompt's tokens as the adapter sizes its window (calibrated). */
  tokens(prompt: string): number;
  /** Tokens the server counts per token of the estimate the excerpt is measured in (≥ 1). */
  readonly ratio: number;
}

/**
 * The share of the window a step's reply keeps: its output limit, but never more than half the
 * window (the other half is the prompt's), and never less than the smallest reply a request may have.
 */
export function replyReserve(stepLimit: number, window: number): number {
  return Math.max(MIN_REPLY_TOKENS, Math.min(stepLimit, Math.floor(window / 2)));
}

/**
 * The request's prompt within `room` tokens: the one it has when it fits, or when it carries no
 * note, or when not even the instructions and a useful part of the note fit (the adapter's window
 * check then refuses it before sending, naming the setting).
 */
export function fitPrompt(request: StructuredRequest<unknown>, room: number, measure: PromptMeasure): PromptPair {
  const whole = request.pair;
  const packing = request.packing;
  if (!packing || measure.tokens(promptText(whole)) <= room) return whole;
  const fixed = measure.tokens(promptText(packing.build(OMITTED, true)));
  let noteTokens = Math.floor((room - fixed) / measure.ratio);
  for (let attempt = 0; attempt <= REPACKS && noteTokens >= MIN_NOTE_TOKENS; attempt++) {
    const pair = packing.build(noteExcerpt(packing.text, packing.analysis, noteTokens), true);
    const over = measure.tokens(promptText(pair)) - room;
    if (over <= 0) return pair;
    noteTokens -= Math.ceil(over / measure.ratio) + 1;
  }
  return whole;
}
