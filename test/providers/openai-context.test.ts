/**
 * The context window of local OpenAI-compatible servers, against a scripted server that behaves as
 * llama-server, LM Studio, vLLM or Ollama's /v1 do: the window is learned where the server reports
 * it (once), every request keeps prompt and reply within it, a prompt that cannot fit is not sent,
 * and the server's own refusal of a prompt too long is the `context` failure with advice.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createRunContext } from "../../src/core/run-context";
import { createProvider } from "../../src/providers/factory";
import { checkReadiness } from "../../src/providers/readiness";
import { formatReadiness } from "../../src/cli/models-command";
import { startScriptedServer, type Reply, type ScriptedServer, type ScriptedServerOptions } from "../helpers/scripted-server";
import type { LocalOpenAIServer } from "../helpers/scripted-server-openai-local";
import { ANALYSIS, REPLIES, content, envFor, failure, ingestRun, redirectingFetch } from "./harness";

const MODEL = "qwen2.5-7b-instruct";
/** About 6,700 tokens by the client's estimate, 5,000 by the server's: too long for 4,096. */
const LONG_NOTE = "word ".repeat(4000);

let server: ScriptedServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function start(localServer: LocalOpenAIServer | undefined, script: readonly Reply[] = [content(REPLIES.analysis), content(REPLIES.pages)], extra: Partial<ScriptedServerOptions> = {}): Promise<ScriptedServer> {
  server = await startScriptedServer({ protocol: "openai", script, models: [{ name: MODEL }], ...(localServer ? { localServer } : {}), ...extra });
  return server;
}

function env(s: ScriptedServer, profile: Record<string, unknown> = {}) {
  return envFor("openai", s, { model: MODEL, profile });
}

const sentMaxTokens = (s: ScriptedServer): unknown[] => s.modelRequests().map((r) => (r.body as Record<string, unknown>).max_tokens);
const probes = (s: ScriptedServer, path: string) => s.requests.filter((r) => r.path === path).length;

describe("OpenAI-compatible context window", () => {
  it("learns llama-server's n_ctx from /props once and keeps max_tokens within it", async () => {
    const s = await start({ kind: "llama-server", contextSize: 4096 });
    const provider = createProvider("openai", env(s));
    await provider.analyze("A short note.", "", ingestRun());
    await provider.generate({ analysis: ANALYSIS, note: "A short note.", related: "" }, ingestRun());
    expect(probes(s, "/props")).toBe(1);
    expect(provider.capabilities().maxContext).toBe(4096);
    for (const max of sentMaxTokens(s)) {
      expect(typeof max).toBe("number");
      expect(max as number).toBeGreaterThan(0);
      expect(max as number).toBeLessThan(4096);
    }
  });

  it("packs a long note into the window for the analysis, saying parts were left out", async () => {
    const s = await start({ kind: "llama-server", contextSize: 4096 });
    await createProvider("openai", env(s)).analyze(LONG_NOTE, "", ingestRun());
    const [call] = s.modelRequests();
    expect((call!.body as { messages: { content: string }[] }).messages[1]!.content).toMatch(/shown in parts[\s\S]*<source>\nword word[\s\S]*\[…\]\n<\/source>/);
  });

  it("refuses a prompt that cannot fit before sending it, with what to change", async () => {
    // Not even the instructions and a useful part of the note fit 1,024 tokens with the reply's share.
    const s = await start({ kind: "llama-server", contextSize: 1024 });
    const error = await failure(() => createProvider("openai", env(s)).analyze(LONG_NOTE, "", ingestRun()));
    expect(error.kind).toBe("capability");
    expect(error.message).toMatch(/runs in a 1024-token context window; start llama-server with a larger --ctx-size/);
    expect(error.message).toContain('"Context window" under API: OpenAI-compatible');
    expect(s.modelRequests()).toHaveLength(0);
  });

  it("keeps prompt and max_tokens within vLLM's max_model_len (vLLM refuses the sum otherwise)", async () => {
    const s = await start({ kind: "vllm", contextSize: 4096 });
    const analysis = await createProvider("openai", env(s)).analyze("A short note.", "", ingestRun());
    expect(analysis.title).toBe(ANALYSIS.title);
    expect(s.modelRequests()).toHaveLength(1);
  });

  it("uses the window LM Studio loaded the model with, not the model's maximum", async () => {
    const s = await start({ kind: "lmstudio", contextSize: 4096, maxContextLength: 32768 });
    const provider = createProvider("openai", env(s));
    await provider.analyze("A short note.", "", ingestRun());
    expect(provider.capabilities().maxContext).toBe(4096);
    expect(sentMaxTokens(s)[0] as number).toBeLessThan(4096);
  });

  it("runs Ollama's /v1 in Ollama's default window, which it uses whatever the model could hold", async () => {
    const s = await start({ kind: "ollama", contextSize: 131072 });
    const provider = createProvider("openai", env(s));
    await provider.analyze("A short note.", "", ingestRun());
    expect(provider.capabilities().maxContext).toBe(4096);
  });

  it("falls back to the setting when the server reports nothing, and a setting below the server's window lowers it", async () => {
    const plain = await start(undefined);
    const provider = createProvider("openai", env(plain, { contextWindow: 6000 }));
    await provider.analyze("A short note.", "", ingestRun());
    expect(provider.capabilities().maxContext).toBe(6000);
    expect(sentMaxTokens(plain)[0] as number).toBeLessThan(6000);
    await plain.close();

    const llama = await start({ kind: "llama-server", contextSize: 16384 });
    const lowered = createProvider("openai", env(llama, { contextWindow: 6000 }));
    await lowered.analyze("A short note.", "", ingestRun());
    expect(lowered.capabilities().maxContext).toBe(6000);
  });

  it("never fails a call because a probe failed: a server that reports nothing gets the step's own limit", async () => {
    const s = await start(undefined, [content(REPLIES.analysis)], { overrides: { "/props": { kind: "status", status: 500 }, "/api/show": { kind: "raw", body: "not json" } } });
    const provider = createProvider("openai", env(s));
    await provider.analyze("A short note.", "", ingestRun());
    expect(sentMaxTokens(s)).toEqual([8192]);
    expect(provider.capabilities().maxContext).toBe(0);
  });

  it("does not probe hosted APIs: their models' windows are documented", async () => {
    const s = await start(undefined, [content(REPLIES.analysis)], { models: [{ name: "gpt-4.1-mini" }] });
    const provider = createProvider("openai", envFor("openai", s, { url: "https://api.openai.com/v1", fetch: redirectingFetch(s) }));
    await provider.analyze("A short note.", "", ingestRun());
    expect(s.requests.map((r) => r.path)).toEqual(["/v1/chat/completions"]);
    expect(provider.capabilities().maxContext).toBe(1_047_576);
  });

  it("keeps a streamed chat's max_tokens within the window", async () => {
    const s = await start({ kind: "llama-server", contextSize: 2048 }, [content("A base is a view of notes.")]);
    const parts: string[] = [];
    for await (const part of createProvider("openai", env(s)).chat([{ role: "user", content: "What is a base?" }], "", createRunContext())) parts.push(part);
    expect(parts.join("")).toBe("A base is a view of notes.");
    expect(sentMaxTokens(s)[0] as number).toBeLessThan(2048);
  });

  it("does not raise the output limit when the reply filled the window: the same room would come again", async () => {
    const s = await start({ kind: "llama-server", contextSize: 4096 }, [{ kind: "content", text: '{"title": "Bas', finish: "length" }]);
    const error = await failure(() => createProvider("openai", env(s)).analyze("A short note.", "", ingestRun()));
    expect(error.kind).toBe("schema");
    expect(error.message).toMatch(/filled the 4096-token context window/);
    expect(s.modelRequests()).toHaveLength(1);
  });
});

