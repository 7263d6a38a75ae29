import { describe, expect, it } from "vitest";
import { SynapseError } from "../../src/core/errors";
import { createRunContext } from "../../src/core/run-context";
import { attemptTimeoutError } from "../../src/providers/attempt-timer";
import { backoffDelay, nextDelay, parseRetryAfter, resolveRetryPolicy, sleep, withRetry } from "../../src/providers/retry";

const headers = (h: Record<string, string>) => (name: string) => h[name] ?? null;

describe("retry policy", () => {
  it("reads retry-after-ms, retry-after seconds and HTTP dates", () => {
    expect(parseRetryAfter(headers({ "retry-after-ms": "250" }))).toBe(250);
    expect(parseRetryAfter(headers({ "retry-after": "2" }))).toBe(2000);
    expect(parseRetryAfter(headers({ "retry-after": "Thu, 01 Jan 1970 00:00:10 GMT" }), 4_000)).toBe(6_000);
    expect(parseRetryAfter(headers({ "retry-after": "soon" }))).toBeUndefined();
    expect(parseRetryAfter(headers({}))).toBeUndefined();
  });

  it("backs off exponentially up to the cap, with bounded jitter", () => {
    const policy = resolveRetryPolicy({ baseDelayMs: 100, maxDelayMs: 1000, jitter: 0 });
    expect([1, 2, 3, 4, 5].map((n) => backoffDelay(policy, n))).toEqual([100, 200, 400, 800, 1000]);
    const jittery = resolveRetryPolicy({ baseDelayMs: 100, jitter: 0.25 });
    expect(backoffDelay(jittery, 1, () => 0)).toBe(75);
    expect(backoffDelay(jittery, 1, () => 1)).toBe(125);
  });

  it("bounds attempts even when asked for more", () => {
    expect(resolveRetryPolicy({ maxAttempts: 1000 }).maxAttempts).toBe(10);
    expect(resolveRetryPolicy({ maxAttempts: 0 }).maxAttempts).toBe(1);
  });

  it("retries only transient failures and never past the deadline", () => {
    const policy = resolveRetryPolicy({ maxAttempts: 3, baseDelayMs: 10, jitter: 0 });
    // A frozen clock: the deadline stays 1 s away however slow the machine is.
    const run = createRunContext({ timeoutMs: 1_000, now: () => 0 });
    expect(nextDelay(new SynapseError("transport", "x"), 1, policy, run)).toBe(10);
    expect(nextDelay(new SynapseError("rate_limit", "x", { retryAfterMs: 300 }), 1, policy, run)).toBe(300);
    expect(nextDelay(new SynapseError("transport", "x"), 3, policy, run)).toBeNull();
    for (const kind of ["schema", "refusal", "request", "unavailable", "cancelled", "config"] as const) {
      expect(nextDelay(new SynapseError(kind, "x"), 1, policy, run)).toBeNull();
    }
    expect(nextDelay(new SynapseError("rate_limit", "x", { retryAfterMs: 5_000 }), 1, policy, run)).toBeNull();
  });

  it("never retries an attempt that ran out of its own time, though other timeouts are transient", () => {
    const policy = resolveRetryPolicy({ baseDelayMs: 10, jitter: 0 });
    const run = createRunContext();
    expect(nextDelay(attemptTimeoutError("Ollama sent nothing within 300 s."), 1, policy, run)).toBeNull();
    expect(nextDelay(new SynapseError("timeout", "The server timed out (408)."), 1, policy, run)).toBe(10);
  });

  it("does not retry once the run is cancelled, and wakes a sleep on cancel", async () => {
    const controller = new AbortController();
    const run = createRunContext({ signal: controller.signal });
    let calls = 0;
    const promise = withRetry(resolveRetryPolicy({ maxAttempts: 5, baseDelayMs: 10_000, jitter: 0 }), run, () => {
      calls += 1;
      return Promise.reject(new SynapseError("transport", "down"));
    });
    setTimeout(() => controller.abort(), 20);
    await expect(promise).rejects.toMatchObject({ kind: "cancelled" });
    expect(calls).toBe(1);
    await expect(sleep(5, new AbortController().signal)).resolves.toBeUndefined();
  });
});
