/**
 * The vector backend's providers: Ollama /api/embed through ollama-js and OpenAI-compatible
 * /v1/embeddings through the openai SDK, each against a scripted server on 127.0.0.1 — the happy
 * path, the server's error cases, and the rule that a provider declaring no embeddings has none.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SynapseError } from "../../src/core/errors";
import { configuredEmbeddingModelId, createEmbedder, embedderOf } from "../../src/providers/embedder";
import { createProvider } from "../../src/providers/factory";
import { fakeEmbedding } from "../helpers/fake-embedding";
import { startScriptedServer, type Protocol, type ScriptedServer } from "../helpers/scripted-server";
import { envFor, failure, SERVER_MODELS, type EnvOptions } from "./harness";

const EMBED_MODEL: Record<"ollama" | "openai", string> = { ollama: "nomic-embed-text", openai: "text-embedding-3-small" };
const EMBED_PATH: Record<"ollama" | "openai", string> = { ollama: "/api/embed", openai: "/v1/embeddings" };

function embedderFor(protocol: "ollama" | "openai", server: ScriptedServer, options: EnvOptions = {}) {
  const embedder = createEmbedder(envFor(protocol, server, { ...options, settings: { embedding: { provider: protocol, model: EMBED_MODEL[protocol] } } }));
  if (!embedder) throw new Error("expected an embedder");
  return embedder;
}

describe.each(["ollama", "openai"] as const)("%s embeddings", (protocol) => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startScriptedServer({ protocol, models: [...SERVER_MODELS[protocol], { name: "text-embedding-3-small" }] });
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.reset();
    server.setEmbed([{ kind: "vectors" }]);
  });

  it("embeds a batch in one request, in order, as Float32Arrays", async () => {
    const embedder = embedderFor(protocol, server);
    expect(embedder.modelId).toBe(`${protocol}:${EMBED_MODEL[protocol]}`);
    const vectors = await embedder.embed(["Bases show notes as tables", "Canvas is a board"]);
    expect(vectors.map((v) => [...v])).toEqual([fakeEmbedding("Bases show notes as tables"), fakeEmbedding("Canvas is a board")].map((v) => [...Float32Array.from(v)]));
    expect(server.embedRequests()).toHaveLength(1);
    expect(server.embedRequests()[0]).toMatchObject({ path: EMBED_PATH[protocol], body: { model: EMBED_MODEL[protocol], input: ["Bases show notes as tables", "Canvas is a board"] } });
    if (protocol === "openai") expect(server.embedRequests()[0]?.body).toMatchObject({ encoding_format: "float" });
  });

  it("names a missing model", async () => {
    server.setEmbed([{ kind: "status", status: 404 }]);
    const error = await failure(() => embedderFor(protocol, server).embed(["text"]));
    expect(error).toBeInstanceOf(SynapseError);
    expect(error.message).toContain(EMBED_MODEL[protocol]);
    expect(server.embedRequests()).toHaveLength(1);
  });

  it("retries a server error, then gives up with a clear error", async () => {
    server.setEmbed([{ kind: "status", status: 500 }]);
    const error = await failure(() => embedderFor(protocol, server).embed(["text"]));
    expect(error.kind).toBe("transport");
    expect(error.message).toMatch(/500|server/i);
    expect(server.embedRequests()).toHaveLength(3);
  });

  it("waits out a 429 as the server's retry-after says, then succeeds", async () => {
    server.setEmbed([{ kind: "status", status: 429, headers: { "retry-after": "0" } }, { kind: "vectors" }]);
    const vectors = await embedderFor(protocol, server).embed(["text"]);
    expect(vectors).toHaveLength(1);
    expect(server.embedRequests()).toHaveLength(2);
  });

  it("refuses a malformed reply", async () => {
    server.setEmbed([{ kind: "raw", body: '{"embeddings": [[0.1, 0.2' }]);
    const error = await failure(() => embedderFor(protocol, server, { retry: { maxAttempts: 1 } }).embed(["a", "b"]));
    expect(error).toBeInstanceOf(SynapseError);
    expect(error.message.length).toBeGreaterThan(10);
  });

  it("refuses a reply whose vectors differ in dimension", async () => {
    server.setEmbed([{ kind: "vectors", wrongAt: 1 }]);
    const error = await failure(() => embedderFor(protocol, server).embed(["a", "b"]));
    expect(error.kind).toBe("schema");
    expect(error.message).toMatch(/different lengths \(256 and 257\)/);
  });

  it("stops when the signal aborts", async () => {
    server.setEmbed([{ kind: "slow", delayMs: 10_000 }]);
    const controller = new AbortController();
    const pending = embedderFor(protocol, server).embed(["text"], controller.signal);
    setTimeout(() => controller.abort(), 20);
    const error = await failure(() => pending);
    expect(error.kind).toBe("cancelled");
  });
});

describe("a provider without an embedding capability has no embedder", () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startScriptedServer({ protocol: "ollama", models: SERVER_MODELS.ollama });
  });
  afterAll(() => server.close());

  it.each(["ollama", "openai", "anthropic", "offline"] as const)("%s with no embedding model", (id: Protocol | "offline") => {
    const env = envFor(id === "offline" ? "ollama" : id, server);
    expect(embedderOf(createProvider(id, env))).toBeNull();
  });

  it("refuses, in local-only mode, an embedding server off this machine, before any request", () => {
    const local = envFor("openai", server, { settings: { embedding: { provider: "openai", model: "text-embedding-3-small" } } });
    const localOnly = { ...local.settings, localOnly: true };
    expect(createEmbedder({ ...local, settings: localOnly })?.modelId).toBe("openai:text-embedding-3-small");
    const remoteOpenAI = { ...localOnly, profiles: { ...localOnly.profiles, openai: { ...localOnly.profiles.openai, preset: "custom" as const, baseUrl: "https://embeddings.example.com/v1" } } };
    expect(() => createEmbedder({ ...local, settings: remoteOpenAI })).toThrow(/^Local-only mode is on .* sends notes off this machine/);
    const remoteOllama = { ...localOnly, embedding: { provider: "ollama" as const, model: "nomic-embed-text" }, profiles: { ...localOnly.profiles, ollama: { ...localOnly.profiles.ollama, host: "http://gpu-box.example.com:11434" } } };
    expect(() => createEmbedder({ ...local, settings: remoteOllama })).toThrow(SynapseError);
    expect(() => createEmbedder({ ...local, settings: { ...remoteOllama, localOnly: false } })).not.toThrow();
    expect(server.requests).toEqual([]);
  });

  it("chooses none by default, and says what is missing when a backend has no model", () => {
    expect(createEmbedder(envFor("ollama", server))).toBeNull();
    expect(() => createEmbedder(envFor("openai", server, { settings: { embedding: { provider: "openai" } } }))).toThrow(/needs an embedding model/);
    expect(() => createEmbedder(envFor("ollama", server, { settings: { embedding: { provider: "ollama" } } }))).toThrow(/needs an embedding model/);
    expect(createEmbedder(envFor("ollama", server, { settings: { embedding: { provider: "ollama" } }, profile: { embeddingModel: "nomic-embed-text" } }))?.modelId).toBe("ollama:nomic-embed-text");
  });

  it("names the configured model without building the embedder, as the embedder names itself", () => {
    const cases: EnvOptions[] = [
      {},
      { settings: { embedding: { provider: "ollama", model: " nomic-embed-text " } } },
      { settings: { embedding: { provider: "ollama", model: "" } }, profile: { embeddingModel: "all-minilm " } },
      { settings: { embedding: { provider: "ollama", model: "mxbai-embed-large" } }, profile: { embeddingModel: "all-minilm" } },
    ];
    for (const options of cases) {
      const env = envFor("ollama", server, options);
      expect(configuredEmbeddingModelId(env.settings)).toBe(createEmbedder(env)?.modelId ?? null);
    }
    const openai = envFor("openai", server, { settings: { embedding: { provider: "openai", model: "text-embedding-3-small " } } });
    expect(configuredEmbeddingModelId(openai.settings)).toBe(createEmbedder(openai)?.modelId);
    // No key, no server needed: the CLI names the vault's model even when it cannot reach it.
    const noKey = envFor("openai", server, { key: null, settings: { embedding: { provider: "openai", model: "text-embedding-3-small" } } });
    expect(configuredEmbeddingModelId(noKey.settings)).toBe("openai:text-embedding-3-small");
    expect(configuredEmbeddingModelId(envFor("openai", server, { settings: { embedding: { provider: "openai" } } }).settings)).toBeNull();
    expect(server.requests).toEqual([]);
  });
});
