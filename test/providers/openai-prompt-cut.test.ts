/**
 * A prompt a local OpenAI-compatible server cut with no error. Ollama's /v1 runs every request in
 * its own window (4,096 tokens unless OLLAMA_CONTEXT_LENGTH says otherwise), whatever the model
 * could hold, and cuts a longer prompt from the start — the instructions first — reporting in
 * `usage.prompt_tokens` only what it kept. Through the real `openai` client against the scripted
 * server behaving so; the same judge of the count as the Ollama adapter's (providers/prompt-read.ts).
 */
import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { orchestrate, type OrchestratorOptions } from "../../src/core/orchestrator";
import type { InferenceProvider } from "../../src/core/provider";
import { createProvider } from "../../src/providers/factory";
import { startScriptedServer, type RecordedRequest, type Reply, type ScriptedServer } from "../helpers/scripted-server";
import type { LocalOpenAIServer } from "../helpers/scripted-server-openai-local";
import { NOTE_PATH, REPLIES, VALID, content, envFor, ingestRun, noteText, redirectingFetch, type EnvOptions } from "./harness";

const MODEL = "qwen2.5:7b";
const OPTIONS: OrchestratorOptions = { maxIter: 3, tokenBudget: 0, retrievalContext: "", vaultContext: "" };
const ANSWER = "Bases are views of notes. [[Bases]]";

/** A real note, repeated to `chars` characters (20,000: about 5,000 tokens). */
function longNote(chars = 20_000): string {
  const text = noteText();
  return text.repeat(Math.ceil(chars / text.length)).slice(0, chars);
}

let server: ScriptedServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function start(local: LocalOpenAIServer, script: readonly Reply[] = VALID): Promise<ScriptedServer> {
  server = await startScriptedServer({ protocol: "openai", script, models: [{ name: MODEL }], localServer: local });
  return server;
}

function provider(s: ScriptedServer, options: EnvOptions = {}): InferenceProvider {
  return createProvider("openai", envFor("openai", s, { model: MODEL, ...options }));
}

const schemaName = (call: RecordedRequest) => (call.body as { response_format?: { json_schema?: { name?: string } } }).response_format?.json_schema?.name;
const userText = (call: RecordedRequest) => (call.body as { messages: { content: string }[] }).messages.map((m) => m.content).join("\n");

/** The answer as far as it streamed, and how the stream ended. */
async function ask(p: InferenceProvider, context: string): Promise<{ answer: string; error: { kind: string; message: string } | null }> {
  let answer = "";
  try {
    for await (const piece of p.chat([{ role: "user", content: "What is a base?" }], context, ingestRun())) answer += piece;
    return { answer, error: null };
  } catch (error) {
    return { answer, error: error as { kind: string; message: string } };
  }
}

