/**
 * Reasoning models: their thinking never reaches a page or an answer, whichever way the server
 * sends it (Ollama's `message.thinking`, llama-server's `reasoning_content`, a `<think>` block in
 * the content), and an Ollama model that lists "thinking" is asked not to think on structured steps.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orchestrate, type OrchestratorOptions } from "../../src/core/orchestrator";
import { createProvider } from "../../src/providers/factory";
import { startScriptedServer, type Protocol, type ScriptedServer } from "../helpers/scripted-server";
import { REPLIES, collect, content, envFor, ingestRun } from "./harness";

const OPTIONS: OrchestratorOptions = { maxIter: 2, tokenBudget: 0, retrievalContext: "", vaultContext: "" };
const THOUGHT = "SECRET-THOUGHT the user must never see this reasoning.";
const ANSWER = "Bases shows notes as tables [[Bases]].";
const QUESTION = [{ role: "user" as const, content: "What is Bases?" }];

function reasoningServer(protocol: Protocol): Promise<ScriptedServer> {
  const models = protocol === "ollama" ? [{ name: "llama3.1:8b", capabilities: ["completion", "thinking"], contextLength: 131072 }] : [];
  return startScriptedServer({ protocol, script: [], models });
}

describe.each(["ollama", "openai"] as const)("a reasoning model (%s)", (protocol) => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await reasoningServer(protocol);
  });
  afterAll(() => server.close());

  it("keeps its thinking, sent apart, out of the answer", async () => {
    server.reset();
    server.setScript([{ kind: "content", text: ANSWER, reasoning: THOUGHT }]);
    const answer = await collect(createProvider(protocol, envFor(protocol, server)).chat(QUESTION, "Bases: views.", ingestRun()));
    expect(answer).toBe(ANSWER);
  });

  it("keeps a <think> block in the content out of the answer, even split across stream pieces", async () => {
    server.reset();
    server.setScript([content(`<think>\n${THOUGHT}\n</think>\n\n${ANSWER}`)]);
    const answer = await collect(createProvider(protocol, envFor(protocol, server)).chat(QUESTION, "Bases: views.", ingestRun()));
    expect(answer).toBe(ANSWER);
  });

  it("keeps its thinking out of the pages", async () => {
    server.reset();
    const thinkingPages = `<think>${THOUGHT}</think>${REPLIES.pages}`;
    server.setScript([
      { kind: "content", text: REPLIES.analysis, reasoning: THOUGHT },
      { kind: "content", text: thinkingPages, reasoning: THOUGHT },
    ]);
    const result = await orchestrate(createProvider(protocol, envFor(protocol, server)), OPTIONS, ingestRun());
    expect(result.error).toBeNull();
    expect(result.converged).toBe(true);
    expect(JSON.stringify(result.pages)).not.toContain("SECRET-THOUGHT");
  });
});

describe("Ollama structured steps", () => {
  it("carry think: false for a model that lists thinking, and no think field for one that does not", async () => {
    const thinking = await reasoningServer("ollama");
    const plain = await startScriptedServer({ protocol: "ollama", script: [], models: [{ name: "llama3.1:8b", capabilities: ["completion"], contextLength: 131072 }] });
    try {
      for (const server of [thinking, plain]) server.setScript([content(REPLIES.analysis), content(REPLIES.pages)]);
      for (const server of [thinking, plain]) expect((await orchestrate(createProvider("ollama", envFor("ollama", server)), OPTIONS, ingestRun())).error).toBeNull();
      const thinks = (server: ScriptedServer) => server.modelRequests().map((r) => (r.body as { think?: unknown }).think);
      expect(thinks(thinking)).toEqual([false, false]);
      expect(thinks(plain)).toEqual([undefined, undefined]);
    } finally {
      await Promise.all([thinking.close(), plain.close()]);
    }
  });
});
