/**
 * The `cli` provider against a real bridge server whose agent is scripted (fake-agent-query), so
 * every outcome — success, limits, auth, cut streams, refusals, repair rounds — is cheap to reach.
 * The real SDK runs in test/e2e/bridge-*.test.ts.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { SynapseError } from "../../src/core/errors";
import { orchestrate } from "../../src/core/orchestrator";
import { createRunContext, type ProgressEvent, type RunContext } from "../../src/core/run-context";
import type { IngestRequest } from "../../src/core/bridge-protocol";
import { startBridgeServer, type BridgeServer } from "../../src/bridge/server";
import { createCliProvider, type CliProviderOptions } from "../../src/providers/cli";
import { ingestEvents } from "../helpers/bridge-client";
import { makeVault, NOTE_PATH, NOTE_TEXT, pageMarkdown, type TestVault } from "../helpers/bridge-fixtures";
import { fakeAgent, type FakeAgentScript } from "../helpers/fake-agent-query";
import { until } from "../helpers/eventually";

const TOKEN = "provider-token-0123456789abcdef";
const SEED = { title: "", language: "", summary: "", topics: [], entities: [], concepts: [] };
const PAGE_PATH = "wiki/sources/Local-first software.md";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

interface Rig {
  readonly vault: TestVault;
  readonly bridge: BridgeServer;
  readonly sent: IngestRequest[];
  /** Every URL the provider fetched. */
  readonly urls: string[];
  /** What each scripted agent was asked (prompt and SDK options). */
  readonly agentCalls: ReturnType<typeof fakeAgent>["calls"][];
  provider(overrides?: Partial<CliProviderOptions>): ReturnType<typeof createCliProvider>;
}

async function rig(...scripts: FakeAgentScript[]): Promise<Rig> {
  const vault = makeVault();
  let call = 0;
  const agentCalls: ReturnType<typeof fakeAgent>["calls"][] = [];
  const bridge = await startBridgeServer({
    vaults: [vault.root],
    token: TOKEN,
    port: 0,
    version: "test",
    env: {},
    heartbeatMs: 25,
    loadQuery: () => {
      const script = scripts[Math.min(call++, scripts.length - 1)] ?? { steps: [] };
      const agent = fakeAgent(script);
      agentCalls.push(agent.calls);
      return Promise.resolve(agent.query);
    },
  });
  cleanups.push(vault.dispose, () => bridge.close());
  const sent: IngestRequest[] = [];
  const urls: string[] = [];
  const recordingFetch: typeof fetch = (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    urls.push(url);
    if (url.endsWith("/ingest") && typeof init?.body === "string") sent.push(JSON.parse(init.body) as IngestRequest);
    return globalThis.fetch(input, init);
  };
  return {
    vault,
    bridge,
    sent,
    urls,
    agentCalls,
    provider: (overrides = {}) =>
      createCliProvider({
        bridgeUrl: bridge.url,
        token: TOKEN,
        fetch: recordingFetch,
        maxTurns: 12,
        maxBudgetUsd: 0.5,
        wikiFolder: "wiki",
        vaultPath: vault.root,
        ...overrides,
      }),
  };
}

function runFor(progress?: ProgressEvent[], signal?: AbortSignal): RunContext {
  return createRunContext({
    source: { path: NOTE_PATH, text: NOTE_TEXT },
    ...(progress ? { progress: (e: ProgressEvent) => progress.push(e) } : {}),
    ...(signal ? { signal } : {}),
  });
}

async function failure(promise: Promise<unknown>): Promise<SynapseError> {
  const error: unknown = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!SynapseError.isInstance(error)) throw new Error(`expected a SynapseError, got ${String(error)}`);
  return error;
}

/**
 * `body` handed on one chunk per read of its consumer, which is told `handled` when it asks for
 * more after `count` heartbeat lines reached it (a reader that handles each chunk before the next
 * read has handled them by then).
 */
function afterHeartbeats(body: ReadableStream<Uint8Array>, count: number, handled: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const heartbeats = text.split("\n").slice(0, -1).filter((line) => line.includes('"heartbeat"')).length;
        if (heartbeats >= count) handled();
        const { done, value } = await reader.read();
        if (done) return controller.close();
        text += decoder.decode(value, { stream: true });
        controller.enqueue(value);
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}

