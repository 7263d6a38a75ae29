/** What only the Ollama backend does: readiness over /api/*, model info, embeddings, isLocal by host. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createRunContext } from "../../src/core/run-context";
import { problemsOn } from "../../src/core/readiness";
import { isEmbeddingProvider } from "../../src/providers/embedding";
import { fakeEmbedding } from "../helpers/fake-embedding";
import { createOllama, createProvider } from "../../src/providers/factory";
import { checkReadiness } from "../../src/providers/readiness";
import type { ScriptedServer } from "../helpers/scripted-server";
import { startScriptedServer } from "../helpers/scripted-server";
import { REPLIES, collect, urlOf, content, envFor, failure, ingestRun, redirectingFetch, startServer } from "./harness";

describe("Ollama backend", () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startServer("ollama");
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  describe("readiness", () => {
    it("lists installed models with their capabilities and confirms the configured one", async () => {
      const report = await checkReadiness("ollama", envFor("ollama", server));
      expect(report.ok).toBe(true);
      expect(report.reachable).toBe(true);
      expect(report.version).toBe("0.12.3");
      expect(report.models).toEqual([
        { name: "llama3.1:8b", capabilities: ["completion", "tools"] },
        { name: "nomic-embed-text:latest", capabilities: ["embedding"] },
      ]);
      expect(report.modelPresent).toBe(true);
      expect(report.details.join("\n")).toContain("context 131072 tokens");
      // The window requests run in, which Ollama would otherwise choose itself (4,096 or 2,048).
      expect(report.details).toContain('Context window in use: each request asks for what it needs, up to 8192 tokens (setting "Context window").');
      expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /api/version", "GET /api/tags", "POST /api/show", "POST /api/show"]);
    });

    it("shows the window in use bounded by a model smaller than the setting", async () => {
    const small = await startScriptedServer({ protocol: "ollama", models: [{ name: "qwen2:0.5b", capabilities: ["completion"], contextLength: 4096 }] });
    try {
      const report = await checkReadiness("ollama", envFor("ollama", small, { model: "qwen2:0.5b", profile: { contextWindow: 16_384 } }));
      expect(report.details).toContain(`Context window in use: each request asks for what it needs, up to 4096 tokens (the model's own limit; "Context window" is 16384).`);
    } finally {
      await small.close();
    }
  });

  it("says how to install a missing model and never pulls it", async () => {
      const report = await checkReadiness("ollama", envFor("ollama", server, { model: "qwen3:4b" }));
      expect(report.ok).toBe(false);
      expect(report.modelPresent).toBe(false);
      expect(report.problems.join("\n")).toContain("run `ollama pull qwen3:4b`");
      expect(report.problems.join("\n")).toContain("llama3.1:8b, nomic-embed-text:latest");
      expect(server.requests.some((r) => r.path === "/api/pull")).toBe(false);
    });

    it("cross-checks a declared tools claim against the model's reported capabilities", async () => {
      const other = await startScriptedServer({ protocol: "ollama", models: [{ name: "gemma2:2b", capabilities: ["completion"] }] });
      try {
        const env = envFor("ollama", other, { model: "gemma2:2b", profile: { supportsTools: true } });
        const report = await checkReadiness("ollama", env);
        expect(report.ok).toBe(false);
        expect(report.problems.join("\n")).toMatch(/supports tools, but the model reports no tool support/);
        // The adapter does not keep a claim the model contradicts once it has read /api/show.
        const provider = createOllama(env);
        expect(provider.capabilities().supportsTools).toBe(true);
        await provider.modelInfo(createRunContext());
        expect(provider.capabilities().supportsTools).toBe(false);
      } finally {
        await other.close();
      }
    });

    it("checks the configured embedding model", async () => {
      const missing = await checkReadiness("ollama", envFor("ollama", server, { profile: { embeddingModel: "mxbai-embed-large" } }));
      expect(missing.problems.join("\n")).toContain("run `ollama pull mxbai-embed-large`");
      const wrongKind = await checkReadiness("ollama", envFor("ollama", server, { profile: { embeddingModel: "llama3.1:8b" } }));
      expect(wrongKind.problems.join("\n")).toContain("does not report embedding support");
      const fine = await checkReadiness("ollama", envFor("ollama", server, { profile: { embeddingModel: "nomic-embed-text" } }));
      expect(fine.ok).toBe(true);
    });

    it("reports an unreachable server in words, without throwing", async () => {
      const gone = await startScriptedServer({ protocol: "ollama" });
      const env = envFor("ollama", gone);
      await gone.close();
      const report = await checkReadiness("ollama", env);
      expect(report).toMatchObject({ ok: false, reachable: false, models: [] });
      expect(report.problems[0]).toMatch(/Could not reach Ollama at http:\/\/127\.0\.0\.1:\d+.*ollama serve/);
      // Obsidian names the setting as its section does, without the CLI's flag.
      expect(problemsOn(report, "plugin")[0]).toMatch(/that "Host" under Local: Ollama is right\. Start it with `ollama serve`/);
      expect(problemsOn(report, "plugin")[0]).not.toContain("--base-url");
    });
  });

  it("declares isLocal only for loopback hosts", () => {
    const local = (host: string) => createProvider("ollama", envFor("ollama", server, { url: host })).capabilities().isLocal;
    expect(local("http://127.0.0.1:11434")).toBe(true);
    expect(local("http://localhost:11434")).toBe(true);
    expect(local("http://[::1]:11434")).toBe(true);
    expect(local("http://192.168.1.20:11434")).toBe(false);
    expect(local("http://0.0.0.0:11434")).toBe(false);
    expect(local("https://ollama.example.com")).toBe(false);
  });

  it("never declares Ollama's cloud models local, even through a server on this machine", () => {
    const local = (model: string) => createProvider("ollama", envFor("ollama", server, { url: "http://127.0.0.1:11434", model })).capabilities().isLocal;
    expect(local("gpt-oss:120b-cloud")).toBe(false);
    expect(local("deepseek-v3.1:cloud")).toBe(false);
    expect(local("llama3.1:8b")).toBe(true);
    expect(local("cloudy-model:7b")).toBe(true);
  });

  it("declares the context window requests may ask for: the setting, within the model's own, or num_ctx when pinned", async () => {
    server.setScript([content(REPLIES.analysis)]);
    const provider = createProvider("ollama", envFor("ollama", server, { profile: { contextWindow: 16_384 } }));
    expect(provider.capabilities().maxContext).toBe(16_384);
    await provider.analyze("text", "", ingestRun());
    expect(provider.capabilities().maxContext).toBe(16_384);
    expect(server.requests.filter((r) => r.path === "/api/show")).toHaveLength(1);
    await provider.analyze("text", "", ingestRun());
    expect(server.requests.filter((r) => r.path === "/api/show")).toHaveLength(1);
    // A model with a smaller window than the setting bounds it, once /api/show has said so.
    const small = await startScriptedServer({ protocol: "ollama", script: [content(REPLIES.analysis)], models: [{ name: "llama3.1:8b", contextLength: 4096 }] });
    try {
      const bounded = createProvider("ollama", envFor("ollama", small));
      await bounded.analyze("text", "", ingestRun());
      expect(bounded.capabilities().maxContext).toBe(4096);
    } finally {
      await small.close();
    }
    const pinned = createProvider("ollama", envFor("ollama", server, { profile: { options: { num_ctx: 12_288 } } }));
    expect(pinned.capabilities().maxContext).toBe(12_288);
  });

  it("sends the JSON schema in `format` and states it in the prompt", async () => {
    server.setScript([content(REPLIES.analysis)]);
    await createProvider("ollama", envFor("ollama", server)).analyze("text", "", ingestRun());
    const body = server.modelRequests()[0]!.body as { format: Record<string, unknown>; messages: { content: string }[] };
    expect(body.format).toMatchObject({ type: "object", required: ["title", "language", "summary", "topics", "entities", "concepts"] });
    expect(body.format).not.toHaveProperty("$schema");
    expect(body.messages[0]!.content).toContain('"required":["title","language","summary","topics","entities","concepts"]');
  });

  it("reports an {\"error\"} line inside a stream as a transport failure", async () => {
    server.setScript([{ kind: "stream-error", text: "Partial answer", message: "llama runner process has terminated" }]);
    const provider = createProvider("ollama", envFor("ollama", server));
    const error = await failure(() => collect(provider.chat([{ role: "user", content: "hi" }], "", createRunContext())));
    expect(error.kind).toBe("transport");
    expect(error.message).toContain("llama runner process has terminated");
  });

  it("reports a refused connection as transport", async () => {
    const gone = await startScriptedServer({ protocol: "ollama" });
    const env = envFor("ollama", gone, { retry: { maxAttempts: 1 } });
    await gone.close();
    const error = await failure(() => createProvider("ollama", env).analyze("text", "", ingestRun()));
    expect(error.kind).toBe("transport");
    expect(error.message).toMatch(/Could not reach Ollama/);
  });

  describe("embeddings", () => {
    it("embeds with the configured embedding model and records usage", async () => {
      const provider = createProvider("ollama", envFor("ollama", server, { profile: { embeddingModel: "nomic-embed-text" } }));
      expect(provider.capabilities().supportsEmbeddings).toBe(true);
      expect(isEmbeddingProvider(provider)).toBe(true);
      if (!isEmbeddingProvider(provider)) return;
      const run = createRunContext();
      const vectors = await provider.embed(["Bases show notes as tables", "Canvas"], run);
      expect(vectors).toEqual([fakeEmbedding("Bases show notes as tables"), fakeEmbedding("Canvas")]);
      // The embedding model's /api/show first (its window), then the request.
      const [request] = server.embedRequests();
      expect(request).toMatchObject({ method: "POST", path: "/api/embed", body: { model: "nomic-embed-text", input: ["Bases show notes as tables", "Canvas"] } });
      expect(run.usage.entries).toEqual([{ provider: "ollama", model: "nomic-embed-text", operation: "embed", inputTokens: 6, outputTokens: 0 }]);
    });

    it("refuses to embed without an embedding model, sending nothing", async () => {
      const provider = createOllama(envFor("ollama", server));
      expect(provider.capabilities().supportsEmbeddings).toBe(false);
      const error = await failure(() => provider.embed(["text"], createRunContext()));
      expect(error.kind).toBe("capability");
      expect(server.requests).toHaveLength(0);
    });

    it("names the missing embedding model", async () => {
      const provider = createOllama(envFor("ollama", server, { profile: { embeddingModel: "mxbai-embed-large" } }));
      const error = await failure(() => provider.embed(["text"], createRunContext()));
      expect(error.kind).toBe("request");
      expect(error.message).toContain("ollama pull mxbai-embed-large");
    });
  });

  it("reaches a remote Ollama through the injected transport, declaring it not local", async () => {
    server.setScript([content(REPLIES.analysis)]);
    const asked: string[] = [];
    const redirect = redirectingFetch(server);
    const provider = createProvider("ollama", envFor("ollama", server, { url: "http://gpu-box.lan:11434", fetch: (input, init) => (asked.push(urlOf(input)), redirect(input, init)) }));
    expect(provider.capabilities().isLocal).toBe(false);
    await provider.analyze("text", "", ingestRun());
    expect(asked).toEqual(["http://gpu-box.lan:11434/api/show", "http://gpu-box.lan:11434/api/chat"]);
    expect(server.requests.map((r) => r.path)).toEqual(["/api/show", "/api/chat"]);
  });
});
