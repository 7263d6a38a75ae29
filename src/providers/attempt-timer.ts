/**
 * How long one attempt may wait. A reply that is not streamed gets one whole-request limit; a
 * streamed one is judged by silence instead: a limit to its first piece (a model on a CPU may read
 * a long prompt for minutes before it writes anything) and a limit between pieces, so a slow but
 * steady reply — a few tokens a second — is never cut while it is still arriving. Either way the
 * run's abort and deadline end it too.
 *
 * An attempt that ran out of time is marked: the retry policy never sends it again unchanged (on a
 * slow machine the same request would only take as long again), the error names the setting.
 */
import { SynapseError } from "../core/errors";
import { deadlineSignal, type RunContext } from "../core/run-context";

const ATTEMPT_TIMEOUT = Symbol.for("synapse.attempt-timeout");

export interface AttemptLimits {
  /** Milliseconds to the first piece (or to the whole reply, when it is not streamed). */
  readonly firstMs: number;
  /** Milliseconds between two pieces; null when the reply is not streamed. */
  readonly idleMs: number | null;
}

export type Expiry = "first" | "idle";

export interface AttemptTimer {
  readonly signal: AbortSignal;
  /** Judged by silence between pieces (a streamed reply). */
  readonly streamed: boolean;
  /** A piece of the reply arrived: the silence limit starts again. */
  received(): void;
  /** Which limit ran out, if one did (the run's deadline and abort are not these). */
  expired(): Expiry | null;
  dispose(): void;
}

export function attemptTimer(run: RunContext, limits: AttemptLimits): AttemptTimer {
  const deadline = deadlineSignal(run);
  const controller = new AbortController();
  let expiry: Expiry | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = (ms: number, kind: Expiry) => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      expiry = kind;
      controller.abort(new SynapseError("timeout", "The request timed out."));
    }, Math.max(0, ms));
  };
  const onDeadline = () => controller.abort(deadline.signal.reason);
  if (deadline.signal.aborted) onDeadline();
  else deadline.signal.addEventListener("abort", onDeadline, { once: true });
  arm(limits.firstMs, "first");
  return {
    signal: controller.signal,
    streamed: limits.idleMs !== null,
    received() {
      if (controller.signal.aborted) return;
      if (limits.idleMs === null) return;
      arm(limits.idleMs, "idle");
    },
    expired: () => expiry,
    dispose() {
      if (timer !== undefined) clearTimeout(timer);
      deadline.signal.removeEventListener("abort", onDeadline);
      deadline.dispose();
    },
  };
}

/** A `timeout` the retry policy must not repeat as it was. */
export function attemptTimeoutError(message: string, cause?: unknown): SynapseError {
  const error = new SynapseError("timeout", message, cause !== undefined ? { cause } : {});
  Object.defineProperty(error, ATTEMPT_TIMEOUT, { value: true });
  return error;
}

export function isAttemptTimeout(error: unknown): boolean {
  return SynapseError.isInstance(error) && ATTEMPT_TIMEOUT in error;
}
