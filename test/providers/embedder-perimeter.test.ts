/**
 * Embedding sends note text to a provider, so it passes the perimeter like every other call:
 * under local-only mode an embedder that would send text off this machine is refused before any
 * request, and a local one works. The remote-looking servers are the scripted one on 127.0.0.1
 * reached through a redirecting transport, so the wire shows whether anything was sent.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SynapseError } from "../../src/core/errors";
import { createEmbedder } from "../../src/providers/embedder";
import { startScriptedServer, type ScriptedServer } from "../helpers/scripted-server";
import { envFor, redirectingFetch, SERVER_MODELS } from "./harness";

function refusal(run: () => unknown): SynapseError {
  try {
    run();
  } catch (error) {
    if (SynapseError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected the embedder to be refused");
}

describe("embeddings under local-only mode", () => {
  let openai: ScriptedServer;
  let ollama: ScriptedServer;
  beforeAll(async () => {
    openai = await startScriptedServer({ protocol: "openai", models: [...SERVER_MODELS.openai, { name: "text-embedding-3-small" }] });
    ollama = await startScriptedServer({ protocol: "ollama", models: [...SERVER_MODELS.ollama, { name: "nomic-embed-text" }, { name: "embed:cloud" }] });
  });
  afterAll(async () => {
    await openai.close();
    await ollama.close();
  });
  beforeEach(() => {
    for (const server of [openai, ollama]) {
      server.reset();
      server.setEmbed([{ kind: "vectors" }]);
    }
  });

  const remoteOpenAI = (localOnly: boolean) =>
    envFor("openai", openai, {
      fetch: redirectingFetch(openai),
      url: "https://api.openai.com/v1",
      settings: { localOnly, embedding: { provider: "openai", model: "text-embedding-3-small" } },
    });

  it("refuses a remote OpenAI-compatible embedder with a perimeter error, and sends nothing", () => {
    const error = refusal(() => createEmbedder(remoteOpenAI(true)));
    expect(error.kind).toBe("perimeter");
    expect(error.message).toMatch(/Local-only mode is on/);
    expect(openai.embedRequests()).toHaveLength(0);
  });

  it("refuses an Ollama cloud embedding model, even on a loopback host", () => {
    const env = envFor("ollama", ollama, { settings: { localOnly: true, embedding: { provider: "ollama", model: "embed:cloud" } } });
    expect(refusal(() => createEmbedder(env)).kind).toBe("perimeter");
    expect(ollama.embedRequests()).toHaveLength(0);
  });

  it("lets a local embedder embed", async () => {
    const env = envFor("ollama", ollama, { settings: { localOnly: true, embedding: { provider: "ollama", model: "nomic-embed-text" } } });
    const embedder = createEmbedder(env);
    await expect(embedder?.embed(["a private note"])).resolves.toHaveLength(1);
    expect(ollama.embedRequests()).toHaveLength(1);
  });

  it("lets a remote embedder embed when local-only mode is off", async () => {
    const embedder = createEmbedder(remoteOpenAI(false));
    await expect(embedder?.embed(["a shareable note"])).resolves.toHaveLength(1);
    expect(openai.embedRequests()).toHaveLength(1);
  });
});