const writePage = (content = pageMarkdown("Local-first software")) => ({ tool: "Write", input: { file_path: PAGE_PATH, content } });

describe("the cli provider", () => {
  it("declares an agentic, remote backend so the orchestrator delegates to it", async () => {
    const r = await rig({ steps: [] });
    expect(r.provider().capabilities()).toMatchObject({
      name: "claude-agent",
      mode: "cli",
      isLocal: false,
      supportsAgenticLoop: true,
      supportsTools: true,
      streaming: true,
    });
    expect((await failure(r.provider().analyze("x", "", runFor()))).kind).toBe("capability");
    // Questions go to the bridge too, which needs the vault on disk (desktop and CLI only).
    const chat = r.provider({ vaultPath: null }).chat([{ role: "user", content: "hi" }], "", runFor());
    expect((await failure(chat[Symbol.asyncIterator]().next())).message).toMatch(/vault's folder on disk/);
  });

  it("returns the agent's pages, records its usage and cost, and reports its activity", async () => {
    const r = await rig({ steps: [{ tool: "Read", input: { file_path: NOTE_PATH } }, writePage(), { tool: "Bash", input: { command: "ls" } }] });
    const progress: ProgressEvent[] = [];
    const run = runFor(progress);
    const pages = await r.provider().generate({ analysis: SEED, note: "", related: "Related: [[CRDT]]" }, run);

    expect(pages.map((p) => [p.type, p.title, p.frontmatter.sources])).toEqual([["source", "Local-first software", [NOTE_PATH]]]);
    expect(run.usage.entries).toEqual([
      { provider: "claude-agent", model: "claude-fake-1", operation: "agent", inputTokens: 1000, outputTokens: 200, costUsd: 0.0123 },
    ]);
    const activity = progress.flatMap((e) => (e.type === "activity" ? [e.message] : []));
    expect(activity).toEqual([
      "Claude agent started in the bridge's staging copy.",
      `Agent: Read ${NOTE_PATH}`,
      `Agent: Write ${PAGE_PATH}`,
      `Agent wrote ${PAGE_PATH}`,
      "Agent: Bash",
      "Refused Bash: the Bash tool is not available",
      "Agent finished: 1 page, 4 turns, $0.0123, 1 refused call.",
    ]);
    expect(r.sent[0]).toEqual({
      vault: r.vault.root,
      notePath: NOTE_PATH,
      wikiFolder: "wiki",
      excludedFolders: [],
      maxTurns: 12,
      maxBudgetUsd: 0.5,
      retrievalContext: "Related: [[CRDT]]",
      previousPages: [],
    });
  });

  it("sends the wiki language the user chose, and the agent is told to write in it", async () => {
    const r = await rig({ steps: [writePage()] });
    await r.provider().generate({ analysis: SEED, note: "", related: "" }, createRunContext({ source: { path: NOTE_PATH, text: NOTE_TEXT }, wikiLanguage: "de" }));
    expect(r.sent[0]?.wikiLanguage).toBe("de");
    expect(r.agentCalls[0]?.[0]?.options.systemPrompt).toContain('in German ("de"), whatever the note\'s language, and set lang: de');
    // Following each note's language sends nothing, so an older bridge still accepts the request.
    await r.provider().generate({ analysis: SEED, note: "", related: "" }, runFor());
    expect(r.sent[1]).not.toHaveProperty("wikiLanguage");
  });

  it("sends the previous pages back for a repair round, through the orchestrator", async () => {
    const invalid = pageMarkdown("Local-first software", { sources: ["Elsewhere.md"] });
    const r = await rig({ steps: [writePage(invalid)] }, { steps: [writePage()] });
    const result = await orchestrate(r.provider(), { maxIter: 3, tokenBudget: 0, retrievalContext: "ctx", vaultContext: "" }, runFor());

    expect(result.converged).toBe(true);
    expect(result.attempts).toEqual({ analyze: 0, generate: 2 });
    expect(r.sent).toHaveLength(2);
    expect(r.sent[1]?.previousPages).toEqual([{ path: PAGE_PATH, content: invalid }]);
    expect(r.sent[1]?.retrievalContext).toMatch(/^ctx\n\nYour previous reply was rejected[\s\S]*does not include the ingested note/);
  });

  it("reports invalid pages after the bounded repair round instead of writing them", async () => {
    const invalid = pageMarkdown("Local-first software", { lang: "english" });
    const r = await rig({ steps: [writePage(invalid)] });
    const result = await orchestrate(r.provider(), { maxIter: 5, tokenBudget: 0, retrievalContext: "", vaultContext: "", agentRepairRounds: 1 }, runFor());
    expect(result.converged).toBe(false);
    expect(result.stopReason).toBe("max_iter");
    expect(result.pages).toEqual([]);
    expect(result.attempts.generate).toBe(2);
    expect(result.issues.map((i) => i.field)).toEqual(["frontmatter.lang"]);
  });

  it("turns the agent's limits and failures into errors that say what to change", async () => {
    const turns = await rig({ steps: [], subtype: "error_max_turns" });
    const tooLong = await failure(turns.provider().generate({ analysis: SEED, note: "", related: "" }, runFor()));
    expect(tooLong.kind).toBe("unavailable");
    expect(tooLong.message).toContain("turn limit (12)");

    const budget = await rig({ steps: [], subtype: "error_max_budget_usd" });
    expect((await failure(budget.provider().generate({ analysis: SEED, note: "", related: "" }, runFor()))).message).toContain("cost limit ($0.5)");

    const login = await rig({ steps: [], isError: true, resultText: "Not logged in · Please run /login" });
    const auth = await failure(login.provider().generate({ analysis: SEED, note: "", related: "" }, runFor()));
    expect(auth.kind).toBe("request");
    expect(auth.message).toContain("ANTHROPIC_API_KEY");
  });

  it("refuses to start without what it needs, before any request", async () => {
    const r = await rig({ steps: [] });
    expect(await failure(r.provider({ vaultPath: null }).generate({ analysis: SEED, note: "", related: "" }, runFor()))).toMatchObject({ kind: "config" });
    const noToken = await failure(r.provider({ token: () => null }).generate({ analysis: SEED, note: "", related: "" }, runFor()));
    expect(noToken.kind).toBe("config");
    expect(noToken.message).toContain("SYNAPSE_BRIDGE_TOKEN");
    expect((await failure(r.provider({ bridgeUrl: "http://192.168.1.5:8765" }).generate({ analysis: SEED, note: "", related: "" }, runFor()))).message).toContain("127.0.0.1");
    expect((await failure(r.provider({ bridgeUrl: "http://u:p@127.0.0.1:8765" }).generate({ analysis: SEED, note: "", related: "" }, runFor()))).kind).toBe("config");
    const noSource = createRunContext();
    expect((await failure(r.provider().generate({ analysis: SEED, note: "", related: "" }, noSource))).kind).toBe("config");
    expect(r.sent).toEqual([]);
  });

  it("explains the bridge's refusals: wrong token, unserved vault, missing note", async () => {
    const r = await rig({ steps: [] });
    const token = await failure(r.provider({ token: "wrong-token-0123456789" }).generate({ analysis: SEED, note: "", related: "" }, runFor()));
    expect(token).toMatchObject({ kind: "request", status: 401 });
    expect(token.message).toContain("Settings → Synapse → CLI agent");
    const vault = await failure(r.provider({ vaultPath: "/not/served" }).generate({ analysis: SEED, note: "", related: "" }, runFor()));
    expect(vault).toMatchObject({ kind: "config", status: 403 });
    const missing = createRunContext({ source: { path: "Clippings/Gone.md", text: "" } });
    expect(await failure(r.provider().generate({ analysis: SEED, note: "", related: "" }, missing))).toMatchObject({ kind: "vault", status: 404 });
  });

  it("says plainly when nothing answers at the bridge URL", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const r = await rig({ steps: [] });
    const error = await failure(r.provider({ bridgeUrl: `http://127.0.0.1:${port}` }).generate({ analysis: SEED, note: "", related: "" }, runFor()));
    expect(error.kind).toBe("transport");
    expect(error.message).toContain("synapse bridge --vault");
  });

  it("treats a stream that ends before the result as a transport failure", async () => {
    const cut: Server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      res.end(`${JSON.stringify({ type: "started", runId: "r1", model: null })}\n{"type":"tool","tool":"Read","target":null}\n`);
    });
    await new Promise<void>((resolve) => cut.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise<void>((resolve) => cut.close(() => resolve())));
    const r = await rig({ steps: [] });
    const url = `http://127.0.0.1:${(cut.address() as AddressInfo).port}`;
    const error = await failure(r.provider({ bridgeUrl: url }).generate({ analysis: SEED, note: "", related: "" }, runFor()));
    expect(error.kind).toBe("transport");
    expect(error.message).toContain("before the agent finished");
  });

  it("cancels: aborting the run ends the request, asks the bridge to cancel, and records nothing", async () => {
    const r = await rig({ steps: [{ tool: "Glob", input: { pattern: "**/*.md" } }], hang: true });
    const controller = new AbortController();
    const progress: ProgressEvent[] = [];
    const run = runFor(progress, controller.signal);
    const pending = r.provider().generate({ analysis: SEED, note: "", related: "" }, run);
    await until(() => progress.some((e) => e.type === "activity" && e.message.startsWith("Agent: Glob")), "the agent's first tool call");
    controller.abort();
    expect((await failure(pending)).kind).toBe("cancelled");
    await until(() => r.bridge.activeRuns() === 0, "the bridge's run to end");
    expect(r.bridge.activeRuns()).toBe(0);
    expect(r.urls).toEqual([`${r.bridge.url}/ingest`, `${r.bridge.url}/cancel`]);
    expect(run.usage.entries).toEqual([]);
  });

  it("cancels promptly even over a transport that ignores the abort signal", async () => {
    const r = await rig({ steps: [{ tool: "Glob", input: { pattern: "**/*.md" } }], hang: true });
    const cancels: string[] = [];
    const deaf: typeof fetch = (input, init) => {
      const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
      if (url.endsWith("/cancel")) cancels.push(url);
      const { signal: _ignored, ...rest } = init ?? {};
      return globalThis.fetch(input, rest);
    };
    const controller = new AbortController();
    const progress: ProgressEvent[] = [];
    const pending = r.provider({ fetch: deaf }).generate({ analysis: SEED, note: "", related: "" }, runFor(progress, controller.signal));
    await until(() => progress.some((e) => e.type === "activity" && e.message.startsWith("Agent: Glob")), "the agent's first tool call");
    controller.abort();
    expect((await failure(pending)).kind).toBe("cancelled");
    // The signal could not close the request, so the provider also names the run in a cancel call.
    await until(() => r.bridge.activeRuns() === 0, "the bridge's run to end");
    expect(r.bridge.activeRuns()).toBe(0);
    expect(cancels).toEqual([`${r.bridge.url}/cancel`]);
  });

  it("keeps a quiet stream alive with heartbeats, which the provider does not report", async () => {
    const r = await rig({ steps: [], hang: true });
    const controller = new AbortController();
    const heartbeats: string[] = [];
    const collected = ingestEvents(
      r.bridge.url,
      TOKEN,
      { vault: r.vault.root, notePath: NOTE_PATH, wikiFolder: "wiki", maxTurns: 3, maxBudgetUsd: 0.1 },
      (event) => {
        if (event.type === "heartbeat") heartbeats.push(event.type);
        if (heartbeats.length === 3) controller.abort();
      },
      controller.signal,
    );
    await collected;
    expect(heartbeats).toHaveLength(3);

    // The provider's stream, read through a body that hands on one chunk per read: once it asks for
    // more after three heartbeats, it has handled them all, and the run is cancelled then.
    const stop = new AbortController();
    const quiet: typeof fetch = async (input, init) => {
      const response = await globalThis.fetch(input, init);
      return response.body ? new Response(afterHeartbeats(response.body, 3, () => stop.abort()), response) : response;
    };
    const progress: ProgressEvent[] = [];
    expect((await failure(r.provider({ fetch: quiet }).generate({ analysis: SEED, note: "", related: "" }, runFor(progress, stop.signal)))).kind).toBe("cancelled");
    expect(progress.map((e) => (e.type === "activity" ? e.message : e.type))).toEqual(["Claude agent started in the bridge's staging copy."]);
  });

  it("stops at the run's deadline with a timeout", async () => {
    const r = await rig({ steps: [], hang: true });
    const run = createRunContext({ source: { path: NOTE_PATH, text: NOTE_TEXT }, timeoutMs: 300 });
    expect((await failure(r.provider().generate({ analysis: SEED, note: "", related: "" }, run))).kind).toBe("timeout");
  });
});
