/** What only the OpenAI-compatible backend does: strict json_schema, the prompt fallback, presets, readiness. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createProvider } from "../../src/providers/factory";
import { checkReadiness } from "../../src/providers/readiness";
import type { ScriptedServer } from "../helpers/scripted-server";
import { ANALYSIS, REPLIES, content, envFor, failure, ingestRun, promptSent, redirectingFetch, startServer } from "./harness";

type Schema = { type?: string; properties?: Record<string, Schema>; required?: string[]; additionalProperties?: boolean; items?: Schema };

/** Strict mode: every object lists all its properties as required and allows no others. */
function assertStrict(schema: Schema, path = "$"): void {
  if (schema.type === "object") {
    expect(schema.additionalProperties, path).toBe(false);
    expect([...(schema.required ?? [])].sort(), path).toEqual(Object.keys(schema.properties ?? {}).sort());
    for (const [name, sub] of Object.entries(schema.properties ?? {})) assertStrict(sub, `${path}.${name}`);
  }
  if (schema.items) assertStrict(schema.items, `${path}[]`);
}

describe("OpenAI-compatible backend", () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startServer("openai");
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  it("asks for strict json_schema output with a strict-mode-safe schema", async () => {
    server.setScript([content(REPLIES.analysis), content(REPLIES.pages)]);
    const provider = createProvider("openai", envFor("openai", server));
    await provider.analyze("text", "", ingestRun());
    await provider.generate({ analysis: ANALYSIS, note: "", related: "" }, ingestRun());
    for (const request of server.modelRequests()) {
      const format = (request.body as { response_format: { type: string; json_schema: { name: string; strict: boolean; schema: Schema } } }).response_format;
      expect(format.type).toBe("json_schema");
      expect(format.json_schema.strict).toBe(true);
      expect(format.json_schema.schema).not.toHaveProperty("$schema");
      assertStrict(format.json_schema.schema);
      expect((request.body as Record<string, unknown>).max_tokens).toBe(8192);
    }
  });

  it("falls back to prompt-described JSON when the server rejects response_format, and remembers", async () => {
    server.setScript([
      { kind: "status", status: 400, message: "'response_format.type' : value is not one of the allowed values ['text','json_object']" },
      content(REPLIES.analysis),
      content(REPLIES.pagesFenced),
    ]);
    const provider = createProvider("openai", envFor("openai", server));
    expect(provider.capabilities().structuredOutput).toBe("json_schema");
    await provider.analyze("text", "", ingestRun());
    const pages = await provider.generate({ analysis: ANALYSIS, note: "", related: "" }, ingestRun());
    expect(pages).toHaveLength(2);
    const [rejected, retried, later] = server.modelRequests();
    expect(rejected!.body).toHaveProperty("response_format");
    expect(retried!.body).not.toHaveProperty("response_format");
    expect(promptSent(retried!.body)).toContain("follows this JSON Schema");
    expect(later!.body).not.toHaveProperty("response_format");
    expect(provider.capabilities().structuredOutput).toBe("none");
  });

  it("parses a reply from a server that ignores response_format and answers in prose", async () => {
    server.setScript([content(REPLIES.pagesFenced)]);
    const pages = await createProvider("openai", envFor("openai", server)).generate({ analysis: ANALYSIS, note: "", related: "" }, ingestRun());
    expect(pages.map((p) => p.type)).toEqual(["source", "concept"]);
  });

  it("skips response_format when the settings say the server cannot do it", async () => {
    server.setScript([content(REPLIES.analysis)]);
    await createProvider("openai", envFor("openai", server, { profile: { structuredOutput: "prompt" } })).analyze("text", "", ingestRun());
    expect(server.modelRequests()[0]!.body).not.toHaveProperty("response_format");
  });

  it("does not mistake other 400s for a response_format rejection", async () => {
    server.setScript([{ kind: "status", status: 400, message: "This model's maximum context length is 8192 tokens." }]);
    const error = await failure(() => createProvider("openai", envFor("openai", server)).analyze("text", "", ingestRun()));
    expect(error.kind).toBe("context");
    expect(error.message).toMatch(/too long for gpt-4\.1-mini's context window/);
    expect(server.modelRequests()).toHaveLength(1);
  });

  it("talks to OpenAI itself with max_completion_tokens and as a remote provider", async () => {
    server.setScript([content(REPLIES.analysis)]);
    const provider = createProvider("openai", envFor("openai", server, { url: "https://api.openai.com/v1", fetch: redirectingFetch(server) }));
    expect(provider.capabilities()).toMatchObject({ isLocal: false, supportsTools: true, maxContext: 1_047_576 });
    await provider.analyze("text", "", ingestRun());
    const body = server.modelRequests()[0]!.body as Record<string, unknown>;
    expect(body.max_completion_tokens).toBe(8192);
    expect(body).not.toHaveProperty("max_tokens");
  });

  it("needs a key for hosted services but not for a local server", () => {
    expect(() => createProvider("openai", envFor("openai", server, { key: null, url: "https://openrouter.ai/api/v1" }))).toThrow(/OPENAI_API_KEY/);
    expect(createProvider("openai", envFor("openai", server, { key: null })).capabilities().isLocal).toBe(true);
  });

  it("lists models in the readiness check, with OpenRouter-style supported parameters", async () => {
    const report = await checkReadiness("openai", envFor("openai", server));
    expect(report).toMatchObject({ provider: "openai", ok: true, reachable: true, modelPresent: true });
    expect(report.models).toEqual([
      { name: "gpt-4.1-mini", capabilities: [] },
      { name: "gpt-4o", capabilities: [] },
    ]);
    const missing = await checkReadiness("openai", envFor("openai", server, { model: "gpt-9" }));
    expect(missing).toMatchObject({ ok: false, modelPresent: false });
    expect(missing.problems[0]).toContain('"gpt-9"');
  });

  it("reports a server that is not there", async () => {
    const env = envFor("openai", server, { url: "http://127.0.0.1:9/v1" });
    const report = await checkReadiness("openai", env);
    expect(report).toMatchObject({ ok: false, reachable: false });
    expect(report.problems[0]).toMatch(/Could not reach/);
  });
});
