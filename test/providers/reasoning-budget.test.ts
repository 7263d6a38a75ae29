/**
 * Reasoning models, the rest: structured steps switch thinking off where the server documents a
 * switch (llama-server and vLLM `chat_template_kwargs.enable_thinking`, Ollama's /v1
 * `reasoning_effort`), and thinking counts in the usage ledger — as the server reports it, and in
 * our estimate of a request that timed out while the model was still thinking — without reaching
 * the answer.
 */
import { afterEach, describe, expect, it } from "vitest";
import { orchestrate, type OrchestratorOptions } from "../../src/core/orchestrator";
import { createProvider } from "../../src/providers/factory";
import { startScriptedServer, type Protocol, type ScriptedServer, type ScriptedServerOptions } from "../helpers/scripted-server";
import type { LocalOpenAIServer } from "../helpers/scripted-server-openai-local";
import { REPLIES, collect, content, envFor, failure, ingestRun } from "./harness";

const OPTIONS: OrchestratorOptions = { maxIter: 2, tokenBudget: 0, retrievalContext: "", vaultContext: "" };
const MODEL = "qwen3-8b";
/** 2,000 characters of thinking: about 500 tokens. */
const THOUGHT = "SECRET-THOUGHT weighing the question before answering. ".repeat(36).slice(0, 2000);
const QUESTION = [{ role: "user" as const, content: "What is Bases?" }];
const ANSWER = "Bases shows notes as tables [[Bases]].";

let server: ScriptedServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function start(protocol: Protocol, extra: Partial<ScriptedServerOptions>): Promise<ScriptedServer> {
  server = await startScriptedServer({ protocol, script: [content(REPLIES.analysis), content(REPLIES.pages)], models: [{ name: MODEL }], ...extra });
  return server;
}

type Body = { chat_template_kwargs?: unknown; reasoning_effort?: unknown };
const bodies = (s: ScriptedServer) => s.modelRequests().map((r) => r.body as Body);

describe("structured steps switch thinking off where the server has a switch", () => {
  it.each([["llama-server"], ["vllm"]] as const)("%s: chat_template_kwargs.enable_thinking false on the analysis and the pages, not on an answer", async (kind) => {
    const s = await start("openai", { localServer: { kind, contextSize: 8192 } });
    const provider = createProvider("openai", envFor("openai", s, { model: MODEL }));
    expect((await orchestrate(provider, OPTIONS, ingestRun())).error).toBeNull();
    s.setScript([{ kind: "content", text: ANSWER, reasoning: THOUGHT }]);
    expect(await collect(provider.chat(QUESTION, "Bases: views.", ingestRun()))).toBe(ANSWER);
    const sent = bodies(s);
    expect(sent.slice(0, 2).map((b) => b.chat_template_kwargs)).toEqual([{ enable_thinking: false }, { enable_thinking: false }]);
    expect(sent[2]!.chat_template_kwargs).toBeUndefined();
  });

  it("Ollama's /v1: reasoning_effort none only for a model that lists thinking", async () => {
    const thinking: LocalOpenAIServer = { kind: "ollama", contextSize: 32768 };
    const s = await start("openai", { localServer: thinking, script: [content(REPLIES.analysis)] });
    // The scripted Ollama /v1 answers /api/show with the plain capabilities; give it "thinking".
    s.setOverride("/api/show", { kind: "raw", body: JSON.stringify({ capabilities: ["completion", "thinking"], model_info: { "general.architecture": "qwen3", "qwen3.context_length": 32768 } }) });
    await createProvider("openai", envFor("openai", s, { model: MODEL })).analyze("A short note.", "", ingestRun());
    s.setOverride("/api/show", null);
    await createProvider("openai", envFor("openai", s, { model: MODEL })).analyze("A short note.", "", ingestRun());
    expect(bodies(s).map((b) => b.reasoning_effort)).toEqual(["none", undefined]);
  });

  it("sends no switch to LM Studio or a server that says nothing, and a reasoning_effort in the user's advanced options wins", async () => {
    const s = await start("openai", { localServer: { kind: "lmstudio", contextSize: 8192 }, script: [content(REPLIES.analysis)] });
    await createProvider("openai", envFor("openai", s, { model: MODEL })).analyze("A short note.", "", ingestRun());
    expect(bodies(s)[0]).not.toHaveProperty("chat_template_kwargs");
    expect(bodies(s)[0]).not.toHaveProperty("reasoning_effort");
    await s.close();
    const ollama = await start("openai", { localServer: { kind: "ollama", contextSize: 32768 }, script: [content(REPLIES.analysis)] });
    ollama.setOverride("/api/show", { kind: "raw", body: JSON.stringify({ capabilities: ["completion", "thinking"], model_info: { "qwen3.context_length": 32768 } }) });
    await createProvider("openai", envFor("openai", ollama, { model: MODEL, profile: { options: { reasoning_effort: "high" } } })).analyze("A short note.", "", ingestRun());
    expect(bodies(ollama)[0]!.reasoning_effort).toBe("high");
  });
});

describe("thinking counts in the usage ledger and never reaches the answer", () => {
  it.each([
    ["ollama", {}],
    ["openai", { localServer: { kind: "llama-server", contextSize: 8192 } }],
  ] as const)("%s: the answer's output tokens include its thinking, as the server counts them", async (protocol, extra) => {
    const s = await start(protocol, { ...extra, models: [{ name: MODEL, contextLength: 32768 }] });
    s.setScript([{ kind: "content", text: ANSWER, reasoning: THOUGHT }]);
    const run = ingestRun();
    const answer = await collect(createProvider(protocol, envFor(protocol, s, { model: MODEL })).chat(QUESTION, "Bases: views.", run));
    expect(answer).toBe(ANSWER);
    expect(run.usage.totals().outputTokens).toBeGreaterThanOrEqual(Math.floor((THOUGHT.length + ANSWER.length) / 4));
  });

  it.each(["ollama", "openai"] as const)("%s: a request that timed out while thinking is recorded with the thinking it sent, flagged estimated", async (protocol) => {
    const extra: Partial<ScriptedServerOptions> = protocol === "openai" ? { localServer: { kind: "lmstudio", contextSize: 8192 } } : {};
    const s = await start(protocol, { ...extra, models: [{ name: MODEL, contextLength: 32768 }] });
    // Thinks, writes nothing, and goes quiet: the reply's silence limit ends it.
    s.setScript([{ kind: "stall", text: "", reasoning: THOUGHT }]);
    const run = ingestRun();
    const error = await failure(() => createProvider(protocol, envFor(protocol, s, { model: MODEL, requestTimeoutSeconds: 1 })).analyze("A short note.", "", run));
    expect(error.kind).toBe("timeout");
    const [entry] = run.usage.entries;
    expect(entry?.estimated).toBe(true);
    expect(entry!.outputTokens).toBeGreaterThanOrEqual(Math.floor(THOUGHT.length / 4));
  });
});
