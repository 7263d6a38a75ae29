/**
 * Lint's model checks through the real Ollama adapter and a scripted Ollama server: each pair is
 * its own structured request (one system message, the verdict's schema in `format`, an output
 * limit and a window), and a reply that is not a verdict is never cached as one.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runLint, type LintDeps } from "../../src/lint/run-lint";
import { PAIR_CACHE_KEY } from "../../src/lint/pair-cache";
import { REPLY_TOKENS } from "../../src/lint/pair-prompt";
import { createProvider } from "../../src/providers/factory";
import { DEFAULT_SETTINGS } from "../../src/settings/schema";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import type { InferenceProvider } from "../../src/core/provider";
import type { Reply, ScriptedServer } from "../helpers/scripted-server";
import { envFor, startServer } from "../providers/harness";

const page = (title: string, body: string) => `---\ntype: entity\ntitle: ${title}\nsources: [notes/ada.md]\n---\n\n${body}\n`;
/** Two pages drawn from one note: one pair. */
const WIKI = {
  "notes/ada.md": "Ada.",
  "wiki/entities/Ada Lovelace.md": page("Ada Lovelace", "Ada Lovelace was born in 1815 in London. She wrote the first program."),
  "wiki/entities/Ada.md": page("Ada", "Ada was born in 1816, in London. She worked with Babbage."),
};

function deps(store: MemoryStateStore, provider: InferenceProvider): LintDeps {
  return { vault: new MemoryVault(WIKI), store, provider, settings: DEFAULT_SETTINGS, write: { store, writer: { kind: "cli", pid: null, host: null } }, now: () => Date.UTC(2026, 10, 30) };
}

const said = (text: string): Reply => ({ kind: "content", text, usage: { input: 300, output: 20 } });

async function cachedVerdicts(store: MemoryStateStore): Promise<Record<string, unknown>> {
  const text = await store.read(PAIR_CACHE_KEY);
  return text === null ? {} : (JSON.parse(text) as { verdicts: Record<string, unknown> }).verdicts;
}

describe("lint's model checks through Ollama", () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startServer("ollama");
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  it("sends each pair as a structured request of its own: one system message, the schema in `format`, a window and an output limit", async () => {
    server.setScript([said('{"contradictions": [], "duplicate": false, "reason": "Different births."}')]);
    const store = new MemoryStateStore();
    const report = await runLint(deps(store, createProvider("ollama", envFor("ollama", server))), { modelChecks: true });
    expect(report.error).toBeNull();
    expect(report.modelChecks).toMatchObject({ checked: 1, unreadable: 0 });
    const [request] = server.modelRequests();
    const body = request!.body as { messages: { role: string; content: string }[]; format?: { required?: string[] }; stream?: boolean; options: { num_ctx: number; num_predict: number } };
    expect(body.messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(body.messages[0]!.content).toMatch(/^You check two pages of a personal wiki/);
    expect(JSON.stringify(body.messages)).not.toContain("You answer questions about a personal wiki");
    expect(body.format?.required).toEqual(expect.arrayContaining(["contradictions", "duplicate"]));
    expect(body.options.num_predict).toBe(REPLY_TOKENS);
    expect(body.options.num_ctx).toBeGreaterThanOrEqual(request!.promptTokens!);
    expect(request!.promptCut).toBe(false);
    expect(Object.keys(await cachedVerdicts(store))).toHaveLength(1);
  });

  it("fits both pages into a small \"Context window\", each cut to its share, and the reply keeps its whole limit", async () => {
    server.setScript([said('{"contradictions": [], "duplicate": false, "reason": "Different births."}')]);
    const long = (first: string) => `${first} ${"She corresponded with mathematicians about the engine and its uses. ".repeat(150)}`;
    const vault = new MemoryVault({
      ...WIKI,
      "wiki/entities/Ada Lovelace.md": page("Ada Lovelace", long("Ada Lovelace was born in 1815 in London.")),
      "wiki/entities/Ada.md": page("Ada", long("Ada was born in 1816, in London.")),
    });
    const store = new MemoryStateStore();
    const provider = createProvider("ollama", envFor("ollama", server, { profile: { contextWindow: 4096 } }));
    const report = await runLint({ ...deps(store, provider), vault }, { modelChecks: true });
    expect(report.error).toBeNull();
    expect(report.modelChecks).toMatchObject({ checked: 1, unreadable: 0 });
    const [request] = server.modelRequests();
    const options = (request!.body as { options: { num_ctx: number; num_predict: number } }).options;
    expect(options.num_ctx).toBeLessThanOrEqual(4096);
    expect(options.num_predict).toBe(REPLY_TOKENS);
    expect(request!.promptCut).toBe(false);
  });

  it.each([
    ["an empty object", "{}"],
    ["a stray brace in prose", "Well { it depends on what you mean"],
    ["a reply without the duplicate field", '{"contradictions": [], "reason": "fine"}'],
  ])("never caches %s as a verdict, and asks about the pair again next time", async (_name, nonsense) => {
    server.setScript([said(nonsense)]);
    const store = new MemoryStateStore();
    const report = await runLint(deps(store, createProvider("ollama", envFor("ollama", server))), { modelChecks: true });
    expect(report.modelChecks).toMatchObject({ checked: 0, unreadable: 1 });
    expect(await cachedVerdicts(store)).toEqual({});
    // Asked once more with what was wrong, in the same single user message.
    const asked = server.modelRequests();
    expect(asked).toHaveLength(2);
    expect((asked[1]!.body as { messages: { content: string }[] }).messages[1]!.content).toMatch(/Your previous reply could not be used: .*Reply again with the JSON object only\.$/);
    server.reset();
    server.setScript([said('{"contradictions": [], "duplicate": true, "reason": "Same person."}')]);
    const again = await runLint(deps(store, createProvider("ollama", envFor("ollama", server))), { modelChecks: true });
    expect(again.modelChecks).toMatchObject({ checked: 1, cached: 0 });
  });
});
