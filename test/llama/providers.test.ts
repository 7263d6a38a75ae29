/**
 * Synapse's own providers (the real `ollama` and `openai` clients) against the real llama.cpp
 * runtime: a structured call streams and keeps to its output budget, the idle timeout fires when
 * the server stalls mid-reply, a cancel stops the generation on the server, and a prompt too long
 * for llama-server's window is refused with advice. Random weights write valid JSON with nonsense
 * in it: each call ends with a validated reply or a clear SynapseError, never anything else.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SynapseError } from "../../src/core/errors";
import type { InferenceProvider } from "../../src/core/provider";
import { createRunContext } from "../../src/core/run-context";
import { pairRequest } from "../../src/lint/pair-prompt";
import type { PageRecord } from "../../src/lint/snapshot";
import type { ProviderEnvironment } from "../../src/providers/environment";
import { createProvider } from "../../src/providers/factory";
import { eventually } from "../helpers/eventually";
import { FAST_RETRY, collect, nodeFetch, noteText, settingsFor, testSecrets, type SettingsPatch } from "../providers/harness";
import { MODEL_NAME, startLlamaServer, type LlamaServer } from "./llama-server";
import { loadRuntime, skipNotice } from "./runtime";

const runtime = await loadRuntime();
const notice = skipNotice(runtime);
if (notice) console.log(notice);

type Protocol = "ollama" | "openai";

const page = (title: string, body: string): PageRecord =>
  ({ path: `wiki/${title}.md`, text: body, frontmatter: {}, frontmatterInvalid: false, hasFrontmatter: false, body, title, aliases: [], type: "concept", sources: [], links: [] }) as unknown as PageRecord;

function providerOn(protocol: Protocol, server: LlamaServer, patch: SettingsPatch = {}): InferenceProvider {
  const env: ProviderEnvironment = {
    settings: settingsFor(protocol, server.url, { model: MODEL_NAME, requestTimeoutSeconds: 60, firstTokenTimeoutSeconds: 120, ...patch }),
    secrets: testSecrets(),
    fetch: nodeFetch,
    streamingFetch: nodeFetch,
    retry: FAST_RETRY,
  };
  return createProvider(protocol, env);
}

/** What a call ended with: a value, or a SynapseError (anything else fails the test). */
async function outcome<T>(call: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: SynapseError }> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    if (!SynapseError.isInstance(error)) throw error;
    return { ok: false, error };
  }
}

