/**
 * A question's prompt Ollama did not read whole. Ollama reports the prompt's count only on the
 * last line of a streamed answer; a prompt it cut from the start lost the instructions and the
 * first passages, so the answer is not one to stand. Through the real `ollama` client against the
 * scripted Ollama server, which cuts as Ollama does and reports `prompt_eval_count`.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { InferenceProvider } from "../../src/core/provider";
import type { FetchLike } from "../../src/providers/environment";
import { createProvider } from "../../src/providers/factory";
import { startScriptedServer, type ScriptedServer } from "../helpers/scripted-server";
import { SERVER_MODELS, content, envFor, ingestRun, nodeFetch, noteText } from "./harness";

const ANSWER = "Bases are views of notes. [[Bases]]";

/** A real note, repeated to `chars` characters: the passages a question is sent. */
function passages(chars: number): string {
  const text = noteText();
  return text.repeat(Math.ceil(chars / text.length)).slice(0, chars);
}

/** A transport that drops num_ctx from every request, as a server (or proxy) that ignores it would. */
const ignoringNumCtx: FetchLike = (input, init) => {
  if (typeof init?.body !== "string") return nodeFetch(input, init);
  const body = JSON.parse(init.body) as { options?: Record<string, unknown> };
  if (body.options) delete body.options.num_ctx;
  return nodeFetch(input, { ...init, body: JSON.stringify(body) });
};

/** The answer as far as it streamed, and how the stream ended. */
async function ask(provider: InferenceProvider, context: string): Promise<{ answer: string; error: { kind: string; message: string } | null }> {
  let answer = "";
  try {
    for await (const piece of provider.chat([{ role: "user", content: "What is a base?" }], context, ingestRun())) answer += piece;
    return { answer, error: null };
  } catch (error) {
    return { answer, error: error as { kind: string; message: string } };
  }
}

interface OllamaBody {
  readonly options?: { readonly num_ctx?: number; readonly num_predict?: number };
}

let server: ScriptedServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe("a question whose prompt Ollama cut", () => {
  it("ends as its own failure naming \"Context window\" when the server ran it in a smaller window than asked for", async () => {
    server = await startScriptedServer({ protocol: "ollama", script: [content(ANSWER)], models: SERVER_MODELS.ollama, defaultNumCtx: 4096 });
    const provider = createProvider("ollama", envFor("ollama", server, { fetch: ignoringNumCtx }));
    const { error } = await ask(provider, passages(22_000));
    const [call, ...rest] = server.modelRequests();
    expect(call!.promptCut).toBe(true);
    expect(rest).toHaveLength(0);
    expect(error?.kind).toBe("context");
    expect(error?.message).toMatch(/Ollama read only 4080 of the prompt's ~\d+ tokens.*Raise "Context window" under Local: Ollama/);
    expect(error?.message).not.toMatch(/ingest/);
  });

  it("ends as its own failure when the prompt filled its window, and the next question is sized by what Ollama counted", async () => {
    // The server counts a token per 1.875 characters: 1.6× the adapters' chars/3.
    server = await startScriptedServer({ protocol: "ollama", script: [content(ANSWER), content(ANSWER)], models: SERVER_MODELS.ollama, charsPerToken: 3 / 1.6 });
    const provider = createProvider("ollama", envFor("ollama", server));
    const first = await ask(provider, passages(12_000));
    expect(first.error?.kind).toBe("context");
    expect(first.error?.message).toMatch(/the whole \d+-token window asked for.*Ask again.*raise "Context window" under Local: Ollama/);
    expect(provider.promptTokenRatio?.()).toBeGreaterThan(1.6);

    const second = await ask(provider, passages(12_000));
    expect(second).toEqual({ answer: ANSWER, error: null });
    const [cut, sized] = server.modelRequests();
    expect(cut!.promptCut).toBe(true);
    expect(sized!.promptCut).toBe(false);
    const options = (sized!.body as OllamaBody).options ?? {};
    expect(options.num_ctx).toBeGreaterThan((cut!.body as OllamaBody).options!.num_ctx!);
    expect(options.num_ctx).toBeGreaterThanOrEqual(sized!.promptTokens! + options.num_predict!);
  });

  it("learns from a question read whole how the server counts", async () => {
    server = await startScriptedServer({ protocol: "ollama", script: [content(ANSWER)], models: SERVER_MODELS.ollama, charsPerToken: 3 / 1.6 });
    const provider = createProvider("ollama", envFor("ollama", server));
    expect(await ask(provider, passages(3_000))).toEqual({ answer: ANSWER, error: null });
    expect(server.modelRequests()[0]!.promptCut).toBe(false);
    expect(provider.promptTokenRatio?.()).toBeGreaterThan(1.4);
  });
});
