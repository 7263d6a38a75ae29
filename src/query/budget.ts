/**
 * How much of the wiki a question may send. Two limits bound the context, whichever is smaller:
 * the model's context window (what it can read) and the "Token budget" setting (what one run may
 * spend, sent plus received, as for an ingest). A question is one request, so its budget must hold
 * the instructions, the question, the conversation so far, room for the answer, and then the
 * passages. A question that leaves no room even before any passage is refused before anything is
 * sent, with a sentence naming the setting; so is one whose relevant passages none of them fit.
 *
 * Text is measured as the adapter measures the prompt it plans a window for (core/window-tokens.ts,
 * times what the server was seen to count: `promptTokenRatio`), or by the script-aware estimate
 * where that is higher: a question packed here fits the window the adapter plans, on a model that
 * counts more tokens than estimated as on any other.
 */
import { SynapseError } from "../core/errors";
import type { Message } from "../core/schemas";
import { estimateTokens } from "../core/tokens";
import { measuredTokens } from "../core/window-tokens";

/** Below this, the context is not worth sending when the window is what limits it. */
const MIN_CONTEXT_TOKENS = 500;
/** Assumed window when the provider declares none. */
const DEFAULT_CONTEXT_TOKENS = 8192;
/** Room kept for the answer inside the window. */
export const ANSWER_TOKENS = 2048;
/** The instructions around the question and the passages (the system prompt is about 100; kept generous), before the ratio. */
export const PROMPT_TOKENS = 400;

/**
 * A text's tokens in a question's prompt: the adapter's window measure at the server's ratio (so
 * nothing is packed the adapter would not find room for), or the script-aware estimate where that
 * is higher (CJK and other dense scripts, before a server has told its count).
 */
export function questionTokens(ratio: number): (text: string) => number {
  return (text) => Math.max(estimateTokens(text), measuredTokens(text, ratio));
}

export interface QuestionBudget {
  /** Tokens the passages may take. */
  readonly contextTokens: number;
  /** Which limit set `contextTokens`: the model's window, or the "Token budget" setting. */
  readonly limitedBy: "window" | "budget";
  /** The run's token budget (0: none), for the messages below. */
  readonly tokenBudget: number;
}

const n = (value: number) => value.toLocaleString("en-US");

/**
 * Room for the answer inside the budget: the usual reserve, but never more than a quarter of a
 * small budget, so that a modest budget still leaves room for passages.
 */
function answerReserve(tokenBudget: number): number {
  return Math.min(ANSWER_TOKENS, Math.floor(tokenBudget / 4));
}

/** The question's budget; throws a `config` error when the budget cannot hold the question itself. */
export function questionBudget(input: {
  readonly maxContext: number;
  readonly tokenBudget: number;
  readonly question: string;
  readonly history: readonly Message[];
  /** The provider's `promptTokenRatio()` (≥ 1; 1 when it tells none); passages are then packed with `questionTokens` of it. */
  readonly promptTokenRatio?: number;
}): QuestionBudget {
  const ratio = Math.max(1, input.promptTokenRatio ?? 1);
  const tokens = questionTokens(ratio);
  const asked = tokens(input.question) + input.history.reduce((sum, m) => sum + tokens(m.content), 0);
  // The answer's room is what the server generates, counted as it counts; the instructions are prompt, measured.
  const instructions = Math.ceil(PROMPT_TOKENS * ratio);
  const window = input.maxContext > 0 ? input.maxContext : DEFAULT_CONTEXT_TOKENS;
  const windowRoom = Math.max(MIN_CONTEXT_TOKENS, window - ANSWER_TOKENS - instructions - asked);
  if (input.tokenBudget <= 0) return { contextTokens: windowRoom, limitedBy: "window", tokenBudget: 0 };
  const minimum = instructions + asked + answerReserve(input.tokenBudget);
  if (minimum >= input.tokenBudget) {
    throw new SynapseError(
      "config",
      `This question needs about ${n(minimum)} tokens before any passage of your wiki is added (instructions, the question${input.history.length > 0 ? ", the conversation so far" : ""} and room for the answer), more than the token budget of ${n(input.tokenBudget)} (setting "Token budget"), so nothing was sent; raise the budget${input.history.length > 0 ? ", clear the conversation" : ""} or shorten the question.`,
    );
  }
  const budgetRoom = input.tokenBudget - minimum;
  return budgetRoom < windowRoom
    ? { contextTokens: budgetRoom, limitedBy: "budget", tokenBudget: input.tokenBudget }
    : { contextTokens: windowRoom, limitedBy: "window", tokenBudget: input.tokenBudget };
}

/** The error for relevant passages none of which fit: the wiki has the answer, the limits keep it out. */
export function nothingFits(budget: QuestionBudget, relevant: number): SynapseError {
  const passages = relevant === 1 ? "The one relevant passage does not fit" : `None of the ${n(relevant)} relevant passages fits`;
  return new SynapseError(
    "config",
    budget.limitedBy === "budget"
      ? `${passages} in the ${n(budget.tokenBudget)}-token budget (setting "Token budget") once the question and room for the answer are counted, so nothing was sent; raise the budget to answer from your wiki.`
      : `${passages} in the model's context window once the question and room for the answer are counted, so nothing was sent; choose a model with a larger context or shorten the question.`,
  );
}
