/**
 * Cancelling a real agent run mid-way: the model's second turn never arrives (the scripted API
 * holds the stream open). Aborting the run through the provider closes the request; POST /cancel
 * names the run. Either way the agent process stops (its API stream is closed), the run ends and
 * nothing comes back.
 */
import { afterEach, describe, expect, it } from "vitest";
import { SynapseError } from "../../src/core/errors";
import { createRunContext } from "../../src/core/run-context";
import type { BridgeEvent } from "../../src/core/bridge-protocol";
import { startBridgeServer, type BridgeServer } from "../../src/bridge/server";
import { createCliProvider } from "../../src/providers/cli";
import { authHeaders, ingestEvents, rawRequest } from "../helpers/bridge-client";
import { bridgeEnv, makeVault, NOTE_PATH, NOTE_TEXT, tempHome, type TestVault } from "../helpers/bridge-fixtures";
import { startScriptedMessagesApi, toolTurn, type ScriptedMessagesApi } from "../helpers/scripted-messages-api";
import { until } from "../helpers/eventually";

const TOKEN = "cancel-token-0123456789abcdef";
const SEED = { title: "", language: "", summary: "", topics: [], entities: [], concepts: [] };

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

async function hangingRig(): Promise<{ vault: TestVault; api: ScriptedMessagesApi; bridge: BridgeServer }> {
  const vault = makeVault();
  const home = tempHome();
  const api = await startScriptedMessagesApi([toolTurn("Glob", { pattern: "wiki/**/*.md" }), { blocks: [], hang: true }]);
  const bridge = await startBridgeServer({ vaults: [vault.root], token: TOKEN, port: 0, version: "test", env: bridgeEnv(api.url, home.path) });
  cleanups.push(vault.dispose, home.dispose, () => api.close(), () => bridge.close());
  return { vault, api, bridge };
}

describe("cancelling an agent run", () => {
  it("stops the agent when the caller aborts the run (the request is closed)", async () => {
    const { vault, api, bridge } = await hangingRig();
    const controller = new AbortController();
    // Drop the provider's explicit /cancel call: closing the request alone must stop the agent.
    const dropped: string[] = [];
    const fetchWithoutCancel: typeof fetch = (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url.endsWith("/cancel")) {
        dropped.push(url);
        return Promise.reject(new TypeError("dropped by the test"));
      }
      return globalThis.fetch(input, init);
    };
    const provider = createCliProvider({
      bridgeUrl: bridge.url,
      token: TOKEN,
      fetch: fetchWithoutCancel,
      maxTurns: 10,
      maxBudgetUsd: 1,
      wikiFolder: "wiki",
      vaultPath: vault.root,
    });
    const run = createRunContext({ signal: controller.signal, source: { path: NOTE_PATH, text: NOTE_TEXT } });
    const pending = provider.generate({ analysis: SEED, note: "", related: "" }, run);
    await api.waitForTurn(1);
    expect(bridge.activeRuns()).toBe(1);
    controller.abort();

    const error: unknown = await pending.then(
      () => null,
      (e: unknown) => e,
    );
    expect(SynapseError.isInstance(error) && error.kind).toBe("cancelled");
    // The agent process went away: its held-open API stream was closed, and the run ended.
    await until(() => api.openStreams() === 0 && bridge.activeRuns() === 0, "the agent and its stream stop");
    expect(run.usage.entries).toEqual([]);
    expect(dropped).toEqual([`${bridge.url}/cancel`]);
  });

  it("stops the agent on POST /cancel with the run's id and ends the stream with a cancelled error", async () => {
    const { vault, api, bridge } = await hangingRig();
    let runId: string | null = null;
    const collected = ingestEvents(
      bridge.url,
      TOKEN,
      { vault: vault.root, notePath: NOTE_PATH, wikiFolder: "wiki", maxTurns: 10, maxBudgetUsd: 1 },
      (event: BridgeEvent) => {
        if (event.type === "started") runId = event.runId;
      },
    );
    await api.waitForTurn(1);
    expect(runId).not.toBeNull();
    const answer = await rawRequest(bridge.url, {
      method: "POST",
      path: "/cancel",
      headers: authHeaders(TOKEN, { host: `127.0.0.1:${bridge.port}` }),
      body: JSON.stringify({ runId }),
    });
    expect(answer.status).toBe(200);

    const { events } = await collected;
    expect(events.at(-1)).toEqual({ type: "error", error: { code: "cancelled", message: "The run was cancelled; nothing was returned." } });
    expect(events.some((e) => e.type === "result")).toBe(false);
    await until(() => api.openStreams() === 0 && bridge.activeRuns() === 0, "the agent and its stream stop");
  });
});
