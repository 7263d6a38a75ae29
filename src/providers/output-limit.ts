/**
 * Replies cut off at the output limit (OpenAI `finish_reason: length`, Anthropic `stop_reason:
 * max_tokens`, Ollama `done_reason: length`). Nothing from such a reply is used unless its object
 * closed; the next attempt asks for twice the output tokens, up to what the model declares, and
 * the run log and progress say so. The raised limit holds for the rest of the run (the analysis
 * and every generation attempt), never for the next one.
 */
import type { ProviderCapabilities } from "../core/capabilities";
import { SynapseError } from "../core/errors";
import type { RunContext } from "../core/run-context";

const TRUNCATED = Symbol.for("synapse.truncated");
/** Raises per call: 8,192 tokens grow to 65,536 at most, and each raise is a whole new request. */
const MAX_RAISES = 3;
/** With nothing declared, the limit grows to this multiple of the configured one. */
const UNDECLARED_GROWTH = 4;

/** A `schema` failure marked as cut off at `limit` (null: the server's own limit, usually the context). */
export function truncatedError(label: string, what: string, limit: number | null, cause?: unknown): SynapseError {
  const at = limit ? `the ${limit}-token output limit` : "the end of the model's context window";
  const error = new SynapseError("schema", `The ${label} reply for ${what} stopped at ${at} before it was complete; nothing from it is used.`, {
    ...(cause !== undefined ? { cause } : {}),
  });
  Object.defineProperty(error, TRUNCATED, { value: limit ?? 0 });
  return error;
}

export function isTruncated(error: unknown): error is SynapseError {
  return SynapseError.isInstance(error) && TRUNCATED in error;
}

/** The most output tokens a raise may reach: what the model declares, else its context, else a multiple of the setting. */
export function outputCeiling(configured: number, caps: ProviderCapabilities): number {
  if (caps.maxOutputTokens > 0) return Math.max(configured, caps.maxOutputTokens);
  if (caps.maxContext > 0) return Math.max(configured, caps.maxContext);
  return configured * UNDECLARED_GROWTH;
}

/** One adapter's output limit per run: the configured one until a reply is cut off. 0 means "not set". */
export class OutputLimits {
  private readonly raised = new WeakMap<RunContext, { limit: number; raises: number }>();

  constructor(private readonly configured: number) {}

  current(run: RunContext): number {
    return this.raised.get(run)?.limit ?? this.configured;
  }

  /** Doubles the run's limit within the ceiling; null when it cannot grow (unset, at the ceiling, or raised enough). */
  raise(run: RunContext, ceiling: number): { from: number; to: number } | null {
    const state = this.raised.get(run) ?? { limit: this.configured, raises: 0 };
    if (state.limit <= 0 || state.raises >= MAX_RAISES || state.limit >= ceiling) return null;
    const to = Math.min(ceiling, state.limit * 2);
    this.raised.set(run, { limit: to, raises: state.raises + 1 });
    return { from: state.limit, to };
  }
}

export interface OutputLimitContext {
  readonly label: string;
  readonly limits: OutputLimits;
  /** Read at each raise: Ollama learns the model's context on the first call. */
  readonly ceiling: () => number;
  /** The sentence that ends the last failure, naming what the user can change. */
  readonly advice: (limit: number) => string;
}

/** Runs `call` with the run's output limit; after a cut-off reply, again with a raised one. */
export async function withOutputLimit<T>(run: RunContext, context: OutputLimitContext, call: (limit: number) => Promise<T>): Promise<T> {
  for (;;) {
    const limit = context.limits.current(run);
    try {
      return await call(limit);
    } catch (error) {
      if (!isTruncated(error)) throw error;
      const raised = context.limits.raise(run, context.ceiling());
      if (!raised) throw new SynapseError("schema", `${error.message} ${context.advice(limit)}`, { cause: error });
      run.progress?.({ type: "activity", message: `${context.label} stopped at the ${raised.from}-token output limit; trying again with ${raised.to}.` });
    }
  }
}
