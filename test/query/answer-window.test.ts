/**
 * A question measured as the adapter measures it: on a model that counts more tokens than Synapse
 * estimates, the passages packed for a question must fit the context window the adapter plans for
 * it. Through the real Ollama provider and `ollama` client against the scripted Ollama server,
 * which counts a token per 1.875 characters (1.6× the adapters' chars/3); the provider learns that
 * from a first reply, and the question that follows is packed by it.
 */
import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod";
import type { InferenceProvider } from "../../src/core/provider";
import { createProvider } from "../../src/providers/factory";
import { askWiki } from "../../src/query/ask";
import { DEFAULT_SETTINGS, type Settings } from "../../src/settings/schema";
import { MemoryVault } from "../../src/vault/memory-vault";
import { startScriptedServer, type RecordedRequest, type Reply, type ScriptedServer } from "../helpers/scripted-server";
import { SERVER_MODELS, content, envFor, ingestRun } from "../providers/harness";
import { FixedRetriever, hit } from "./fakes";

/** The server counts a token per 1.875 characters: 1.6× the adapters' chars/3. */
const DENSE = 3 / 1.6;
const QUESTION = "What did Babbage design for the Analytical Engine?";
const ANSWER = "Babbage designed the mill and the store [[Engine part 0]].";

/** A verdict for a structured request (it has a `format`), the answer for a question. */
const SCRIPT = (request: RecordedRequest): Reply => ((request.body as { format?: unknown }).format ? content('{"same":false}') : content(ANSWER));

interface OllamaBody {
  readonly options?: { readonly num_ctx?: number; readonly num_predict?: number };
}

/** Sixty long wiki pages about the engine: the twelve retrieved are more than one window holds. */
function wiki() {
  const files: Record<string, string> = {};
  const hits = [];
  for (let i = 0; i < 60; i++) {
    const path = `wiki/concepts/Engine part ${i}.md`;
    const text = `The Analytical Engine part ${i} that Babbage designed. ${"The mill turns the gears of the store. ".repeat(40)}`.trim();
    files[path] = `---\ntype: concept\n---\n${text}`;
    hits.push(hit(path, text));
  }
  return { vault: new MemoryVault(files), retriever: new FixedRetriever(hits) };
}

/** One structured request first, whose reply tells the provider how the server counts. */
async function calibrated(provider: InferenceProvider): Promise<void> {
  const verdict = await provider.ask?.(
    { system: "Say whether the two pages are the same.", user: "The Analytical Engine. ".repeat(150), schema: z.object({ same: z.boolean() }), name: "pair_verdict", what: "the pair verdict" },
    ingestRun(),
  );
  expect(verdict).toEqual({ same: false });
}

let server: ScriptedServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe("a question on a model that counts more tokens than estimated", () => {
  it("packs its passages by the provider's measure, so the question fits the window the adapter plans with the answer's whole limit", async () => {
    server = await startScriptedServer({ protocol: "ollama", script: SCRIPT, models: SERVER_MODELS.ollama, charsPerToken: DENSE });
    const provider = createProvider("ollama", envFor("ollama", server));
    await calibrated(provider);
    expect(provider.promptTokenRatio?.()).toBeGreaterThan(1.5);

    const { vault, retriever } = wiki();
    const settings: Settings = { ...structuredClone(DEFAULT_SETTINGS), tokenBudget: 0 };
    const report = await askWiki({ vault, provider, retriever, settings }, { question: QUESTION });
    expect(report.error).toBeNull();
    expect(report.answer).toBe(ANSWER);
    // The window is what limited the passages: some were left out, as many as it holds were sent.
    expect(report.leftOut).toBeGreaterThan(0);
    expect(report.passages.length).toBeGreaterThan(2);

    const question = server.modelRequests()[1]!;
    const options = (question.body as OllamaBody).options ?? {};
    expect(question.promptCut).toBe(false);
    // The answer keeps its whole limit, and the window holds the prompt as the server counted it and the answer.
    expect(options.num_predict).toBe(1024);
    expect(options.num_ctx).toBeLessThanOrEqual(8192);
    expect(options.num_ctx).toBeGreaterThanOrEqual(question.promptTokens! + options.num_predict!);
  });
});
