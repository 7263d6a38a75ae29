/**
 * The time limits of one attempt, on a fake clock (no test here waits on the machine): a streamed
 * reply is timed by silence — to its first piece, then between pieces — never by its length, and an
 * attempt that ran out of time is not sent again.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createRunContext, type ProgressEvent } from "../../src/core/run-context";
import { SynapseError } from "../../src/core/errors";
import { callConfig, callWithPolicy, streamWithPolicy, type StreamPart } from "../../src/providers/call";
import { requestTimeoutMs, firstTokenTimeoutMs } from "../../src/providers/factory";
import { resolveRetryPolicy } from "../../src/providers/retry";
import { DEFAULT_SETTINGS } from "../../src/settings/schema";

/** The facade as the factory configures it with the default settings. */
const config = callConfig("ollama", "Ollama", {
  model: "qwen2.5:7b",
  requestTimeoutMs: requestTimeoutMs(DEFAULT_SETTINGS),
  firstTokenTimeoutMs: firstTokenTimeoutMs(DEFAULT_SETTINGS),
  retry: resolveRetryPolicy({ maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 1, jitter: 0 }),
});

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A model on a CPU: `evalMs` reading the prompt, then `tokens` tokens at `perSecond`. */
function slowModel(evalMs: number, tokens: number, perSecond: number, pauseAt?: { readonly token: number; readonly ms: number }) {
  let sends = 0;
  const send = async (signal: AbortSignal, received: (piece: string) => void) => {
    sends++;
    await wait(evalMs);
    let text = "";
    for (let i = 0; i < tokens; i++) {
      if (signal.aborted) throw new Error("aborted");
      await wait(pauseAt?.token === i ? pauseAt.ms : 1000 / perSecond);
      received("tok ");
      text += "tok ";
    }
    return { raw: text, usage: { inputTokens: 500, outputTokens: tokens } };
  };
  return { send, sends: () => sends };
}

async function settle<T>(pending: Promise<T>, ms: number): Promise<T> {
  pending.catch(() => undefined);
  await vi.advanceTimersByTimeAsync(ms);
  return pending;
}

describe("an attempt's time limits", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("lets a 1,000-token reply at 5 tokens/s finish with the default settings, after a minute reading the prompt", async () => {
    const model = slowModel(60_000, 1000, 5);
    const progress: ProgressEvent[] = [];
    const run = createRunContext({ progress: (e) => progress.push(e) });
    const text = await settle(callWithPolicy(config, run, { operation: "generate", prompt: "", streamed: true, send: model.send, interpret: (raw) => raw, mapError: (e) => new SynapseError("transport", String(e)) }), 300_000);
    // 260 s in all: more than twice the request timeout, and never cut.
    expect(text).toHaveLength(4000);
    expect(model.sends()).toBe(1);
    // The user sees it working: tokens so far and the pace.
    const paces = progress.flatMap((e) => (e.type === "activity" && e.tokens ? [e.tokens] : []));
    expect(paces.length).toBeGreaterThan(10);
    expect(paces.at(-1)!.output).toBeGreaterThan(900);
    expect(paces.at(-1)!.perSecond).toBeCloseTo(5, 0);
  });

  it("times out a reply that stops arriving, names the setting, and does not send it again", async () => {
    const model = slowModel(1_000, 50, 5, { token: 20, ms: 200_000 });
    const run = createRunContext();
    const error = await settle(callWithPolicy(config, run, { operation: "generate", prompt: "", streamed: true, send: model.send, interpret: (raw) => raw, mapError: (e) => new SynapseError("transport", String(e)) }), 400_000).then(
      () => null,
      (e: unknown) => e as SynapseError,
    );
    expect(error?.kind).toBe("timeout");
    expect(error?.message).toMatch(/stopped sending its reply for 120 s \(setting "Request timeout"\); it was not asked again/);
    expect(model.sends()).toBe(1);
  });

  it("times out a first token that never comes after the first-token limit, not the request timeout", async () => {
    const model = slowModel(400_000, 10, 5);
    const run = createRunContext();
    const pending = callWithPolicy(config, run, { operation: "analyze", prompt: "", streamed: true, send: model.send, interpret: (raw) => raw, mapError: (e) => new SynapseError("transport", String(e)) });
    pending.catch(() => undefined);
    // Past the request timeout, still waiting for the first token.
    await vi.advanceTimersByTimeAsync(200_000);
    expect(model.sends()).toBe(1);
    const error = await settle(pending, 150_000).then(
      () => null,
      (e: unknown) => e as SynapseError,
    );
    expect(error?.message).toMatch(/sent nothing within 300 s \(setting "First token timeout"\)/);
    expect(model.sends()).toBe(1);
  });

  it("keeps a streamed answer going while tokens arrive, however long it takes in all", async () => {
    async function* answer(): AsyncGenerator<StreamPart> {
      await wait(30_000);
      for (let i = 0; i < 400; i++) {
        await wait(500);
        yield { type: "text", text: "word " };
      }
    }
    const run = createRunContext();
    const collected = (async () => {
      let text = "";
      for await (const part of streamWithPolicy(config, run, { prompt: "", open: () => answer(), mapError: (e) => new SynapseError("transport", String(e)) })) text += part;
      return text;
    })();
    expect(await settle(collected, 300_000)).toHaveLength(2000);
  });
});
