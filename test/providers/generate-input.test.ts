/**
 * The page-writing request carries the note itself, beside the analysis: whole when it fits, its
 * best parts within the window when it does not; and an analysis with a made-up language never
 * reaches that request at all.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orchestrate, type OrchestratorOptions } from "../../src/core/orchestrator";
import { createProvider } from "../../src/providers/factory";
import type { Protocol, ScriptedServer } from "../helpers/scripted-server";
import { NOTE_PATH, REPLIES, VALID, content, envFor, ingestRun, noteText, promptSent, startServer } from "./harness";

const OPTIONS: OrchestratorOptions = { maxIter: 2, tokenBudget: 0, retrievalContext: "", vaultContext: "" };
const PROTOCOLS: readonly Protocol[] = ["ollama", "openai", "anthropic"];

/** About 17,000 characters (the analysis, which reads the whole note, still fits): an opening, filler, a section the analysis names, more filler. */
function longNote(): string {
  const filler = (from: number) =>
    Array.from({ length: 80 }, (_, i) => `Filler paragraph ${from + i} says nothing the pages need, at some length, to take room in the window.`);
  return [
    "# Introduction to Bases",
    "OPENING-MARK Bases turn notes into database views.",
    ...filler(0),
    "## Properties",
    "PROPERTIES-MARK Properties are the fields a base sorts and filters by.",
    ...filler(1000),
  ].join("\n\n");
}

function generateRequest(server: ScriptedServer): string {
  const calls = server.modelRequests();
  expect(calls).toHaveLength(2);
  return promptSent(calls[1]!.body);
}

describe.each(PROTOCOLS)("the generate request (%s)", (protocol) => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startServer(protocol);
  });
  afterAll(() => server.close());

  it("holds the note's text, not only its analysis", async () => {
    server.reset();
    server.setScript(VALID);
    const result = await orchestrate(createProvider(protocol, envFor(protocol, server)), OPTIONS, ingestRun());
    expect(result.error).toBeNull();
    const prompt = generateRequest(server);
    for (const line of noteText().split("\n").filter((l) => l.trim().length > 20)) expect(prompt).toContain(line);
  });

  it("refuses an analysis whose language is not an ISO 639 code: a schema failure, and no page-writing request", async () => {
    server.reset();
    const garbage = JSON.stringify({ ...(JSON.parse(REPLIES.analysis) as object), language: "en2### your.comOS" });
    server.setScript([content(garbage), content(REPLIES.pages)]);
    const result = await orchestrate(createProvider(protocol, envFor(protocol, server)), OPTIONS, ingestRun());
    expect(result).toMatchObject({ converged: false, stopReason: "error", pages: [], error: { kind: "schema" } });
    expect(result.error?.message).toContain("ISO 639-1");
    const prompts = server.modelRequests().map((r) => promptSent(r.body));
    expect(prompts).toHaveLength(1);
    expect(prompts.join("\n")).not.toContain("your.com");
  });
});

describe("a note larger than the window (Ollama, 8,192 tokens)", () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startServer("ollama");
  });
  afterAll(() => server.close());

  it("sends its best parts, whole paragraphs, within the window: the named section and the opening, not the filler", async () => {
    server.reset();
    server.setScript(VALID);
    const note = longNote();
    const run = ingestRun({ source: { path: NOTE_PATH, text: note } });
    const result = await orchestrate(createProvider("ollama", envFor("ollama", server)), OPTIONS, run);
    expect(result.error).toBeNull();
    const prompt = generateRequest(server);
    expect(prompt).toContain("PROPERTIES-MARK Properties are the fields a base sorts and filters by.");
    expect(prompt).toContain("OPENING-MARK Bases turn notes into database views.");
    expect(prompt).toContain("[…]");
    expect(prompt).not.toContain("Filler paragraph 1079 ");
    // Every filler paragraph sent is sent whole.
    const sent = prompt.match(/Filler paragraph \d+[^\n]*/g) ?? [];
    expect(sent.length).toBeGreaterThan(0);
    for (const paragraph of sent) expect(paragraph).toMatch(/to take room in the window\.$/);
    const call = server.modelRequests()[1]!;
    const options = (call.body as { options?: { num_ctx?: number } }).options ?? {};
    expect(call.promptCut).toBe(false);
    expect(options.num_ctx).toBeLessThanOrEqual(8192);
  });
});
