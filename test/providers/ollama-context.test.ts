/**
 * Ollama's context window against a scripted server that behaves as Ollama does: a request without
 * num_ctx runs in 4,096 tokens and a longer prompt is cut from the start, with prompt_eval_count
 * reporting what was kept.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { orchestrate, type OrchestratorOptions } from "../../src/core/orchestrator";
import type { FetchLike } from "../../src/providers/environment";
import type { ScriptedServer } from "../helpers/scripted-server";
import { startScriptedServer } from "../helpers/scripted-server";
import { NOTE_PATH, SERVER_MODELS, VALID, envFor, ingestRun, nodeFetch, noteText } from "./harness";
import { createProvider } from "../../src/providers/factory";

const OPTIONS: OrchestratorOptions = { maxIter: 3, tokenBudget: 0, retrievalContext: "", vaultContext: "" };

/** A real note, repeated to about 5,000 tokens (20,000 characters). */
function longNote(): string {
  const text = noteText();
  return text.repeat(Math.ceil(20_000 / text.length)).slice(0, 20_000);
}

interface OllamaBody {
  readonly options?: { readonly num_ctx?: number; readonly num_predict?: number };
}

/** A transport that drops num_ctx from every request, as a server (or proxy) that ignores it would. */
const ignoringNumCtx: FetchLike = (input, init) => {
  if (typeof init?.body !== "string") return nodeFetch(input, init);
  const body = JSON.parse(init.body) as { options?: Record<string, unknown> };
  if (body.options) delete body.options.num_ctx;
  return nodeFetch(input, { ...init, body: JSON.stringify(body) });
};

describe("Ollama's context window", () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    // Ollama's own default window; the model could hold 131,072.
    server = await startScriptedServer({ protocol: "ollama", script: VALID, models: SERVER_MODELS.ollama, defaultNumCtx: 4096 });
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.reset();
    server.setScript(VALID);
  });

  it("ingests a 5,000-token note without any prompt being cut: each request asks for a window that holds it, within the setting", async () => {
    const run = ingestRun({ source: { path: NOTE_PATH, text: longNote() } });
    const result = await orchestrate(createProvider("ollama", envFor("ollama", server)), OPTIONS, run);
    expect(result.error).toBeNull();
    expect(result.converged).toBe(true);
    const calls = server.modelRequests();
    expect(calls).toHaveLength(2);
    expect(calls[0]!.promptTokens).toBeGreaterThan(4096);
    for (const call of calls) {
      expect(call.promptCut).toBe(false);
      const options = (call.body as OllamaBody).options ?? {};
      // Room for the prompt and the reply, in steps of 1,024, never past "Context window" (8,192).
      expect(options.num_ctx).toBeGreaterThanOrEqual(call.promptTokens! + (options.num_predict ?? 0));
      expect(options.num_ctx! % 1024).toBe(0);
      expect(options.num_ctx).toBeLessThanOrEqual(8192);
    }
  });

  it("reports a prompt the server cut as its own failure naming the setting, never raising the output limit or sending it again", async () => {
    const run = ingestRun({ source: { path: NOTE_PATH, text: longNote() } });
    const result = await orchestrate(createProvider("ollama", envFor("ollama", server, { fetch: ignoringNumCtx })), OPTIONS, run);
    const [call] = server.modelRequests();
    expect(call!.promptCut).toBe(true);
    expect(result.error?.kind).toBe("context");
    expect(result.error?.message).toMatch(/Ollama read only 4080 of the prompt's ~\d+ tokens.*Raise "Context window" under Local: Ollama/);
    expect(result.attempts).toEqual({ analyze: 1, generate: 0 });
    expect(server.modelRequests()).toHaveLength(1);
  });

  it("ingests a 5,000-token note with \"Context window\" at 4,096: the note's best parts, each prompt and its reply within the window", async () => {
    const run = ingestRun({ source: { path: NOTE_PATH, text: longNote() } });
    const result = await orchestrate(createProvider("ollama", envFor("ollama", server, { profile: { contextWindow: 4096 } })), OPTIONS, run);
    expect(result.error).toBeNull();
    expect(result.converged).toBe(true);
    const calls = server.modelRequests();
    expect(calls).toHaveLength(2);
    const user = (calls[0]!.body as { messages: { content: string }[] }).messages[1]!.content;
    expect(user).toContain('shown in parts: "[…]" marks what was left out');
    for (const call of calls) {
      expect(call.promptCut).toBe(false);
      const options = (call.body as OllamaBody).options ?? {};
      expect(options.num_ctx).toBeLessThanOrEqual(4096);
      expect(options.num_ctx).toBeGreaterThanOrEqual(call.promptTokens! + options.num_predict!);
    }
    // The analysis keeps its whole output limit.
    expect((calls[0]!.body as OllamaBody).options?.num_predict).toBe(1024);
  });

  it("refuses, before sending, a prompt the largest window allowed cannot hold even with the note in parts", async () => {
    const provider = createProvider("ollama", envFor("ollama", server, { profile: { contextWindow: 1024 } }));
    const error = await provider.analyze(longNote(), "", ingestRun()).then(
      () => null,
      (e: unknown) => e as { kind: string; message: string },
    );
    expect(error?.kind).toBe("capability");
    expect(error?.message).toMatch(/1024-token context window \(setting "Context window" under Local: Ollama/);
    expect(server.modelRequests()).toHaveLength(0);
  });

  it("gives a question's answer a bounded output and a window too", async () => {
    server.setScript([{ kind: "content", text: "Bases are views of notes. [[Bases]]" }]);
    const provider = createProvider("ollama", envFor("ollama", server));
    let answer = "";
    for await (const part of provider.chat([{ role: "user", content: "What is a base?" }], longNote(), ingestRun())) answer += part;
    expect(answer).toBe("Bases are views of notes. [[Bases]]");
    const [call] = server.modelRequests();
    expect(call!.promptCut).toBe(false);
    expect((call!.body as OllamaBody).options?.num_predict).toBe(1024);
  });
});
