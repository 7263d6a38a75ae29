/**
 * The one retry policy. Only transient failures (transport, timeout, rate limit) are retried, a
 * bounded number of times, with capped exponential backoff and jitter; a server's retry-after wins
 * over the backoff. An attempt that used up its own time limit (attempt-timer.ts) is not retried:
 * the same request on the same machine would take as long again. It never retries a cancelled run and never sleeps past the run's deadline:
 * a wait that would outlive the deadline ends the run with the error instead.
 */
import { SynapseError, toSynapseError } from "../core/errors";
import { createRunContext, deadlineSignal, remainingMs, type RunContext } from "../core/run-context";
import { isAttemptTimeout } from "./attempt-timer";

export interface RetryPolicy {
  /** Attempts in total, the first included (1 = no retry). */
  readonly maxAttempts: number;
  /** First backoff delay; doubled on each further attempt. */
  readonly baseDelayMs: number;
  /** Ceiling of the computed backoff. */
  readonly maxDelayMs: number;
  /** A server asking for a longer wait than this ends the call instead of stalling the run. */
  readonly maxRetryAfterMs: number;
  /** 0 for none, 0.25 for ±25 %. */
  readonly jitter: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = Object.freeze({
  maxAttempts: 3,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
  jitter: 0.25,
});

export function resolveRetryPolicy(overrides: Partial<RetryPolicy> = {}): RetryPolicy {
  const merged = { ...DEFAULT_RETRY_POLICY, ...overrides };
  // A policy is a bound: at least one attempt, never an unbounded one.
  return Object.freeze({ ...merged, maxAttempts: Math.max(1, Math.min(10, Math.floor(merged.maxAttempts))) });
}

/**
 * Milliseconds a server asked us to wait: `retry-after-ms` (OpenAI, Anthropic), then
 * `retry-after` as seconds or an HTTP date. Undefined when there is nothing usable.
 */
export function parseRetryAfter(get: (name: string) => string | null | undefined, now = Date.now()): number | undefined {
  const ms = get("retry-after-ms");
  if (ms) {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const header = get("retry-after");
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  if (Number.isFinite(date)) return Math.max(0, date - now);
  return undefined;
}

/** Backoff before attempt `attempt + 1` (attempt counts from 1). */
export function backoffDelay(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  const base = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  const spread = base * policy.jitter;
  return Math.max(0, Math.round(base - spread + random() * 2 * spread));
}

/**
 * Sleeps, waking early (with `cancelled`) when the run is aborted. Built on the core's
 * `deadlineSignal`, so the one timer primitive shared by the plugin and Node lives in one place.
 */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = deadlineSignal(createRunContext({ signal }), ms);
    const done = () => {
      timer.dispose();
      if (signal.aborted) reject(new SynapseError("cancelled", "The run was cancelled."));
      else resolve();
    };
    if (timer.signal.aborted) done();
    else timer.signal.addEventListener("abort", done, { once: true });
  });
}

/** The wait before the next attempt, or null when the error must be given up on. */
export function nextDelay(error: SynapseError, attempt: number, policy: RetryPolicy, run: RunContext): number | null {
  if (!error.isRetryable || attempt >= policy.maxAttempts || run.signal.aborted) return null;
  // The same request would take as long again: a timed-out attempt is never re-sent unchanged.
  if (isAttemptTimeout(error)) return null;
  const delay = error.retryAfterMs ?? backoffDelay(policy, attempt);
  if (error.retryAfterMs !== undefined && error.retryAfterMs > policy.maxRetryAfterMs) return null;
  // Sleeping into the deadline would only produce a request that cannot finish.
  if (delay >= remainingMs(run)) return null;
  return delay;
}

/**
 * Runs `attempt` until it succeeds, fails for good, or the policy runs out. `attempt` receives the
 * attempt number (from 1). Progress listeners hear about each wait.
 */
export async function withRetry<T>(policy: RetryPolicy, run: RunContext, attempt: (n: number) => Promise<T>): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (thrown) {
      const error = toSynapseError(thrown);
      const delay = nextDelay(error, n, policy, run);
      if (delay === null) throw error;
      run.progress?.({ type: "retry", attempt: n + 1, delayMs: delay, reason: error.kind });
      await sleep(delay, run.signal);
    }
  }
}