describe.skipIf(!runtime.ok).each(["ollama", "openai"] as const)("Synapse's %s provider on the real llama.cpp runtime", (protocol) => {
  let server: LlamaServer;
  beforeAll(async () => {
    if (!runtime.ok) return;
    server = await startLlamaServer(runtime);
  });
  afterAll(() => server?.close());
  beforeEach(() => server.reset());

  it("streams a structured call held to its output budget, and ends with a validated reply or a clear error", async () => {
    const provider = providerOn(protocol, server, { profile: { maxTokens: 40 } });
    const run = createRunContext({ timeoutMs: 120_000 });
    const result = await outcome(() => provider.ask!(pairRequest(page("A", "Ada wrote a program."), page("B", "Ada wrote no program.")), run));
    const calls = server.modelCalls();
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) {
      const body = call.body as { stream?: boolean; format?: unknown; response_format?: unknown; options?: { num_predict?: number }; max_tokens?: number };
      if (protocol === "ollama") {
        // Streamed with the schema: the reply arrives token by token.
        expect(body.stream).not.toBe(false);
        expect(body.format).toBeTypeOf("object");
        expect(call.chunksSent).toBeGreaterThan(1);
      } else {
        expect(body.response_format).toMatchObject({ type: "json_schema" });
      }
      const budget = protocol === "ollama" ? body.options?.num_predict : body.max_tokens;
      expect(budget).toBeGreaterThan(0);
      expect(call.grammarError).toBeUndefined();
      expect(call.generation!.outputTokens).toBeGreaterThan(1);
      expect(call.generation!.outputTokens).toBeLessThanOrEqual(budget!);
    }
    if (result.ok) expect(typeof result.value.duplicate).toBe("boolean");
    else expect(result.error.message).toMatch(/\w.*\.$/);
  });

  it("analyses a real note: valid JSON from random weights is validated or refused with a clear error", async () => {
    const provider = providerOn(protocol, server, { profile: { maxTokens: 300 } });
    const run = createRunContext({ timeoutMs: 300_000 });
    const result = await outcome(() => provider.analyze(noteText(), "", run));
    for (const call of server.modelCalls()) expect(call.grammarError).toBeUndefined();
    if (!result.ok) expect(result.error.message).toMatch(/\w.*\.$/);
    // Every reply kept to the budget it was sent, and a raised budget was a new request.
    for (const call of server.modelCalls()) {
      const body = call.body as { options?: { num_predict?: number }; max_tokens?: number };
      expect(call.generation!.outputTokens).toBeLessThanOrEqual((protocol === "ollama" ? body.options?.num_predict : body.max_tokens) ?? Infinity);
    }
  });

  it("fires the idle timeout when the server stalls mid-reply, and the request is not re-sent unchanged", async () => {
    const provider = providerOn(protocol, server, { requestTimeoutSeconds: 1, firstTokenTimeoutSeconds: 120 });
    server.stallNext(3);
    const run = createRunContext({ timeoutMs: 120_000 });
    const result = await outcome(() => provider.ask!(pairRequest(page("A", "One."), page("B", "Two.")), run));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.kind).toBe("timeout");
    expect(result.error.message).toMatch(/\w.*\.$/);
    const calls = server.modelCalls();
    expect(calls[0]!.stalled).toBe(true);
    await eventually(() => expect(calls[0]!.clientGone).toBe(true));
    // A request that timed out is never sent again unchanged.
    const bodies = calls.map((c) => JSON.stringify(c.body));
    expect(new Set(bodies).size).toBe(bodies.length);
  });

  it("packs a note longer than the server's window into it, by the real tokenizer's count: nothing generated from a cut prompt", async () => {
    const provider = providerOn(protocol, server);
    const run = createRunContext({ timeoutMs: 240_000 });
    const long = Array.from({ length: 400 }, (_, i) => `Ada wrote program ${i} for the Analytical Engine, and Babbage read it.`).join("\n\n");
    const result = await outcome(() => provider.analyze(long, "", run));
    const generated = server.modelCalls().filter((call) => call.generation);
    expect(generated.length).toBeGreaterThan(0);
    // The note went in parts, and the prompt said so.
    expect(JSON.stringify(generated.at(-1)!.body)).toContain("shown in parts");
    if (result.ok || result.error.kind !== "context") {
      // A reply was read: from a prompt the server did not cut, and never refused for the window.
      expect(generated.at(-1)!.generation!.promptCut).toBe(false);
      if (!result.ok) expect(result.error.kind, result.error.message).not.toBe("capability");
      return;
    }
    // This tokenizer counts far more than the estimate: llama-server's refusal names its count and
    // the note is packed again by it, but Ollama cuts silently, and a prompt that filled the
    // largest window allowed is the failure (its reply is never used), not sent again.
    expect(protocol, result.error.message).toBe("ollama");
    expect(result.error.message).toMatch(/cut the start of the prompt/);
  });

  it("refuses, with advice and before any generation, a prompt whose fixed part the window cannot hold", async () => {
    const provider = providerOn(protocol, server);
    const run = createRunContext({ timeoutMs: 120_000 });
    const wiki = "Ada wrote the first program for the Analytical Engine. ".repeat(900);
    const result = await outcome(() => provider.analyze("A short note.", wiki, run));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.message).toMatch(/context|window/i);
    expect(result.error.message).toMatch(/\w.*\.$/);
    // Nothing was generated from a cut or refused prompt.
    for (const call of server.modelCalls()) expect(call.generation?.promptCut ?? false).toBe(false);
  });

  it("cancel stops the generation on the server", async () => {
    const provider = providerOn(protocol, server, { profile: { maxTokens: 2000 } });
    const controller = new AbortController();
    const run = createRunContext({ signal: controller.signal, timeoutMs: 120_000 });
    server.endlessNext();
    const answer = collect(provider.chat([{ role: "user", content: "Tell me about Ada." }], "Ada wrote a program.", run));
    await eventually(() => expect(server.modelCalls()[0]?.chunksSent ?? 0).toBeGreaterThan(2));
    controller.abort();
    const result = await outcome(() => answer);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.kind).toBe("cancelled");
    const call = server.modelCalls()[0]!;
    await eventually(() => expect(call.generation?.stop).toBe("abort"));
    expect(call.clientGone).toBe(true);
    expect(call.generation!.outputTokens).toBeLessThan(2000);
  });
});
