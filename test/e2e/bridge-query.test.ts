/**
 * Asking the wiki through the bridge with the real Claude Agent SDK, against a scripted Messages
 * API on 127.0.0.1: the agent reads a staging copy of the wiki and the notes in scope with Read,
 * Glob and Grep only, its answer streams through the `cli` provider into `askWiki`, and its
 * citations are checked like any other backend's. Excluded folders are never staged nor sent.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startBridgeServer, type BridgeServer } from "../../src/bridge/server";
import type { ProgressEvent } from "../../src/core/run-context";
import { createCliProvider } from "../../src/providers/cli";
import { askWiki } from "../../src/query/ask";
import { DEFAULT_SETTINGS, type Settings } from "../../src/settings/schema";
import { NodeVault } from "../../src/vault/node-vault";
import { bridgeEnv, EXISTING_PAGE_PATH, makeVault, NOTE_PATH, pageMarkdown, tempHome, type TestVault } from "../helpers/bridge-fixtures";
import { eventually } from "../helpers/eventually";
import { piecesTurn, startScriptedMessagesApi, toolTurn, type ScriptedMessagesApi, type ScriptedTurn } from "../helpers/scripted-messages-api";
import { wordOverlapRetriever } from "../helpers/word-overlap-retriever";

const TOKEN = "test-token-0123456789abcdef";
const PAGE = "wiki/sources/Local-first software.md";
const SECRET = "Nothing for the agent.";
const AUTOMERGE = "wiki/concepts/Automerge.md";
const YJS = "wiki/concepts/Yjs.md";

interface Rig {
  readonly vault: TestVault;
  readonly api: ScriptedMessagesApi;
  readonly bridge: BridgeServer;
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

async function rig(script: readonly ScriptedTurn[]): Promise<Rig> {
  const vault = makeVault();
  vault.write(PAGE, pageMarkdown("Local-first software", { body: "Local-first software keeps data on the user's devices; replicas merge through a [[CRDT]]." }));
  // A private page that matches the question word for word: it must never be staged or quoted.
  vault.write("Private/CRDT notes.md", `# CRDT replicas\n\n${SECRET} CRDT replicas merge.\n`);
  const home = tempHome();
  const api = await startScriptedMessagesApi(script);
  const bridge = await startBridgeServer({ vaults: [vault.root], token: TOKEN, port: 0, version: "test", env: bridgeEnv(api.url, home.path) });
  cleanups.push(vault.dispose, home.dispose, () => api.close(), () => bridge.close());
  return { vault, api, bridge };
}

function ask(r: Rig, question: string, options: { signal?: AbortSignal; onText?: (t: string) => void; progress?: ProgressEvent[] } = {}) {
  const settings: Settings = { ...structuredClone(DEFAULT_SETTINGS), excludedFolders: ["Private"], wikiLanguage: "en" };
  const vault = new NodeVault(r.vault.root);
  const provider = createCliProvider({
    bridgeUrl: r.bridge.url,
    token: () => TOKEN,
    fetch: globalThis.fetch,
    maxTurns: 10,
    maxBudgetUsd: 1,
    wikiFolder: "wiki",
    excludedFolders: settings.excludedFolders,
    vaultPath: r.vault.root,
  });
  return askWiki(
    { vault, provider, retriever: wordOverlapRetriever(vault), settings },
    { question, ...(options.signal ? { signal: options.signal } : {}), ...(options.onText ? { onText: options.onText } : {}) },
  );
}

/** What the agent's latest tool call returned, as sent back to the model in `body`. */
function toolResults(body: unknown): string {
  const messages = (body as { messages?: { content: unknown }[] } | undefined)?.messages ?? [];
  const blocks = messages.flatMap((m) => (Array.isArray(m.content) ? (m.content as { type?: string; content?: unknown }[]) : []));
  return JSON.stringify(blocks.filter((b) => b.type === "tool_result").at(-1)?.content ?? null);
}

