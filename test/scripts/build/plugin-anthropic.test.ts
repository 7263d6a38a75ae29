/**
 * The Anthropic backend as main.js bundles it: built with the plugin's own esbuild options
 * (scripts/build/anthropic-used-parts.mjs leaves the SDK's credential chain out, since Synapse
 * always passes the key), then driven against the scripted Anthropic server: a structured request,
 * a streamed chat, an error status, the readiness check's model list, with and without a key, and
 * the message batches the batch path uses.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createRunContext } from "../../../src/core/run-context";
import type * as Factory from "../../../src/providers/factory";
import type * as Readiness from "../../../src/providers/readiness";
import { bundleAsPlugin } from "../../helpers/plugin-bundle";
import type { ScriptedServer } from "../../helpers/scripted-server";
import { API_KEY, REPLIES, collect, content, envFor, failure, ingestRun, startServer } from "../../providers/harness";

interface Bundled {
  createProvider: typeof Factory.createProvider;
  anthropicClient: typeof Factory.anthropicClient;
  checkReadiness: typeof Readiness.checkReadiness;
}

describe("the Anthropic backend as bundled in main.js", () => {
  let bundled: Bundled;
  let server: ScriptedServer;
  beforeAll(async () => {
    const entry = `export { anthropicClient, createProvider } from "./src/providers/factory";\nexport { checkReadiness } from "./src/providers/readiness";`;
    [bundled, server] = await Promise.all([bundleAsPlugin(entry) as Promise<unknown> as Promise<Bundled>, startServer("anthropic")]);
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  it("sends a structured request with the key and reads the forced tool call", async () => {
    server.setScript([content(REPLIES.analysis)]);
    const analysis = await bundled.createProvider("anthropic", envFor("anthropic", server)).analyze("text", "", ingestRun());
    expect(analysis.title).toBe("Introduction to Bases");
    // SDK 1.x sends the key as a bearer token.
    expect(server.modelRequests()[0]?.headers.authorization).toBe(`Bearer ${API_KEY}`);
  });

  it("streams a chat and maps an error status", async () => {
    server.setScript([content("Bases are tables of notes.")]);
    const provider = bundled.createProvider("anthropic", envFor("anthropic", server));
    expect(await collect(provider.chat([{ role: "user", content: "hi" }], "", createRunContext()))).toBe("Bases are tables of notes.");
    server.setScript([{ kind: "status", status: 401, message: "invalid x-api-key" }]);
    const denied = await failure(() => provider.analyze("text", "", ingestRun()));
    expect(denied).toMatchObject({ kind: "request", status: 401 });
  });

  it("lists the offered models in the readiness check, and without a key reports the rejection, never the credential chain", async () => {
    const report = await bundled.checkReadiness("anthropic", envFor("anthropic", server));
    expect(report).toMatchObject({ ok: true, reachable: true, modelPresent: true });
    expect(report.models.map((m) => m.name)).toEqual(["claude-haiku-4-5-20251001", "claude-opus-4-6"]);
    server.setOverride("/v1/models", { kind: "status", status: 401, message: "invalid x-api-key" });
    const keyless = await bundled.checkReadiness("anthropic", envFor("anthropic", server, { key: null }));
    expect(keyless.ok).toBe(false);
    expect(keyless.problems.join(" ")).not.toMatch(/credential chain/);
  });

  it("keeps the message batches for the batch path", async () => {
    const sent: string[] = [];
    const transport: typeof fetch = (input, init) => {
      const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
      sent.push(`${init?.method ?? "GET"} ${url.pathname}`);
      return Promise.resolve(new Response(JSON.stringify({ id: "msgbatch_1", type: "message_batch" }), { status: 200, headers: { "content-type": "application/json" } }));
    };
    const client = await bundled.anthropicClient(envFor("anthropic", server), new URL(server.url), API_KEY, transport);
    await client.messages.batches.create({ requests: [{ custom_id: "a", params: { model: "claude-haiku-4-5", max_tokens: 10, messages: [{ role: "user", content: "hi" }] } }] });
    await client.messages.batches.retrieve("msgbatch_1");
    await client.messages.batches.cancel("msgbatch_1");
    expect(sent).toEqual(["POST /v1/messages/batches", "GET /v1/messages/batches/msgbatch_1", "POST /v1/messages/batches/msgbatch_1/cancel"]);
  });
});
