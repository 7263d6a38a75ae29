/**
 * Questions through the bridge with a scripted agent: what the `cli` provider's chat() sends, what
 * the bridge stages for each scope (never an excluded folder), the read-only tool set, streamed
 * text, the agent's limits as errors, and requests the strict schema refuses. The real SDK runs
 * in test/e2e/bridge-query.test.ts.
 */
import { afterEach, describe, expect, it } from "vitest";
import { startBridgeServer, type BridgeServer } from "../../src/bridge/server";
import { SynapseError } from "../../src/core/errors";
import type { QueryRequest } from "../../src/core/bridge-protocol";
import { createRunContext, type NoteScope, type ProgressEvent } from "../../src/core/run-context";
import type { Message } from "../../src/core/schemas";
import { createCliProvider } from "../../src/providers/cli";
import { EXISTING_PAGE_PATH, makeVault, NOTE_PATH, type TestVault } from "../helpers/bridge-fixtures";
import { fakeAgent, type FakeAgent, type FakeAgentScript } from "../helpers/fake-agent-query";

const TOKEN = "query-token-0123456789abcdef";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

interface Rig {
  readonly vault: TestVault;
  readonly bridge: BridgeServer;
  readonly sent: QueryRequest[];
  readonly agents: FakeAgent["calls"][];
  chat(messages: Message[], options?: { noteScope?: NoteScope; progress?: ProgressEvent[]; wikiLanguage?: string; maxOutputTokens?: number }): Promise<{ pieces: string[]; usage: number }>;
}

async function rig(script: FakeAgentScript): Promise<Rig> {
  const vault = makeVault();
  vault.write("Projects/plan.md", "# Plan\n\nReplicas everywhere.\n");
  const agents: FakeAgent["calls"][] = [];
  const bridge = await startBridgeServer({
    vaults: [vault.root],
    token: TOKEN,
    port: 0,
    version: "test",
    env: {},
    loadQuery: () => {
      const agent = fakeAgent(script);
      agents.push(agent.calls);
      return Promise.resolve(agent.query);
    },
  });
  cleanups.push(vault.dispose, () => bridge.close());
  const sent: QueryRequest[] = [];
  const recordingFetch: typeof fetch = (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (typeof init?.body === "string" && url.endsWith("/query")) sent.push(JSON.parse(init.body) as QueryRequest);
    return globalThis.fetch(input, init);
  };
  const provider = createCliProvider({
    bridgeUrl: bridge.url,
    token: TOKEN,
    fetch: recordingFetch,
    maxTurns: 7,
    maxBudgetUsd: 0.25,
    wikiFolder: "wiki",
    excludedFolders: ["Private"],
    vaultPath: vault.root,
  });
  return {
    vault,
    bridge,
    sent,
    agents,
    async chat(messages, options = {}) {
      const progress = options.progress;
      const run = createRunContext({
        ...(options.noteScope ? { noteScope: options.noteScope } : {}),
        ...(options.wikiLanguage ? { wikiLanguage: options.wikiLanguage } : {}),
        ...(options.maxOutputTokens ? { maxOutputTokens: options.maxOutputTokens } : {}),
        ...(progress ? { progress: (e: ProgressEvent) => progress.push(e) } : {}),
      });
      const pieces: string[] = [];
      for await (const piece of provider.chat(messages, "[1] [[CRDT]] (wiki page wiki/CRDT.md)\nA CRDT merges.", run)) pieces.push(piece);
      return { pieces, usage: run.usage.totals().inputTokens };
    },
  };
}

const question: Message[] = [{ role: "user", content: "What is a CRDT?" }];

async function failure(promise: Promise<unknown>): Promise<SynapseError> {
  const error: unknown = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!SynapseError.isInstance(error)) throw new Error(`expected a SynapseError, got ${String(error)}`);
  return error;
}

