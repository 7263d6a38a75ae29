/**
 * Windows sized from what the server counted: scripted servers that count a note at 1.6× Synapse's
 * estimate (a dense script, a code-heavy note). The count each reply reports sizes and packs the
 * next requests; a prompt Ollama cut is sent once more, packed again by what it counted (in the
 * largest window allowed), never unchanged; a
 * local OpenAI-compatible server's refusal that names its count is packed again by it, once.
 */
import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { orchestrate, type OrchestratorOptions } from "../../src/core/orchestrator";
import { createProvider } from "../../src/providers/factory";
import { startScriptedServer, type RecordedRequest, type Reply, type ScriptedServer } from "../helpers/scripted-server";
import { promptTokensOf, type LocalOpenAIServer } from "../helpers/scripted-server-openai-local";
import { NOTE_PATH, REPLIES, SERVER_MODELS, content, envFor, failure, ingestRun, noteText } from "./harness";

const OPTIONS: OrchestratorOptions = { maxIter: 3, tokenBudget: 0, retrievalContext: "", vaultContext: "" };
/** The server counts a token per 1.875 characters: 1.6× the client's chars/3. */
const DENSE = 3 / 1.6;

/** A real note, repeated to `chars` characters. */
function note(chars: number): string {
  const text = noteText();
  return text.repeat(Math.ceil(chars / text.length)).slice(0, chars);
}

/** The analysis for an analysis request, the pages for a pages request: a re-send gets the same reply. */
const VALID = (request: RecordedRequest): Reply => {
  const system = (request.body as { messages?: { content?: string }[] }).messages?.[0]?.content ?? "";
  return content(system.startsWith("You analyse") ? REPLIES.analysis : REPLIES.pages);
};

interface OllamaBody {
  readonly options?: { readonly num_ctx?: number; readonly num_predict?: number };
}
const optionsOf = (body: unknown) => (body as OllamaBody).options ?? {};
const userOf = (request: RecordedRequest) => (request.body as { messages: { content: string }[] }).messages[1]!.content;

let server: ScriptedServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe("Ollama, counting 1.6× the estimate", () => {
  it("sends a prompt it cut once more in the largest window allowed, and sizes the next request by the count so it is not cut", async () => {
    server = await startScriptedServer({ protocol: "ollama", script: VALID, models: SERVER_MODELS.ollama, charsPerToken: DENSE });
    const run = ingestRun({ source: { path: NOTE_PATH, text: note(9_000) } });
    const result = await orchestrate(createProvider("ollama", envFor("ollama", server)), OPTIONS, run);
    expect(result.error).toBeNull();
    expect(result.converged).toBe(true);
    const [cut, again, pages, ...rest] = server.modelRequests();
    expect(rest).toHaveLength(0);
    expect(cut!.promptCut).toBe(true);
    expect(again!.promptCut).toBe(false);
    // Not the same request: the whole window the setting allows.
    expect(optionsOf(again!.body).num_ctx).toBe(8192);
    expect(optionsOf(again!.body).num_ctx).toBeGreaterThan(optionsOf(cut!.body).num_ctx!);
    expect(pages!.promptCut).toBe(false);
    expect(optionsOf(pages!.body).num_ctx).toBeGreaterThanOrEqual(pages!.promptTokens! + optionsOf(pages!.body).num_predict!);
  });

  it("keeps the count for the session: the next ingest's first request is not cut", async () => {
    server = await startScriptedServer({ protocol: "ollama", script: VALID, models: SERVER_MODELS.ollama, charsPerToken: DENSE });
    for (let i = 0; i < 2; i++) {
      const run = ingestRun({ source: { path: NOTE_PATH, text: note(9_000) } });
      const result = await orchestrate(createProvider("ollama", envFor("ollama", server)), OPTIONS, run);
      expect(result.converged).toBe(true);
    }
    const calls = server.modelRequests();
    expect(calls).toHaveLength(5);
    expect(calls.slice(1).map((c) => c.promptCut)).toEqual([false, false, false, false]);
  });

  it("packs the note again by the count when the window asked for was already the largest allowed, and sends it once more in it: never the same prompt", async () => {
    server = await startScriptedServer({ protocol: "ollama", script: VALID, models: SERVER_MODELS.ollama, charsPerToken: DENSE });
    const run = ingestRun({ source: { path: NOTE_PATH, text: note(20_000) } });
    const result = await orchestrate(createProvider("ollama", envFor("ollama", server, { profile: { contextWindow: 4096 } })), OPTIONS, run);
    expect(result.error).toBeNull();
    expect(result.converged).toBe(true);
    const [cut, again, pages, ...rest] = server.modelRequests();
    expect(rest).toHaveLength(0);
    expect(cut!.promptCut).toBe(true);
    expect(again!.promptCut).toBe(false);
    expect(optionsOf(cut!.body).num_ctx).toBe(4096);
    expect(optionsOf(again!.body).num_ctx).toBe(4096);
    // Packed again in fewer parts: a shorter prompt, not the one that was cut.
    expect(userOf(again!)).toContain('shown in parts: "[…]" marks what was left out');
    expect(userOf(again!).length).toBeLessThan(userOf(cut!).length);
    expect(again!.promptTokens! + optionsOf(again!.body).num_predict!).toBeLessThanOrEqual(4096);
    expect(pages!.promptCut).toBe(false);
  });

  it("a prompt cut again after it was packed again is the failure, naming \"Context window\"; nothing more is sent", async () => {
    // A token per character: 3× the estimate, more than the margin learned from the first cut.
    server = await startScriptedServer({ protocol: "ollama", script: VALID, models: SERVER_MODELS.ollama, charsPerToken: 1 });
    const run = ingestRun({ source: { path: NOTE_PATH, text: note(20_000) } });
    const result = await orchestrate(createProvider("ollama", envFor("ollama", server, { profile: { contextWindow: 4096 } })), OPTIONS, run);
    expect(result.error?.kind).toBe("context");
    expect(result.error?.message).toMatch(/the whole 4096-token window asked for.*Raise "Context window" under Local: Ollama/);
    const calls = server.modelRequests();
    expect(calls).toHaveLength(2);
    expect(calls.map((c) => c.promptCut)).toEqual([true, true]);
    expect(userOf(calls[1]!).length).toBeLessThan(userOf(calls[0]!).length);
    expect(result.attempts).toEqual({ analyze: 1, generate: 0 });
  });

  it("does not send a prompt that cannot be packed again in the same window: the cut is the failure, with its advice", async () => {
    server = await startScriptedServer({ protocol: "ollama", script: () => content('{"same":true}'), models: SERVER_MODELS.ollama, charsPerToken: DENSE });
    const provider = createProvider("ollama", envFor("ollama", server, { profile: { contextWindow: 4096 } }));
    const ask = { system: "Say whether the two pages are the same.", user: "The Analytical Engine. ".repeat(390), schema: z.object({ same: z.boolean() }), name: "pair_verdict", what: "the pair verdict" };
    const error = await failure(() => provider.ask!(ask, ingestRun()));
    expect(error.kind).toBe("context");
    expect(error.message).toMatch(/the whole 4096-token window asked for.*Raise "Context window" under Local: Ollama/);
    expect(server.modelRequests()).toHaveLength(1);
    expect(server.modelRequests()[0]!.promptCut).toBe(true);
  });
});