describe("a prompt the server refused as too long", () => {
  /** No window endpoint answers, so the client cannot know the window and sends the prompt. */
  const blind = { "/props": { kind: "status", status: 404 }, "/api/v0/models": { kind: "status", status: 404 } } as const;

  it.each([
    ["llama-server", /exceeds the available context size/],
    ["lmstudio", /greater than the context length/],
    ["vllm", /maximum context length is 4096 tokens/],
  ] as const)("%s's refusal is the context failure, not retried, naming the setting", async (kind, said) => {
    const s = await start({ kind, contextSize: 4096 }, [content(REPLIES.analysis)], { overrides: blind });
    if (kind === "vllm") s.setOverride("/v1/models", { kind: "status", status: 404 });
    const error = await failure(() => createProvider("openai", env(s)).analyze(LONG_NOTE, "", ingestRun()));
    expect(error.kind).toBe("context");
    expect(error.message).toMatch(said);
    expect(error.message).toContain('set "Context window" under API: OpenAI-compatible to what the server runs');
    expect(s.modelRequests()).toHaveLength(1);
  });

  it("keeps llama-server's error body as documented", async () => {
    const s = await start({ kind: "llama-server", contextSize: 4096 }, [content(REPLIES.analysis)], { overrides: blind });
    await failure(() => createProvider("openai", env(s)).analyze(LONG_NOTE, "", ingestRun()));
    const response = await fetch(`${s.url}/v1/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ model: MODEL, messages: [{ role: "user", content: LONG_NOTE }] }) });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: { code: 400, message: "request (5000 tokens) exceeds the available context size (4096 tokens), try increasing it", type: "exceed_context_size_error", n_prompt_tokens: 5000, n_ctx: 4096 } });
  });
});

describe("readiness shows the window in use", () => {
  it("says what llama-server reports, in Test connection and `synapse models`", async () => {
    const s = await start({ kind: "llama-server", contextSize: 4096 });
    const report = await checkReadiness("openai", env(s));
    expect(report.ok).toBe(true);
    expect(report.details).toContain("Context window in use: 4096 tokens (reported by llama-server); each request keeps its prompt and reply within it.");
    expect(formatReadiness(report, MODEL)).toMatch(/Context window in use: 4096 tokens \(reported by llama-server\)[^\n]*\n[\s\S]*Ready\./);
  });

  it("asks for the setting when the server reports nothing", async () => {
    const s = await start(undefined);
    const report = await checkReadiness("openai", env(s));
    expect(report.details.join("\n")).toContain('the server does not report one; set "Context window" under API: OpenAI-compatible');
  });
});
