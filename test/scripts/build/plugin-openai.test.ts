/**
 * The OpenAI-compatible backend as main.js bundles it: built with the plugin's own esbuild options
 * (scripts/build/openai-used-parts.mjs leaves the client's unused parts out), then driven
 * against the scripted OpenAI server for everything the plugin asks of the SDK — a structured
 * request (streamed), a refusal, an error status, embeddings, the readiness check's model list —
 * and, for the batch path, files and batches.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type * as Factory from "../../../src/providers/factory";
import type * as Readiness from "../../../src/providers/readiness";
import { bundleAsPlugin } from "../../helpers/plugin-bundle";
import { startScriptedServer, type ScriptedServer } from "../../helpers/scripted-server";
import { ANALYSIS, REPLIES, SERVER_MODELS, content, envFor, failure, ingestRun } from "../../providers/harness";

interface Bundled {
  createProvider: typeof Factory.createProvider;
  createOpenAI: typeof Factory.createOpenAI;
  openaiClient: typeof Factory.openaiClient;
  checkReadiness: typeof Readiness.checkReadiness;
}

/** The factory and the readiness check, bundled as main.js bundles them. */
async function bundleFactory(): Promise<Bundled> {
  const entry = `export { createProvider, createOpenAI, openaiClient } from "./src/providers/factory";\nexport { checkReadiness } from "./src/providers/readiness";`;
  return (await bundleAsPlugin(entry)) as unknown as Bundled;
}

describe("the OpenAI-compatible backend as bundled in main.js", () => {
  let bundled: Bundled;
  let server: ScriptedServer;
  beforeAll(async () => {
    [bundled, server] = await Promise.all([bundleFactory(), startScriptedServer({ protocol: "openai", models: [...SERVER_MODELS.openai, { name: "text-embedding-3-small" }] })]);
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  it("sends structured requests, streamed, and reads the replies", async () => {
    server.setScript([content(REPLIES.analysis), content(REPLIES.pages)]);
    const provider = bundled.createProvider("openai", envFor("openai", server));
    expect(await provider.analyze("text", "", ingestRun())).toEqual(ANALYSIS);
    const pages = await provider.generate({ analysis: ANALYSIS, note: "", related: "" }, ingestRun());
    expect(pages.length).toBeGreaterThan(0);
    const requests = server.modelRequests();
    expect(requests).toHaveLength(2);
    expect(requests.map((r) => (r.body as { stream?: boolean }).stream)).toEqual([true, true]);
  });

  it("maps a refusal and an error status to Synapse's errors", async () => {
    server.setScript([{ kind: "refusal" }]);
    const refused = await failure(() => bundled.createProvider("openai", envFor("openai", server)).analyze("text", "", ingestRun()));
    expect(refused.kind).toBe("refusal");
    server.setScript([{ kind: "status", status: 401 }]);
    const denied = await failure(() => bundled.createProvider("openai", envFor("openai", server)).analyze("text", "", ingestRun()));
    expect(denied).toMatchObject({ kind: "request", status: 401 });
    expect(denied.message).toMatch(/API key/);
  });

  it("embeds through /v1/embeddings", async () => {
    server.setEmbed([{ kind: "vectors" }]);
    const provider = bundled.createOpenAI(envFor("openai", server), "text-embedding-3-small");
    const vectors = await provider.embed(["Bases show notes as tables", "Canvas is a board"], ingestRun());
    expect(vectors).toHaveLength(2);
    expect(server.requests.filter((r) => r.path === "/v1/embeddings")).toHaveLength(1);
  });

  it("lists the server's models in the readiness check", async () => {
    const report = await bundled.checkReadiness("openai", envFor("openai", server));
    expect(report).toMatchObject({ ok: true, reachable: true, modelPresent: true });
    expect(report.models.map((m) => m.name)).toEqual(["gpt-4.1-mini", "gpt-4o", "text-embedding-3-small"]);
  });

  it("keeps files and batches for the batch path, and builds the rest as empty stand-ins", async () => {
    const sent: string[] = [];
    const reply = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
    const transport: typeof fetch = (input, init) => {
      // The SDK first fetches a data: URL to learn whether this fetch can send FormData.
      const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
      if (url.protocol !== "data:") sent.push(`${init?.method ?? "GET"} ${url.pathname}`);
      return Promise.resolve(reply({ id: "x", object: "file" }));
    };
    const env = envFor("openai", server);
    const client = await bundled.openaiClient(env, new URL(`${server.url}/v1`), "key", transport);
    await client.files.create({ file: new File(["{}\n"], "requests.jsonl"), purpose: "batch" });
    await client.files.retrieve("file-1");
    await client.files.content("file-1");
    await client.batches.create({ input_file_id: "file-1", endpoint: "/v1/chat/completions", completion_window: "24h" });
    await client.batches.retrieve("batch-1");
    expect(sent).toEqual(["POST /v1/files", "GET /v1/files/file-1", "GET /v1/files/file-1/content", "POST /v1/batches", "GET /v1/batches/batch-1"]);
    // What main.js leaves out: the Responses and Beta (Assistants) resources are there only by name.
    expect(typeof (client.responses as { create?: unknown }).create).toBe("undefined");
    expect(typeof (client.beta as { assistants?: unknown }).assistants).toBe("undefined");
    // The SDK's own chat helpers (Synapse reads the stream itself) say so if anything calls them.
    expect(() => client.chat.completions.stream({ model: "m", messages: [] })).toThrow(/chat\.completions\.stream is not part of the Synapse plugin's openai client/);
  });
});
