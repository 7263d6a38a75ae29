/**
 * "A 1,000-token reply at 5 tokens per second completes with the default settings": the page-writing
 * step against a local server on a CPU — a minute reading the prompt, then 200 s of writing —
 * through the real SDKs, on a fake clock (paced-fetch.ts), so the idle timeouts see each token
 * arrive without the test waiting minutes. Streaming is what makes it pass: a reply asked for whole
 * would have met the 120 s request timeout long before it was written.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createRunContext } from "../../src/core/run-context";
import { createProvider } from "../../src/providers/factory";
import { SettingsSchema } from "../../src/settings/schema";
import { pacedFetch, type PacedFetch } from "../helpers/paced-fetch";
import { ANALYSIS, REPLIES, testSecrets } from "./harness";

/** The pages fixture with its first page's body grown to bring the reply to about 1,000 tokens. */
function thousandTokenPages(): string {
  const reply = JSON.parse(REPLIES.pages) as { pages: { content: string }[] };
  const first = reply.pages[0]!;
  const grown = JSON.stringify(reply);
  first.content += " More about views and their properties.".repeat(Math.ceil((4000 - grown.length) / 39));
  return JSON.stringify(reply);
}

const PROFILES = {
  ollama: { ollama: { host: "http://127.0.0.1:11434", model: "qwen2.5:7b" } },
  openai: { openai: { preset: "custom", baseUrl: "http://127.0.0.1:8080/v1", model: "qwen2.5-7b-instruct" } },
} as const;

function providerOver(protocol: "ollama" | "openai", fetch: PacedFetch["fetch"]) {
  // Nothing but the backend and its address: every timeout is the default one.
  const settings = SettingsSchema.parse({ operations: { ingest: protocol, query: protocol, lint: protocol }, profiles: PROFILES[protocol] });
  return { settings, provider: createProvider(protocol, { settings, secrets: testSecrets(null), fetch, streamingFetch: fetch }) };
}

describe.each(["ollama", "openai"] as const)("a 1,000-token reply at 5 tokens/s (%s)", (protocol) => {
  beforeAll(async () => {
    // The SDK is loaded on the first request, from disk: on the real clock, before the fake one starts.
    const { provider } = providerOver(protocol, pacedFetch({ protocol, text: REPLIES.pages, firstMs: 0, tokensPerSecond: 100_000 }).fetch);
    await provider.generate({ analysis: ANALYSIS, note: "Bases.", related: "" }, createRunContext({}));
  });
  beforeEach(() => {
    // Only the clock and its timers: the streams of fetch's Response run on the real event loop.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("completes with the default settings, sent once, after a minute reading the prompt", async () => {
    const text = thousandTokenPages();
    expect(Math.round(text.length / 4)).toBeGreaterThanOrEqual(1000);
    const server = pacedFetch({ protocol, text, firstMs: 60_000, tokensPerSecond: 5 });
    const { settings, provider } = providerOver(protocol, server.fetch);
    const run = createRunContext({ timeoutMs: settings.runTimeoutSeconds * 1000 });
    const started = Date.now();
    const pending = provider.generate({ analysis: ANALYSIS, note: "Bases shows notes as tables.", related: "" }, run);
    pending.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(400_000);
    const pages = await pending;
    expect(pages[0]!.content.length).toBeGreaterThan(3000);
    expect(server.requests).toHaveLength(1);
    expect(server.aborted()).toBe(0);
    // Well past the 120 s request timeout in all, on the virtual clock.
    expect(Date.now() - started).toBeGreaterThan(250_000);
  });
});
