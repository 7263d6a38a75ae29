/**
 * The real Claude Agent SDK, run by the bridge against a scripted Messages API on 127.0.0.1:
 * an ingest through the `cli` provider and the orchestrator, and a repair round. Each test is one
 * or two real agent runs (about a second each).
 */
import { afterEach, describe, expect, it } from "vitest";
import { orchestrate } from "../../src/core/orchestrator";
import { createRunContext, type ProgressEvent } from "../../src/core/run-context";
import { startBridgeServer, type BridgeServer } from "../../src/bridge/server";
import { createCliProvider } from "../../src/providers/cli";
import { bridgeEnv, makeVault, NOTE_PATH, NOTE_TEXT, pageMarkdown, tempHome, type TestVault } from "../helpers/bridge-fixtures";
import { startScriptedMessagesApi, textTurn, toolTurn, type ScriptedMessagesApi, type ScriptedTurn } from "../helpers/scripted-messages-api";

const TOKEN = "test-token-0123456789abcdef";

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
  const home = tempHome();
  const api = await startScriptedMessagesApi(script);
  const bridge = await startBridgeServer({ vaults: [vault.root], token: TOKEN, port: 0, version: "test", env: bridgeEnv(api.url, home.path) });
  cleanups.push(vault.dispose, home.dispose, () => api.close(), () => bridge.close());
  return { vault, api, bridge };
}

function provider(r: Rig) {
  return createCliProvider({
    bridgeUrl: r.bridge.url,
    token: () => TOKEN,
    fetch: globalThis.fetch,
    maxTurns: 10,
    maxBudgetUsd: 1,
    wikiFolder: "wiki",
    vaultPath: r.vault.root,
  });
}

const OPTIONS = { maxIter: 3, tokenBudget: 0, retrievalContext: "", vaultContext: "" };

describe("ingest through the bridge with the real agent SDK", () => {
  it("returns the page the agent wrote in its staging copy, validated, and leaves the vault untouched", async () => {
    const r = await rig([
      toolTurn("Read", { file_path: NOTE_PATH }),
      toolTurn("Glob", { pattern: "wiki/**/*.md" }),
      toolTurn("Write", { file_path: "wiki/sources/Local-first software.md", content: pageMarkdown("Local-first software") }),
      textTurn("Wrote wiki/sources/Local-first software.md."),
    ]);
    const before = r.vault.snapshot();
    const progress: ProgressEvent[] = [];
    const run = createRunContext({ source: { path: NOTE_PATH, text: NOTE_TEXT }, progress: (e) => progress.push(e) });

    const result = await orchestrate(provider(r), OPTIONS, run);

    expect(result.error).toBeNull();
    expect(result.converged).toBe(true);
    expect(result.delegated).toBe(true);
    expect(result.pages).toEqual([
      {
        type: "source",
        title: "Local-first software",
        frontmatter: { sources: [NOTE_PATH], lang: "en", tags: ["local-first"] },
        content: "Local-first software keeps the primary copy of data on the user's devices; see [[CRDT]].",
      },
    ]);
    // The bridge never writes to the vault: the caller's write path does.
    expect(r.vault.snapshot()).toEqual(before);
    // Usage comes from the SDK's own result, cost included.
    const usage = run.usage.entries;
    expect(usage).toHaveLength(1);
    expect(usage[0]).toMatchObject({ provider: "claude-agent", operation: "agent" });
    expect(usage[0]?.inputTokens).toBeGreaterThan(0);
    expect(usage[0]?.costUsd).toBeGreaterThan(0);
    const activity = progress.flatMap((e) => (e.type === "activity" ? [e.message] : []));
    expect(activity).toContain("Agent wrote wiki/sources/Local-first software.md");
    expect(activity.some((m) => m.startsWith("Agent: Read"))).toBe(true);

    // What the agent was offered and told.
    const first = r.api.agentRequests()[0]?.body as { tools: { name: string }[]; system: { text: string }[]; messages: unknown[] };
    const offered = first.tools.map((t) => t.name).filter((n) => n !== "DeferredToolPlaceholder");
    expect(offered.sort()).toEqual(["Edit", "Glob", "Grep", "Read", "Write"]);
    const system = first.system.map((b) => b.text).join("\n");
    expect(system).toContain("type: one of entity, concept, source, synthesis, comparison");
    expect(system).toContain('under "wiki/"');
    expect(JSON.stringify(first.messages)).toContain(`Ingest the note \\"${NOTE_PATH}\\"`);
    // The agent got the bridge's key and base URL, and nothing else went anywhere.
    expect(r.api.agentRequests()[0]?.headers["x-api-key"]).toBe("sk-ant-test-key");
    expect(r.api.requests.filter((q) => q.kind === "unknown")).toEqual([]);
  });

  it("feeds invalid pages back for a repair round that starts from the previous pages", async () => {
    const invalid = pageMarkdown("Local-first software", { sources: [], lang: "english" });
    const r = await rig([
      // First run: a page without the note in its sources and with a bad language code.
      toolTurn("Write", { file_path: "wiki/sources/Local-first software.md", content: invalid }),
      textTurn("done"),
      // Repair run: the previous page is there to read; the agent fixes it.
      toolTurn("Read", { file_path: "wiki/sources/Local-first software.md" }),
      toolTurn("Write", { file_path: "wiki/sources/Local-first software.md", content: pageMarkdown("Local-first software") }),
      textTurn("fixed"),
    ]);
    const run = createRunContext({ source: { path: NOTE_PATH, text: NOTE_TEXT } });

    const result = await orchestrate(provider(r), OPTIONS, run);

    expect(result.converged).toBe(true);
    expect(result.attempts.generate).toBe(2);
    expect(result.pages[0]?.frontmatter).toEqual({ sources: [NOTE_PATH], lang: "en", tags: ["local-first"] });
    const requests = r.api.agentRequests();
    const repairPrompt = JSON.stringify(requests[2]?.body);
    expect(repairPrompt).toContain("Your previous reply was rejected");
    expect(repairPrompt).toContain("frontmatter.sources is empty");
    // The Read of the repair run returned the rejected page: the staging copy started from it.
    expect(JSON.stringify(requests[3]?.body)).toContain("lang: english");
    expect(run.usage.entries).toHaveLength(2);
  });
});
