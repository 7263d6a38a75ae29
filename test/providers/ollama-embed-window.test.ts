/**
 * Ollama's /api/embed under the window rules: each request asks for a num_ctx that holds its texts
 * (within the embedding model's own length), a text longer than the model's window is cut by us,
 * and `truncate: false` keeps the server from cutting anything silently.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isEmbeddingProvider } from "../../src/providers/embedding";
import { createProvider } from "../../src/providers/factory";
import { planEmbedding } from "../../src/providers/ollama/embed-window";
import { startScriptedServer, type ScriptedServer } from "../helpers/scripted-server";
import { envFor, ingestRun, noteText } from "./harness";

const MODELS = [
  { name: "llama3.1:8b", capabilities: ["completion"], contextLength: 131072 },
  // nomic-embed-text reads 2,048 tokens at most.
  { name: "nomic-embed-text:latest", capabilities: ["embedding"], contextLength: 2048 },
];

describe("Ollama embedding requests", () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startScriptedServer({ protocol: "ollama", models: MODELS, defaultNumCtx: 4096 });
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  function embedder() {
    const provider = createProvider("ollama", envFor("ollama", server, { profile: { embeddingModel: "nomic-embed-text" } }));
    if (!isEmbeddingProvider(provider)) throw new Error("Ollama embeds");
    return provider;
  }

  it("ask for a window that holds their texts, and say truncate false", async () => {
    await embedder().embed(["A short note about Bases.", noteText()], ingestRun());
    const [request] = server.embedRequests();
    const body = request!.body as { truncate?: unknown; options?: { num_ctx?: number } };
    expect(body.truncate).toBe(false);
    expect(body.options?.num_ctx).toBeGreaterThanOrEqual(1024);
    expect(body.options!.num_ctx! % 1024).toBe(0);
    expect(request!.promptCut).toBe(false);
  });

  it("cut a text longer than the embedding model's window themselves, so the server neither cuts nor refuses it", async () => {
    const long = noteText().repeat(Math.ceil(40_000 / noteText().length));
    const [vector] = await embedder().embed([long], ingestRun());
    expect(vector!.length).toBeGreaterThan(0);
    const [request] = server.embedRequests();
    const sent = (request!.body as { input: string[] }).input[0]!;
    expect(sent.length).toBeLessThan(long.length);
    expect(long.startsWith(sent)).toBe(true);
    expect((request!.body as { options: { num_ctx: number } }).options.num_ctx).toBeLessThanOrEqual(2048);
    expect(request!.promptCut).toBe(false);
  });
});

describe("the embedding plan", () => {
  it("keeps every text within the window, on a word boundary when one is near", () => {
    const plan = planEmbedding(["word ".repeat(5000)], 8192, 2048);
    expect(plan.numCtx).toBe(2048);
    expect(plan.texts[0]!.length).toBeLessThanOrEqual((2048 - 64) * 3);
    expect(plan.texts[0]!.endsWith("word")).toBe(true);
  });
});
