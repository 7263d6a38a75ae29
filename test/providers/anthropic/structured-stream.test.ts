/**
 * Anthropic's structured calls stream (issue 23, "Time that fits a CPU"): the real SDK client
 * against Anthropic's server-sent events — a forced tool call's input in input_json_delta pieces,
 * message_delta with the stop reason and usage, pings, an `error` event mid-stream — so a reply is
 * timed by silence (to its first token, then between tokens), never by its length; a request that
 * ran out of time is not sent again unchanged and its tokens count as estimated; a reply cut at
 * max_tokens says so; a malformed one is a schema failure like on every backend.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as z from "zod";
import type { InferenceProvider } from "../../../src/core/provider";
import { createRunContext, type ProgressEvent, type RunContext } from "../../../src/core/run-context";
import { createProvider } from "../../../src/providers/factory";
import { SettingsSchema } from "../../../src/settings/schema";
import { eventually } from "../../helpers/eventually";
import { pacedFetch, type PacedFetch } from "../../helpers/paced-fetch";
import type { ScriptedServer } from "../../helpers/scripted-server";
import { ANALYSIS, REPLIES, content, envFor, failure, ingestRun, startServer, testSecrets } from "../harness";

const VERDICT = { name: "verdict", what: "the verdict", system: "Judge.", user: "Two pages.", schema: z.object({ same: z.boolean() }) };

/** A one-off structured request (lint's pair check), which every model-backed provider makes. */
function askVerdict(provider: InferenceProvider, run: RunContext): Promise<{ same: boolean }> {
  if (!provider.ask) throw new Error("The provider makes no one-off requests.");
  return provider.ask(VERDICT, run);
}

describe("Anthropic structured calls stream through the real SDK", () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startServer("anthropic");
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  const provider = (requestTimeoutSeconds = 5, profile: Record<string, unknown> = {}) => createProvider("anthropic", envFor("anthropic", server, { requestTimeoutSeconds, profile }));

  it("asks for a stream and reads the tool's input from its input_json_delta pieces", async () => {
    server.setScript([content(REPLIES.analysis, { input: 321, output: 45 })]);
    const run = ingestRun();
    const analysis = await provider().analyze("text", "", run);
    expect(analysis.title).toBe(ANALYSIS.title);
    const body = server.modelRequests()[0]!.body as Record<string, unknown>;
    expect(body.stream).toBe(true);
    expect(body.tool_choice).toEqual({ type: "tool", name: "submit" });
    // Usage from message_start (input) and message_delta (output), as reported, not estimated.
    expect(run.usage.totals()).toEqual({ inputTokens: 321, outputTokens: 45, calls: 1, estimatedCalls: 0 });
  });

  it("times a stream that went silent by the idle timeout, does not send it again, and counts its tokens as estimated", async () => {
    server.setScript([{ kind: "stall", text: '{"title": "Introduction to' }]);
    const run = ingestRun();
    const error = await failure(() => createProvider("anthropic", envFor("anthropic", server, { requestTimeoutSeconds: 0.5, firstTokenTimeoutSeconds: 30 })).analyze("text", "", run));
    expect(error.kind).toBe("timeout");
    expect(error.message).toMatch(/stopped sending its reply for 0\.5 s \(setting "Request timeout"\); it was not asked again/);
    expect(server.modelRequests()).toHaveLength(1);
    await eventually(() => expect(server.modelRequests()[0]!.aborted).toBe(true));
    expect(run.usage.totals()).toMatchObject({ calls: 1, estimatedCalls: 1 });
    expect(run.usage.totals().inputTokens).toBeGreaterThan(0);
  });

  it("cancels mid-stream and closes the connection", async () => {
    server.setScript([{ kind: "stall", text: '{"title": "Introduction to' }]);
    const controller = new AbortController();
    const events: ProgressEvent[] = [];
    const run = ingestRun({ signal: controller.signal, progress: (e) => events.push(e) });
    const pending = provider(30).analyze("text", "", run);
    pending.catch(() => undefined);
    await eventually(() => expect(server.modelRequests()).toHaveLength(1));
    controller.abort();
    const error = await failure(() => pending);
    expect(error.kind).toBe("cancelled");
    await eventually(() => expect(server.modelRequests()[0]!.aborted).toBe(true));
    expect(server.modelRequests()).toHaveLength(1);
    expect(run.usage.totals().estimatedCalls).toBe(1);
  });

  it("reports a stream cut off at max_tokens as stopped at the output limit", async () => {
    server.setScript([{ kind: "content", text: '{"same": tr', finish: "length" }]);
    const error = await failure(() => askVerdict(provider(), createRunContext({ maxOutputTokens: 300 })));
    expect(error.kind).toBe("schema");
    expect(error.message).toMatch(/^The Anthropic reply for the verdict stopped at the 300-token output limit before it was complete; nothing from it is used\./);
    expect(server.modelRequests()).toHaveLength(1);
  });

  it("reports text cut off at max_tokens (output_config) the same way", async () => {
    server.setScript([{ kind: "content", text: '{"same": tr', finish: "length" }]);
    const error = await failure(() => askVerdict(provider(5, { structuredOutput: "json_schema" }), createRunContext({ maxOutputTokens: 300 })));
    expect(error.message).toMatch(/stopped at the 300-token output limit/);
    expect((server.modelRequests()[0]!.body as Record<string, unknown>).output_config).toBeDefined();
  });

  it("treats a tool input that is not valid JSON as a schema failure, not a broken stream", async () => {
    server.setScript([{ kind: "content", text: '{"same": yes please}' }]);
    const error = await failure(() => askVerdict(provider(), createRunContext()));
    expect(error.kind).toBe("schema");
    expect(error.message).toMatch(/The Anthropic reply for the verdict/);
  });

  it("treats an error event mid-stream as the API's error (overloaded is retried)", async () => {
    server.setScript([{ kind: "stream-error", text: '{"same": ', message: "Overloaded" }, content('{"same": true}')]);
    const verdict = await askVerdict(provider(), createRunContext());
    expect(verdict).toEqual({ same: true });
    expect(server.modelRequests()).toHaveLength(2);
  });

  it("reports a stream that ends without message_stop as a transport failure", async () => {
    server.setScript([{ kind: "cut", text: '{"same": true}', afterChars: 5 }]);
    const error = await failure(() => askVerdict(createProvider("anthropic", envFor("anthropic", server, { retry: { maxAttempts: 1 } })), createRunContext()));
    expect(error.kind).toBe("transport");
  });
});

