/**
 * Whether a server read the whole prompt, told by the count it reports after the reply (Ollama
 * `prompt_eval_count`, OpenAI-compatible `usage.prompt_tokens`). A local server that runs a
 * request in a smaller context window than the prompt needs may cut the prompt *from the start* —
 * the instructions and the schema go first — with no error: Ollama does, through /api/chat and
 * through its /v1 alike. The count is the only sign. Shared by the adapters that talk to such
 * servers, so that they judge a count the same way; each says the failure in its own words.
 */
import { SynapseError } from "../core/errors";
import { textTokens } from "../core/window-tokens";
import type { TokenCalibration } from "./token-calibration";

/** Below this share of the estimate, the server's count means part of the prompt was dropped. */
const CUT_SHARE = 0.8;

/**
 * Room below the window within which a reported prompt counts as filling it. A server reports a
 * prompt that fills the whole window only when it cut one to fit; a prompt that really took that
 * much would leave its reply no room anyway.
 */
const FULL_WINDOW_ROOM = 64;

/**
 * A prompt that filled its window counts more than the window, by an amount the server does not
 * say: it is taken to count at least this much more than it reported, so that what is packed again
 * by it is not cut a second time for a few tokens.
 */
const FILLED_MARGIN = 1.15;

/** True when the server read clearly less of the prompt than was sent (an absent count proves nothing). */
export function promptWasCut(reportedPromptTokens: number | null | undefined, estimatedPromptTokens: number): boolean {
  return typeof reportedPromptTokens === "number" && reportedPromptTokens > 0 && reportedPromptTokens < estimatedPromptTokens * CUT_SHARE;
}

/**
 * Whether the prompt filled the window it ran in: a note that takes more tokens than the estimate
 * (a dense script, a model with a small vocabulary) outgrows the window planned for it, and the
 * server cuts it with no error and reports about the window's size — above the estimate, so
 * `promptWasCut` cannot see it.
 */
export function promptFilledWindow(reportedPromptTokens: number | null | undefined, windowTokens: number): boolean {
  return windowTokens > 0 && typeof reportedPromptTokens === "number" && reportedPromptTokens >= windowTokens - FULL_WINDOW_ROOM;
}

/** What a prompt that filled its window is taken to count at least. */
export function filledWindowFloor(reported: number): number {
  return Math.ceil(reported * FILLED_MARGIN);
}

const OUTGROWN = Symbol.for("synapse.windowOutgrown");

/** Marks a failure as a prompt that outgrew the window it was sized for (packed again by the new count, it may fit). */
export function outgrown(error: SynapseError, windowTokens: number): SynapseError {
  if (!(OUTGROWN in error)) Object.defineProperty(error, OUTGROWN, { value: windowTokens });
  return error;
}

/** Whether the failure is a prompt that outgrew the window it was sized for. */
export function isWindowOutgrown(error: unknown): boolean {
  return SynapseError.isInstance(error) && OUTGROWN in error;
}

/** What the cut prompt carried: a note to ingest, or a question and its passages (the advice differs). */
export type PromptOf = "note" | "question";

/** A prompt as it was sent, and its call estimate (chars/4), which a cut is told by. */
export interface SentPrompt {
  readonly prompt: string;
  readonly estimated: number;
}

/** Each adapter's words for the two ways a prompt is found cut. */
export interface CutFailures {
  /** The server read clearly less than was sent: it ran the request in a smaller window than planned. */
  readonly cut: (reported: number) => SynapseError;
  /** The prompt filled the window planned for it: it counts more than measured (marked `outgrown` here). */
  readonly filled: (reported: number) => SynapseError;
}

/**
 * Throws when the server did not read the whole prompt: read clearly less than was sent, or filled
 * the window it ran in (the calibration then learns at least that count, with a margin, for what
 * is sent next). Otherwise what the server counted sizes the next requests' windows and packing
 * (token-calibration.ts). `windowTokens` 0: the window is not known, only a count well below the
 * estimate tells.
 */
export function checkPromptRead(counted: number | null | undefined, sent: SentPrompt, windowTokens: number, calibration: TokenCalibration, failures: CutFailures): void {
  if (promptWasCut(counted, sent.estimated)) throw failures.cut(counted ?? 0);
  if (promptFilledWindow(counted, windowTokens)) {
    calibration.observeAtLeast(textTokens(sent.prompt), filledWindowFloor(counted ?? 0));
    throw outgrown(failures.filled(counted ?? 0), windowTokens);
  }
  calibration.observe(textTokens(sent.prompt), counted);
}
