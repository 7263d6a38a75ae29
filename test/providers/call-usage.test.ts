/**
 * A request that never returned usage — cancelled or timed out while the server read the prompt —
 * still counts in the run's usage: its prompt tokens estimated, and flagged as estimated.
 */
import { describe, expect, it } from "vitest";
import { SynapseError } from "../../src/core/errors";
import { createRunContext } from "../../src/core/run-context";
import { callConfig, callWithPolicy, estimateTokens, streamWithPolicy, type StreamPart } from "../../src/providers/call";
import { resolveRetryPolicy } from "../../src/providers/retry";

const config = callConfig("ollama", "Ollama", { model: "qwen3:8b", requestTimeoutMs: 600_000, retry: resolveRetryPolicy({ maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1, jitter: 0 }) });
const PROMPT = "user: Summarise this note about bees and their dances. ".repeat(40);

/** A server that reads the prompt until the request is aborted, and tells when it started. */
function hangingUntilAborted(started: () => void) {
  return (signal: AbortSignal) =>
    new Promise<never>((_resolve, reject) => {
      started();
      signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true });
    });
}

describe("usage of a request that never returned usage", () => {
  it("a cancelled request is recorded with its prompt tokens, estimated", async () => {
    const user = new AbortController();
    const run = createRunContext({ signal: user.signal });
    const call = callWithPolicy(config, run, {
      operation: "generate",
      prompt: PROMPT,
      send: hangingUntilAborted(() => user.abort()),
      interpret: (raw: unknown) => raw,
      mapError: (e) => (SynapseError.isInstance(e) ? e : new SynapseError("transport", String(e))),
    });
    await expect(call).rejects.toMatchObject({ kind: "cancelled" });
    expect(run.usage.entries).toEqual([{ provider: "ollama", model: "qwen3:8b", operation: "generate", inputTokens: estimateTokens(PROMPT), outputTokens: 0, estimated: true }]);
    expect(run.usage.totals()).toMatchObject({ inputTokens: estimateTokens(PROMPT), calls: 1, estimatedCalls: 1 });
  });

  it("a cancelled stream is recorded too; a reply with usage is counted as reported, not estimated", async () => {
    const user = new AbortController();
    const run = createRunContext({ signal: user.signal });
    async function* parts(): AsyncGenerator<StreamPart> {
      yield { type: "text", text: "Bees dance" };
      user.abort();
      await new Promise(() => undefined);
    }
    const seen: string[] = [];
    const stream = async () => {
      for await (const piece of streamWithPolicy(config, run, { prompt: PROMPT, open: () => parts(), mapError: (e) => new SynapseError("transport", String(e)) })) seen.push(piece);
    };
    await expect(stream()).rejects.toMatchObject({ kind: "cancelled" });
    expect(run.usage.entries).toEqual([{ provider: "ollama", model: "qwen3:8b", operation: "chat", inputTokens: estimateTokens(PROMPT), outputTokens: estimateTokens("Bees dance"), estimated: true }]);

    const done = createRunContext({});
    await callWithPolicy(config, done, { operation: "generate", prompt: PROMPT, send: () => Promise.resolve({ raw: "ok", usage: { inputTokens: 700, outputTokens: 9 } }), interpret: (raw: string) => raw, mapError: (e) => new SynapseError("transport", String(e)) });
    expect(done.usage.entries).toEqual([{ provider: "ollama", model: "qwen3:8b", operation: "generate", inputTokens: 700, outputTokens: 9 }]);
  });
});