/** The pages fixture with its first page's body grown to about 1,000 tokens. */
function thousandTokenPages(): string {
  const reply = JSON.parse(REPLIES.pages) as { pages: { content: string }[] };
  const first = reply.pages[0]!;
  first.content += " More about views and their properties.".repeat(Math.ceil((4000 - REPLIES.pages.length) / 39));
  return JSON.stringify(reply);
}

describe("a slow Anthropic stream that keeps sending (virtual time)", () => {
  const providerOver = (fetch: PacedFetch["fetch"]) => {
    // Only the backend and its address: every timeout is the default (120 s between tokens).
    const settings = SettingsSchema.parse({ operations: { ingest: "anthropic", query: "anthropic", lint: "anthropic" }, profiles: { anthropic: { baseUrl: "https://api.anthropic.com", model: "claude-haiku-4-5" } } });
    return { settings, provider: createProvider("anthropic", { settings, secrets: testSecrets(), fetch, streamingFetch: fetch }) };
  };
  beforeAll(async () => {
    // The SDK is loaded on the first request, from disk: on the real clock, before the fake one starts.
    await providerOver(pacedFetch({ protocol: "anthropic", text: REPLIES.pages, firstMs: 0, tokensPerSecond: 100_000 }).fetch).provider.generate({ analysis: ANALYSIS, note: "Bases.", related: "" }, createRunContext({}));
  });
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("completes a 1,000-token reply at 5 tokens/s, far past the 120 s request timeout, sent once, showing its pace", async () => {
    const text = thousandTokenPages();
    const paced = pacedFetch({ protocol: "anthropic", text, firstMs: 10_000, tokensPerSecond: 5 });
    const { settings, provider } = providerOver(paced.fetch);
    const events: ProgressEvent[] = [];
    const run = createRunContext({ timeoutMs: settings.runTimeoutSeconds * 1000, progress: (e) => events.push(e) });
    const started = Date.now();
    const pending = provider.generate({ analysis: ANALYSIS, note: "Bases shows notes as tables.", related: "" }, run);
    pending.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(400_000);
    const pages = await pending;
    expect(pages[0]!.content.length).toBeGreaterThan(3000);
    expect(paced.requests).toHaveLength(1);
    expect(paced.aborted()).toBe(0);
    expect(Date.now() - started).toBeGreaterThan(200_000);
    expect(events).toContainEqual(expect.objectContaining({ type: "activity", message: expect.stringMatching(/^Anthropic is writing: \d+ tokens so far, [\d.]+ tokens\/s\.$/) as string }));
  });
});
