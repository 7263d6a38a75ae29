/**
 * "A 5,000-token note ingests through a local OpenAI-compatible server without any prompt being
 * cut", with the default settings: llama-server, vLLM and LM Studio running an 8,192-token window
 * (scripted as each is documented to behave: the window in its own endpoint, a 400 for a prompt too
 * long for it). Every request keeps its prompt and its reply within the window, so the server never
 * refuses one and never stops a reply where the window ends.
 */
import { afterEach, describe, expect, it } from "vitest";
import { orchestrate, type OrchestratorOptions } from "../../src/core/orchestrator";
import { createProvider } from "../../src/providers/factory";
import { startScriptedServer, type ScriptedServer } from "../helpers/scripted-server";
import { promptTokensOf, type LocalOpenAIServer } from "../helpers/scripted-server-openai-local";
import { NOTE_PATH, VALID, envFor, ingestRun, noteText } from "./harness";

const MODEL = "qwen2.5-7b-instruct";
const OPTIONS: OrchestratorOptions = { maxIter: 3, tokenBudget: 0, retrievalContext: "", vaultContext: "" };

/** A real note, repeated to about 5,000 tokens (20,000 characters). */
function longNote(): string {
  const text = noteText();
  return text.repeat(Math.ceil(20_000 / text.length)).slice(0, 20_000);
}

let server: ScriptedServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

/** The long note ingested through `local` (its profile as given); the server's requests, once the run converged. */
async function ingestLongNote(local: LocalOpenAIServer, profile?: { contextWindow: number }) {
  server = await startScriptedServer({ protocol: "openai", script: VALID, models: [{ name: MODEL }], localServer: local });
  const run = ingestRun({ source: { path: NOTE_PATH, text: longNote() } });
  const result = await orchestrate(createProvider("openai", envFor("openai", server, { model: MODEL, ...(profile ? { profile } : {}) })), OPTIONS, run);
  expect(result.error).toBeNull();
  expect(result.converged).toBe(true);
  const calls = server.modelRequests();
  expect(calls).toHaveLength(2);
  return calls;
}

describe.each(["llama-server", "vllm", "lmstudio"] as const)("a 5,000-token note through %s with an 8,192-token window", (kind) => {
  it("ingests with the default settings, no request refused or cut", async () => {
    const calls = await ingestLongNote({ kind, contextSize: 8192 });
    // The analysis read the whole note: the server counted more than 5,000 prompt tokens.
    expect(promptTokensOf(calls[0]!)).toBeGreaterThan(5000);
    for (const call of calls) {
      const maxTokens = (call.body as { max_tokens?: number }).max_tokens;
      expect(typeof maxTokens).toBe("number");
      // Prompt and reply within the window: nothing refused, no reply stopped at the window's end.
      expect(promptTokensOf(call) + maxTokens!).toBeLessThanOrEqual(8192);
    }
  });
});

describe("a 5,000-token note through llama-server with a 4,096-token window", () => {
  it("ingests: the analysis and the pages get the note's best parts, no request refused and no reply stopped at the window's end", async () => {
    const calls = await ingestLongNote({ kind: "llama-server", contextSize: 4096 });
    const [analysis] = calls;
    const user = (analysis!.body as { messages: { content: string }[] }).messages[1]!.content;
    // Packed, and said so: the model is told where parts were left out.
    expect(user).toContain('shown in parts: "[…]" marks what was left out');
    expect(user).toContain("[…]");
    for (const call of calls) {
      const maxTokens = (call.body as { max_tokens?: number }).max_tokens!;
      expect(promptTokensOf(call) + maxTokens).toBeLessThanOrEqual(4096);
      // The reply keeps its share: the analysis its 1,024 tokens, the pages half the window.
      expect(maxTokens).toBeGreaterThanOrEqual(1024);
    }
  });
});

/**
 * Ollama's /v1 cuts a prompt longer than its window with no error (scripted so), so "no prompt
 * cut" is what the server read, not only what it did not refuse.
 */
describe("a 5,000-token note through Ollama's /v1", () => {
  it("ingests whole with OLLAMA_CONTEXT_LENGTH at 8,192 and \"Context window\" set to the same, no prompt cut", async () => {
    const calls = await ingestLongNote({ kind: "ollama", contextSize: 32768, runningWindow: 8192 }, { contextWindow: 8192 });
    expect(calls[0]!.promptTokens).toBeGreaterThan(5000);
    for (const call of calls) expect(call.promptCut).toBe(false);
  });

  it("ingests the note's best parts in Ollama's default window with the default settings, no prompt cut", async () => {
    const calls = await ingestLongNote({ kind: "ollama", contextSize: 32768 });
    expect((calls[0]!.body as { messages: { content: string }[] }).messages[1]!.content).toContain('shown in parts: "[…]" marks what was left out');
    for (const call of calls) {
      expect(call.promptCut).toBe(false);
      expect(call.promptTokens! + (call.body as { max_tokens: number }).max_tokens).toBeLessThanOrEqual(4096);
    }
  });
});