describe("a note Ollama's /v1 cut with no error", () => {
  it("is its own failure naming the setting when the server runs a smaller window than \"Context window\" says, never an output-limit raise, never sent again", async () => {
    // The user set 16,384 believing OLLAMA_CONTEXT_LENGTH was raised; the server still runs 4,096.
    const s = await start({ kind: "ollama", contextSize: 32768, runningWindow: 4096 });
    const run = ingestRun({ source: { path: NOTE_PATH, text: longNote() } });
    const result = await orchestrate(provider(s, { profile: { contextWindow: 16384 } }), OPTIONS, run);
    const calls = s.modelRequests();
    expect(calls).toHaveLength(1);
    expect(calls[0]!.promptCut).toBe(true);
    expect(result.converged).toBe(false);
    expect(result.error?.kind).toBe("context");
    expect(result.error?.message).toMatch(/read only 4080 of the prompt's ~\d+ tokens.*smaller context window than the 16384 tokens/);
    expect(result.error?.message).toMatch(/Set "Context window" under API: OpenAI-compatible to the window the server runs.*OLLAMA_CONTEXT_LENGTH/);
    expect(result.error?.message).not.toMatch(/Max output tokens/);
    expect(result.attempts).toEqual({ analyze: 1, generate: 0 });
  });

  it("is packed again by what the server counted when the note outgrew the window, and sent once more, changed", async () => {
    // The server counts a token per 1.875 characters: 1.6× the adapters' chars/3.
    const s = await start({ kind: "ollama", contextSize: 32768, charsPerToken: 3 / 1.6 }, [content(REPLIES.analysis), content(REPLIES.analysis), content(REPLIES.pages)]);
    const run = ingestRun({ source: { path: NOTE_PATH, text: longNote() } });
    const p = provider(s);
    const result = await orchestrate(p, OPTIONS, run);
    expect(result.error).toBeNull();
    expect(result.converged).toBe(true);
    // The analysis twice (the cut reply unused), then the pages once.
    expect(result.attempts).toEqual({ analyze: 1, generate: 1 });
    const [cut, again, pages, ...rest] = s.modelRequests();
    expect(rest).toHaveLength(0);
    expect(schemaName(again!)).toBe(schemaName(cut!));
    expect(schemaName(pages!)).not.toBe(schemaName(cut!));
    expect(cut!.promptCut).toBe(true);
    expect(again!.promptCut).toBe(false);
    expect(pages!.promptCut).toBe(false);
    expect(userText(again!).length).toBeLessThan(userText(cut!).length);
    expect(p.promptTokenRatio?.()).toBeGreaterThan(1.5);
  });

  it("is refused before a second send when packing again cannot change the prompt", async () => {
    const s = await start({ kind: "ollama", contextSize: 32768, charsPerToken: 3 / 1.6 }, [content('{"ok": true}')]);
    const p = provider(s);
    // A one-off request carries no note to pack: its prompt is what it is.
    const long = "Tea is a drink made from leaves. ".repeat(330);
    const error = await p.ask!({ system: "Say whether the text is about tea.", user: long, schema: z.object({ ok: z.boolean() }), name: "verdict", what: "the verdict" }, ingestRun()).then(
      () => null,
      (e: unknown) => e as { kind: string; message: string },
    );
    expect(s.modelRequests()).toHaveLength(1);
    expect(s.modelRequests()[0]!.promptCut).toBe(true);
    expect(["context", "capability"]).toContain(error?.kind);
    expect(error?.message).toMatch(/context window/);
  });
});

describe("a question Ollama's /v1 cut with no error", () => {
  it("ends as its own failure with advice for a question when the server ran it in a smaller window than planned", async () => {
    const s = await start({ kind: "ollama", contextSize: 32768, runningWindow: 4096 }, [content(ANSWER)]);
    const { error } = await ask(provider(s, { profile: { contextWindow: 16384 } }), longNote(22_000));
    expect(s.modelRequests()).toHaveLength(1);
    expect(s.modelRequests()[0]!.promptCut).toBe(true);
    expect(error?.kind).toBe("context");
    expect(error?.message).toMatch(/read only 4080 of the prompt's.*the answer is not one to rely on.*ask a shorter question/);
    expect(error?.message).not.toMatch(/ingest/);
  });

  it("ends as its own failure when the prompt filled the window, and what the server counted is learned for the next question's packing", async () => {
    const s = await start({ kind: "ollama", contextSize: 32768, charsPerToken: 3 / 1.6 }, [content(ANSWER)]);
    const p = provider(s);
    const first = await ask(p, longNote(9_000));
    expect(first.error?.kind).toBe("context");
    expect(first.error?.message).toMatch(/the whole 4096-token context window.*Ask again/);
    // At least the count reported, with a margin (the server does not say by how much the prompt was over).
    expect(p.promptTokenRatio?.()).toBeGreaterThan(1.4);
    expect(s.modelRequests()).toHaveLength(1);
    expect(s.modelRequests()[0]!.promptCut).toBe(true);
  });
});

describe("which servers' counts are judged", () => {
  it("Ollama on another machine of the network, told by its answer to the window probe", async () => {
    const s = await start({ kind: "ollama", contextSize: 32768, runningWindow: 4096 });
    const lan = createProvider("openai", envFor("openai", s, { model: MODEL, url: "http://192.168.1.20:11434/v1", fetch: redirectingFetch(s), profile: { contextWindow: 16384 } }));
    expect(lan.capabilities().isLocal).toBe(false);
    const error = await lan.analyze(longNote(), "", ingestRun()).then(
      () => null,
      (e: unknown) => e as { kind: string; message: string },
    );
    expect(error?.kind).toBe("context");
    expect(s.modelRequests()).toHaveLength(1);
  });

  it("a hosted API's low prompt count is no cut: hosted servers refuse a prompt too long, they never cut one", async () => {
    // A count far below the estimate (a prefix cache, a tokenizer that packs tighter) is billing, not a cut.
    server = await startScriptedServer({ protocol: "openai", script: [content(REPLIES.analysis, { input: 40, output: 60 })], models: [{ name: "gpt-4.1-mini" }] });
    const hosted = createProvider("openai", envFor("openai", server, { url: "https://api.openai.com/v1", fetch: redirectingFetch(server) }));
    const analysis = await hosted.analyze(longNote(8_000), "", ingestRun());
    expect(analysis.title).toBeTruthy();
    expect(server.modelRequests()).toHaveLength(1);
  });
});