describe("asking the wiki through the bridge with the real agent SDK", () => {
  it("streams a read-only agent's answer, checks its citations, stages no excluded note and writes nothing", async () => {
    const answer = ["A CRDT lets replicas ", "merge without conflicts [[CRDT]], ", "as [[Local-first software]] explains; see also [[Nowhere]]."];
    const r = await rig([
      toolTurn("Glob", { pattern: "**/*.md" }),
      toolTurn("Grep", { pattern: "replicas", path: "wiki" }),
      // Not offered: the SDK refuses it, and the bridge would too.
      toolTurn("Write", { file_path: "wiki/Hack.md", content: "x" }),
      piecesTurn(answer),
    ]);
    const before = r.vault.snapshot();
    const pieces: string[] = [];

    const report = await ask(r, "What do CRDT replicas do?", { onText: (t) => pieces.push(t) });

    expect(report.error).toBeNull();
    expect(report.grounding).toBe("vault");
    // The answer arrived piece by piece, as the model wrote it.
    expect(pieces).toEqual(answer);
    expect(report.answer).toBe(answer.join(""));
    expect(report.citations.map((c) => [c.page, c.verified])).toEqual([
      ["CRDT", true],
      ["Local-first software", true],
      ["Nowhere", false],
    ]);
    expect(report.usage.inputTokens).toBeGreaterThan(0);
    expect(report.provider).toMatchObject({ name: "claude-agent", mode: "cli", isLocal: false });

    const requests = r.api.agentRequests();
    const first = requests[0]?.body as { tools: { name: string }[]; system: { text: string }[] };
    expect(first.tools.map((t) => t.name).filter((n) => n !== "DeferredToolPlaceholder").sort()).toEqual(["Glob", "Grep", "Read"]);
    const system = first.system.map((b) => b.text).join("\n");
    expect(system).toContain("There is no Write or Edit");
    expect(system).toContain("Write the answer in English");
    // The Glob's result is the staging copy: the wiki and the notes, never the excluded folder.
    const globbed = toolResults(requests[1]?.body);
    expect(globbed).toContain(EXISTING_PAGE_PATH);
    expect(globbed).toContain(NOTE_PATH);
    expect(globbed).toContain(PAGE);
    expect(globbed).not.toContain("Private");
    expect(toolResults(requests[3]?.body)).toMatch(/Write/);
    for (const request of r.api.requests) expect(JSON.stringify(request.body)).not.toContain(SECRET);
    // The question carried the numbered passages the citations are checked against.
    expect(JSON.stringify(first)).toContain("[1] [[");
    expect(r.vault.snapshot()).toEqual(before);
  });

  it("verifies a citation of a page the agent read itself, with what it read; one it never read, could not read, or that does not exist stays unverified", async () => {
    const answer = "Replicas merge [[CRDT]]; the library is [[Automerge]]. See also [[Yjs]], [[Ghost]] and [[CRDT notes]].";
    const r = await rig([
      // Not among the passages sent (it shares no word with the question): the agent finds it itself.
      toolTurn("Read", { file_path: AUTOMERGE }),
      // A page that does not exist: the Read fails.
      toolTurn("Read", { file_path: "wiki/concepts/Ghost.md" }),
      // The excluded folder: never staged, and the bridge refuses the call.
      toolTurn("Read", { file_path: "Private/CRDT notes.md" }),
      piecesTurn([answer]),
    ]);
    r.vault.write(AUTOMERGE, pageMarkdown("Automerge", { body: "Automerge is a JSON library for collaborative apps, written in Rust." }));
    r.vault.write(YJS, pageMarkdown("Yjs", { body: "Yjs is a JavaScript library for shared editing." }));

    const report = await ask(r, "What do CRDT replicas do?");

    expect(report.error).toBeNull();
    expect(report.answer).toBe(answer);
    // Automerge was not sent: only the agent's own read makes its citation checkable.
    expect(report.passages.map((p) => p.path)).not.toContain(AUTOMERGE);
    expect(report.citations.map((c) => [c.page, c.path, c.verified])).toEqual([
      ["CRDT", EXISTING_PAGE_PATH, true],
      ["Automerge", AUTOMERGE, true],
      ["Yjs", null, false],
      ["Ghost", null, false],
      ["CRDT notes", null, false],
    ]);
    // The passage shown for it is what the agent read, without the Read tool's line numbers.
    const read = report.consulted.find((p) => p.path === AUTOMERGE);
    expect(read?.text).toMatch(/^Automerge is a JSON library for collaborative apps/);
    expect(read?.text).not.toMatch(/^\s*\d+(→|\t)/m);
    expect(report.consulted.map((p) => p.path)).toEqual([AUTOMERGE]);
    for (const request of r.api.requests) expect(JSON.stringify(request.body)).not.toContain(SECRET);
  });

  it("keeps a page the agent read unverified once it no longer exists in the vault", async () => {
    const r = await rig([toolTurn("Read", { file_path: AUTOMERGE }), piecesTurn(["It is [[Automerge]]; replicas merge [[CRDT]]."])]);
    r.vault.write(AUTOMERGE, pageMarkdown("Automerge", { body: "Automerge is a JSON library." }));
    // The page is gone from the vault by the time the answer is checked (the staging copy still had it).
    const report = await ask(r, "What do CRDT replicas do?", { onText: () => rmSync(join(r.vault.root, AUTOMERGE), { force: true }) });
    expect(report.error).toBeNull();
    expect(report.citations.find((c) => c.page === "Automerge")).toMatchObject({ path: AUTOMERGE, verified: false, reason: "This page no longer exists in the vault." });
  });

  it("cancels mid-answer: the agent stops, its stream closes, and the answer is reported as cancelled", async () => {
    const r = await rig([piecesTurn(["A CRDT lets replicas ", "merge [[CRDT]]."], { hangAfterPieces: 1 })]);
    const controller = new AbortController();
    const pieces: string[] = [];
    const asked = ask(r, "What do CRDT replicas do?", {
      signal: controller.signal,
      onText: (t) => {
        pieces.push(t);
        controller.abort();
      },
    });
    const report = await asked;
    expect(pieces).toEqual(["A CRDT lets replicas "]);
    expect(report.error?.kind).toBe("cancelled");
    await eventually(() => expect(r.bridge.activeRuns()).toBe(0));
    await eventually(() => expect(r.api.openStreams()).toBe(0));
  });
});