describe("questions through the bridge (cli provider chat)", () => {
  it("streams the agent's text, read-only, and records its usage", async () => {
    const r = await rig({ steps: [{ tool: "Grep", input: { pattern: "CRDT", path: "wiki" } }], text: ["A CRDT ", "merges [[CRDT]]."] });
    const { pieces, usage } = await r.chat(question, { wikiLanguage: "de" });
    expect(pieces).toEqual(["A CRDT ", "merges [[CRDT]]."]);
    expect(usage).toBe(1000);
    const call = r.agents[0]?.[0];
    expect(call?.options.tools).toEqual(["Read", "Glob", "Grep"]);
    expect(call?.options.includePartialMessages).toBe(true);
    expect(call?.options.maxTurns).toBe(7);
    expect(call?.options.systemPrompt).toContain("Write the answer in German");
    expect(call?.prompt).toContain("[1] [[CRDT]]");
    expect(call?.prompt).toContain("Question: What is a CRDT?");
    expect(r.sent[0]).toMatchObject({ notes: "none", excludedFolders: ["Private"], wikiLanguage: "de", maxBudgetUsd: 0.25 });
  });

  it("passes the run's output cap to the agent's model requests, and nothing without one", async () => {
    const r = await rig({ steps: [], text: ["ok"] });
    await r.chat(question, { maxOutputTokens: 800 });
    await r.chat(question);
    expect(r.sent.map((s) => s.maxOutputTokens)).toEqual([800, undefined]);
    const envs = r.agents.map((calls) => calls[0]?.options.env ?? {});
    expect(envs[0]?.CLAUDE_CODE_MAX_OUTPUT_TOKENS).toBe("800");
    expect(envs[1]).not.toHaveProperty("CLAUDE_CODE_MAX_OUTPUT_TOKENS");
  });

  it("hands over the whole answer when no partial text came", async () => {
    const r = await rig({ steps: [], resultText: "A CRDT merges." });
    expect((await r.chat(question)).pieces).toEqual(["A CRDT merges."]);
  });

  it("stages the wiki only, every note, or the named folders — never an excluded folder", async () => {
    const r = await rig({ steps: [], text: ["ok"] });
    await r.chat(question, { noteScope: "none" });
    await r.chat(question, { noteScope: "all" });
    await r.chat(question, { noteScope: { folders: ["Projects"] } });
    const staged = r.agents.map((calls) => calls[0]?.staged ?? []);
    expect(staged[0]).toEqual([EXISTING_PAGE_PATH]);
    expect(staged[1]).toEqual([NOTE_PATH, "Projects/plan.md", EXISTING_PAGE_PATH].sort());
    expect(staged[2]).toEqual(["Projects/plan.md", EXISTING_PAGE_PATH].sort());
    for (const files of staged) expect(files.some((f) => f.startsWith("Private/") || f.startsWith(".obsidian/"))).toBe(false);
    expect(r.sent.map((s) => s.notes)).toEqual(["none", "all", { folders: ["Projects"] }]);
  });

  it("refuses a write the agent attempts, and reports it", async () => {
    const r = await rig({ steps: [{ tool: "Write", input: { file_path: "wiki/Hack.md", content: "x" } }], text: ["done"] });
    const before = r.vault.snapshot();
    const progress: ProgressEvent[] = [];
    await r.chat(question, { progress });
    expect(progress.some((e) => e.type === "activity" && e.message.startsWith("Refused Write"))).toBe(true);
    expect(r.vault.snapshot()).toEqual(before);
  });

  it("says which folder is missing, and what limit the agent hit", async () => {
    const r = await rig({ steps: [], subtype: "error_max_turns" });
    expect((await failure(r.chat(question, { noteScope: { folders: ["Nowhere"] } }))).message).toBe('The folder "Nowhere" does not exist in the vault.');
    expect((await failure(r.chat(question))).message).toMatch(/turn limit \(7\)/);
  });

  it("keeps the conversation, with the caller's instructions on the question, within the protocol's caps", async () => {
    const r = await rig({ steps: [], text: ["ok"] });
    const long = "x".repeat(100_000);
    await r.chat([
      { role: "user", content: long },
      { role: "assistant", content: long },
      { role: "user", content: long },
      { role: "assistant", content: "Earlier answer." },
      { role: "system", content: "Answer from general knowledge." },
      { role: "user", content: "And now?" },
    ]);
    const messages = r.sent[0]?.messages ?? [];
    expect(messages.at(-1)).toEqual({ role: "user", content: "Answer from general knowledge.\n\nAnd now?" });
    expect(messages[0]?.role).toBe("user");
    expect(messages.reduce((n, m) => n + m.content.length, 0)).toBeLessThanOrEqual(256 * 1024);
    expect(r.agents[0]?.[0]?.prompt).toContain("Your answer: Earlier answer.");
  });

  it("refuses a request the strict schema does not allow, before any agent runs", async () => {
    const r = await rig({ steps: [] });
    const post = (body: unknown) =>
      fetch(`${r.bridge.url}/query`, { method: "POST", headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" }, body: JSON.stringify(body) });
    const valid = { vault: r.vault.root, wikiFolder: "wiki", notes: "all", messages: [{ role: "user", content: "q" }], maxTurns: 3, maxBudgetUsd: 1 };
    for (const bad of [
      { ...valid, messages: [{ role: "assistant", content: "q" }] },
      { ...valid, messages: [] },
      { ...valid, notes: { folders: ["../etc"] } },
      { ...valid, notes: "everything" },
      { ...valid, write: true },
      { ...valid, messages: [{ role: "system", content: "q" }] },
    ]) {
      const response = await post(bad);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe("invalid_request");
    }
    expect(r.agents).toEqual([]);
  });
});
