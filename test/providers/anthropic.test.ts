/** What only the Anthropic backend does: tool vs output_config structured output, stream errors, readiness. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createRunContext } from "../../src/core/run-context";
import { createProvider } from "../../src/providers/factory";
import { checkReadiness } from "../../src/providers/readiness";
import type { ScriptedServer } from "../helpers/scripted-server";
import { API_KEY, REPLIES, collect, content, envFor, failure, ingestRun, startServer } from "./harness";

describe("Anthropic backend", () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startServer("anthropic");
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  it("asks for structured output with a forced tool call by default", async () => {
    server.setScript([content(REPLIES.analysis)]);
    const provider = createProvider("anthropic", envFor("anthropic", server));
    expect(provider.capabilities()).toMatchObject({ name: "anthropic", mode: "api", structuredOutput: "tool_call", streaming: true, maxContext: 200_000, isLocal: false });
    const analysis = await provider.analyze("text", "", ingestRun());
    expect(analysis.title).toBe("Introduction to Bases");
    const body = server.modelRequests()[0]!.body as Record<string, unknown>;
    expect(body.tool_choice).toEqual({ type: "tool", name: "submit" });
    expect(body.tools).toMatchObject([{ name: "submit", input_schema: { type: "object", additionalProperties: false } }]);
    expect(body).not.toHaveProperty("output_config");
    expect(body.max_tokens).toBe(8192);
    expect(typeof body.system).toBe("string");
  });

  it("uses output_config with a JSON schema when the settings ask for it", async () => {
    server.setScript([content(REPLIES.analysis)]);
    const provider = createProvider("anthropic", envFor("anthropic", server, { profile: { structuredOutput: "json_schema", maxTokens: 2048 } }));
    expect(provider.capabilities().structuredOutput).toBe("json_schema");
    await provider.analyze("text", "", ingestRun());
    const body = server.modelRequests()[0]!.body as Record<string, unknown>;
    expect(body.output_config).toMatchObject({ format: { type: "json_schema", schema: { type: "object" } } });
    expect(body).not.toHaveProperty("tools");
    expect(body.max_tokens).toBe(2048);
  });

  it("asks again with more output tokens when a forced tool call is cut off at max_tokens", async () => {
    server.setScript([{ kind: "content", text: '{"title": "Intro', finish: "length" }, { kind: "content", text: REPLIES.analysis }]);
    const analysis = await createProvider("anthropic", envFor("anthropic", server)).analyze("text", "", ingestRun());
    expect(analysis.title).toBe((JSON.parse(REPLIES.analysis) as { title: string }).title);
    expect(server.modelRequests().map((r) => (r.body as { max_tokens: number }).max_tokens)).toEqual([8192, 16384]);
  });

  it("treats an overloaded error event inside a stream as transient", async () => {
    server.setScript([{ kind: "stream-error", text: "Half an answ", message: "Overloaded" }]);
    const error = await failure(() => collect(createProvider("anthropic", envFor("anthropic", server)).chat([{ role: "user", content: "hi" }], "", createRunContext())));
    expect(error.kind).toBe("rate_limit");
  });

  it("counts the input of a chat stream cut after message_start, retried or not", async () => {
    // Overloaded before any text (retried), then an answer: both attempts' input was billed.
    server.setScript([{ kind: "stream-error", text: "", message: "Overloaded" }, content("Answer.", { input: 30, output: 12 })]);
    const run = createRunContext();
    expect(await collect(createProvider("anthropic", envFor("anthropic", server)).chat([{ role: "user", content: "hi" }], "", run))).toBe("Answer.");
    expect(server.modelRequests()).toHaveLength(2);
    expect(run.usage.totals()).toEqual({ inputTokens: 10 + 30, outputTokens: 12, calls: 2, estimatedCalls: 0 });
    // Cut after text arrived (not retried): its input still counts.
    server.reset();
    server.setScript([{ kind: "cut", text: "The first part arrives, then the line is cut.", afterChars: 20 }]);
    const cut = createRunContext();
    const error = await failure(() => collect(createProvider("anthropic", envFor("anthropic", server)).chat([{ role: "user", content: "hi" }], "", cut)));
    expect(error.kind).toBe("transport");
    expect(cut.usage.totals()).toEqual({ inputTokens: 10, outputTokens: 0, calls: 1, estimatedCalls: 0 });
  });

  it("sends chat system text separately from the turns", async () => {
    server.setScript([content("Answer.")]);
    await collect(createProvider("anthropic", envFor("anthropic", server)).chat([{ role: "user", content: "What is a base?" }], "Bases: views.", createRunContext()));
    const body = server.modelRequests()[0]!.body as { system: string; messages: { role: string }[] };
    expect(body.system).toContain("Bases: views.");
    expect(body.messages.map((m) => m.role)).toEqual(["user"]);
  });

  it("lists the offered models in the readiness check and matches dated ids to aliases", async () => {
    const report = await checkReadiness("anthropic", envFor("anthropic", server));
    expect(report).toMatchObject({ provider: "anthropic", ok: true, reachable: true, modelPresent: true });
    expect(report.models.map((m) => m.name)).toEqual(["claude-haiku-4-5-20251001", "claude-opus-4-6"]);
    expect(server.requests[0]).toMatchObject({ method: "GET", path: "/v1/models" });
  });

  it("reports a rejected key in the readiness check without showing it", async () => {
    server.setOverride("/v1/models", { kind: "status", status: 401, message: `invalid x-api-key ${API_KEY}` });
    const report = await checkReadiness("anthropic", envFor("anthropic", server));
    expect(report.ok).toBe(false);
    expect(report.reachable).toBe(true);
    expect(report.problems.join(" ")).toMatch(/rejected the API key/);
    expect(JSON.stringify(report)).not.toContain(API_KEY);
  });

  it("refuses to build without a key, naming where to put it", () => {
    expect(() => createProvider("anthropic", envFor("anthropic", server, { key: null }))).toThrow(/ANTHROPIC_API_KEY/);
    expect(server.requests).toHaveLength(0);
  });
});