describe.each(["llama-server", "vllm"] as const)("%s with a 4,096-token window, counting 1.6× the estimate", (kind) => {
  const local: LocalOpenAIServer = { kind, contextSize: 4096, charsPerToken: DENSE };
  const MODEL = "qwen2.5-7b-instruct";

  it("a 5,000-token note ingests: the refusal that names the count is packed again by it, once, and the pages fit", async () => {
    server = await startScriptedServer({ protocol: "openai", script: VALID, models: [{ name: MODEL }], localServer: local });
    const run = ingestRun({ source: { path: NOTE_PATH, text: note(20_000) } });
    const result = await orchestrate(createProvider("openai", envFor("openai", server, { model: MODEL })), OPTIONS, run);
    expect(result.error).toBeNull();
    expect(result.converged).toBe(true);
    const [refused, ...sent] = server.modelRequests();
    expect(sent).toHaveLength(2);
    const maxTokens = (body: unknown) => (body as { max_tokens: number }).max_tokens;
    expect(promptTokensOf(refused!, DENSE) + (kind === "vllm" ? maxTokens(refused!.body) : 0)).toBeGreaterThan(4096);
    for (const call of sent) expect(promptTokensOf(call, DENSE) + maxTokens(call.body)).toBeLessThanOrEqual(4096);
  });
});

describe("llama-server reporting usage.prompt_tokens", () => {
  it("sizes the next request's max_tokens by the count, so the reply cannot run past the window", async () => {
    const MODEL = "qwen2.5-7b-instruct";
    server = await startScriptedServer({ protocol: "openai", script: VALID, models: [{ name: MODEL }], localServer: { kind: "llama-server", contextSize: 8192, charsPerToken: DENSE } });
    const run = ingestRun({ source: { path: NOTE_PATH, text: note(6_000) } });
    const result = await orchestrate(createProvider("openai", envFor("openai", server, { model: MODEL })), OPTIONS, run);
    expect(result.converged).toBe(true);
    const calls = server.modelRequests();
    expect(calls).toHaveLength(2);
    const pages = calls[1]!;
    expect(promptTokensOf(pages, DENSE) + (pages.body as { max_tokens: number }).max_tokens).toBeLessThanOrEqual(8192);
  });
});
