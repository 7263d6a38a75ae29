/**
 * "Ask the wiki" is done when, in the plugin and with every backend, a question the wiki covers gets
 * a streamed answer whose citations all verify, saving it files a synthesis page the undo command
 * removes, and a question the wiki cannot answer gets "not in your wiki" with nothing sent. Each
 * backend runs its real adapter: Ollama, Anthropic and OpenAI-compatible against their scripted
 * servers over the desktop transports (requestUrl, and Node http for the stream); the CLI agent
 * through a real bridge on 127.0.0.1 (with a scripted agent; the real SDK runs in
 * test/e2e/bridge-query.test.ts); and Offline as it ships.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBridgeServer, type BridgeServer } from "../../src/bridge/server";
import { createRequestUrlFetch } from "../../src/obsidian/request-url-fetch";
import { createProvider } from "../../src/providers/factory";
import { createNodeFetch } from "../../src/providers/transports/node-fetch";
import { NOT_IN_WIKI } from "../../src/query/ask";
import type { ReviewHook } from "../../src/wiki/review";
import { eventually } from "../helpers/eventually";
import { fakeAgent } from "../helpers/fake-agent-query";
import type { Protocol, ScriptedServer } from "../helpers/scripted-server";
import { content, FAST_RETRY, settingsFor, startServer, testSecrets } from "../providers/harness";
import { nodeRequestUrl } from "./node-request-url";
import { loadPlugin, runCommand, type Harness } from "./plugin-harness";

const ADA = "wiki/entities/Ada Lovelace.md";
const FILES: Record<string, string> = {
  "notes/ada.md": "# Ada\n\nAda Lovelace wrote the first program for the Analytical Engine.\n",
  [ADA]: "---\ntype: entity\ntitle: Ada Lovelace\nsources:\n  - notes/ada.md\nlang: en\ntags: []\n---\nAda Lovelace wrote the first program for the Analytical Engine.\n",
};
const QUESTION = "Who wrote the first program for the Analytical Engine?";
const SAVED = "wiki/syntheses/Who wrote the first program for the Analytical Engine.md";
const ANSWER = "Ada Lovelace wrote the first program for the Analytical Engine [[Ada Lovelace]].";
const CHAT_PATHS: Record<Protocol, string> = { ollama: "/api/chat", openai: "/v1/chat/completions", anthropic: "/v1/messages" };
const approveAll: ReviewHook = (plan) => Promise.resolve(plan.changes.map((c) => c.path));

/** The whole "done when", answered by the backend `mode`, with `modelCalls` counting what reached it. */
async function doneWhen(harness: Harness, mode: string, modelCalls: () => number): Promise<void> {
  const query = harness.plugin.query;
  if (!query) throw new Error("the query service is not loaded");
  const pieces: string[] = [];
  const report = await query.ask(QUESTION, { general: false, signal: new AbortController().signal, onText: (t) => pieces.push(t) });
  expect(report.error).toBeNull();
  expect(report.provider.mode).toBe(mode);
  expect(report.grounding).toBe("vault");
  // Streamed: the view was handed the answer piece by piece, and the pieces are the answer.
  expect(pieces.length).toBeGreaterThan(0);
  expect(pieces.join("")).toBe(report.answer);
  expect(report.citations.length).toBeGreaterThan(0);
  expect(report.citations.filter((c) => !c.verified)).toEqual([]);
  expect(report.citations.map((c) => c.path)).toContain(ADA);
  const calls = modelCalls();
  expect(calls).toBeGreaterThan(0);

  expect(await query.save(report, false)).toBe(SAVED);
  expect(await harness.read(SAVED)).toMatch(/^---\ntype: synthesis\n/);
  runCommand(harness, "undo-last-change");
  await eventually(() => expect(harness.app.vault.getFileByPath(SAVED)).toBeNull());

  const none = await query.ask("What is the boiling point of nitrogen?", { general: false, signal: new AbortController().signal, onText: () => undefined });
  expect(none.answer).toBe(NOT_IN_WIKI);
  expect(none.error).toBeNull();
  expect(modelCalls()).toBe(calls);
}

describe.each(["ollama", "anthropic", "openai"] as const)("Ask the wiki on desktop with %s", (protocol: Protocol) => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startServer(protocol, [content(ANSWER)]);
  });
  afterAll(() => server.close());

  it("streams an answer whose citations all verify, saves it undoably, and says 'not in your wiki'", async () => {
    const harness = await loadPlugin({
      files: FILES,
      data: settingsFor(protocol, server.url),
      seams: {
        createProvider: (id, env) =>
          createProvider(id, { ...env, secrets: testSecrets(), fetch: createRequestUrlFetch(nodeRequestUrl([])), streamingFetch: createNodeFetch(), retry: FAST_RETRY }),
        review: approveAll,
        streaming: true,
      },
    });
    await doneWhen(harness, protocol === "ollama" ? "local" : "api", () => server.requests.filter((r) => r.path.startsWith(CHAT_PATHS[protocol])).length);
  });
});

describe("Ask the wiki with the CLI agent through the bridge", () => {
  const TOKEN = "plugin-query-token-0123456789abcdef";
  let root: string;
  let bridge: BridgeServer;
  let agentRuns = 0;
  beforeAll(async () => {
    // The bridge reads the vault on disk: the same files as the plugin's vault.
    root = mkdtempSync(join(tmpdir(), "synapse-plugin-query-"));
    for (const [path, text] of Object.entries(FILES)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    bridge = await startBridgeServer({
      vaults: [root],
      token: TOKEN,
      port: 0,
      version: "test",
      env: {},
      loadQuery: () => {
        agentRuns += 1;
        return Promise.resolve(fakeAgent({ steps: [{ tool: "Grep", input: { pattern: "program" } }], text: ["Ada Lovelace wrote the first program ", "for the Analytical Engine [[Ada Lovelace]]."] }).query);
      },
    });
  });
  afterAll(async () => {
    await bridge.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("streams the agent's answer with every citation verified, saves it undoably, and says 'not in your wiki' without running the agent", async () => {
    const harness = await loadPlugin({
      files: FILES,
      data: { operations: { query: "cli" }, profiles: { cli: { bridgeUrl: bridge.url } } },
      seams: {
        // The plugin finds the vault's folder through Obsidian's file-system adapter; the mocks have none.
        createProvider: (id, env) => createProvider(id, { ...env, secrets: { get: (role) => (role === "bridge-token" ? TOKEN : null) }, fetch: createNodeFetch(), streamingFetch: createNodeFetch(), vaultPath: root }),
        review: approveAll,
        streaming: true,
      },
    });
    await doneWhen(harness, "cli", () => agentRuns);
  });
});

describe("Ask the wiki with Offline (the default backend)", () => {
  it("answers with quotes whose citations all verify, saves them undoably, and says 'not in your wiki'", async () => {
    const harness = await loadPlugin({ files: FILES, seams: { review: approveAll, streaming: true } });
    // Offline calls no model: there is nothing to count but the answer itself.
    await doneWhen(harness, "offline", () => 1);
  });
});
