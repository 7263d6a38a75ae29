/**
 * The bridge reads the served vault's own settings: a request that lists no excluded folders,
 * asks for every note, or names an excluded folder as its wiki or scope still never gets a note of
 * the vault's excluded folders staged for the agent. Through the real HTTP server, with a scripted
 * agent that records what it was given.
 */
import { afterEach, describe, expect, it } from "vitest";
import { startBridgeServer, type BridgeServer } from "../../src/bridge/server";
import { rawRequest, authHeaders, ingestEvents } from "../helpers/bridge-client";
import { makeVault, NOTE_PATH, type TestVault } from "../helpers/bridge-fixtures";
import { fakeAgent, type FakeAgent } from "../helpers/fake-agent-query";

const TOKEN = "perimeter-token-0123456789abcdef";
const SETTINGS = ".obsidian/plugins/synapse/data.json";
const SALARY = "Private/Salary review.md";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

interface Rig {
  readonly vault: TestVault;
  readonly bridge: BridgeServer;
  readonly agents: FakeAgent["calls"][];
}

async function rig(settings: string | null = JSON.stringify({ version: 1, excludedFolders: ["Private"] })): Promise<Rig> {
  const vault = makeVault();
  vault.write(SALARY, "# Salary review\n\nThe raise is 4 %.\n");
  vault.write("Private/wiki/index.md", "# A wiki inside the private folder\n");
  if (settings !== null) vault.write(SETTINGS, settings);
  const agents: FakeAgent["calls"][] = [];
  const bridge = await startBridgeServer({
    vaults: [vault.root],
    token: TOKEN,
    port: 0,
    version: "test",
    env: {},
    loadQuery: () => {
      const agent = fakeAgent({ steps: [], text: ["An answer."] });
      agents.push(agent.calls);
      return Promise.resolve(agent.query);
    },
  });
  cleanups.push(vault.dispose, () => bridge.close());
  return { vault, bridge, agents };
}

const ingestBody = (vault: string, extra: Record<string, unknown>) => ({ vault, notePath: NOTE_PATH, wikiFolder: "wiki", excludedFolders: [], maxTurns: 3, maxBudgetUsd: 1, ...extra });
const queryBody = (vault: string, extra: Record<string, unknown>) => ({
  vault,
  wikiFolder: "wiki",
  excludedFolders: [],
  notes: "none",
  messages: [{ role: "user", content: "What is in my vault?" }],
  maxTurns: 3,
  maxBudgetUsd: 1,
  ...extra,
});

async function post(r: Rig, path: "/ingest" | "/query", body: unknown) {
  return rawRequest(r.bridge.url, { method: "POST", path, headers: authHeaders(TOKEN), body: JSON.stringify(body) });
}

describe("the bridge's perimeter is the vault's own excluded folders", () => {
  it("refuses to ingest a note of an excluded folder that the request does not list", async () => {
    const r = await rig();
    const response = await post(r, "/ingest", ingestBody(r.vault.root, { notePath: SALARY }));
    expect(response.status).toBe(403);
    expect(response.json()).toMatchObject({ error: { code: "excluded", message: `"${SALARY}" is in an excluded folder; it is never sent to the agent.` } });
    expect(r.agents.flat()).toEqual([]);
  });

  it.each(["/ingest", "/query"] as const)("refuses an excluded folder as the wiki of %s", async (path) => {
    const r = await rig();
    const body = path === "/ingest" ? ingestBody(r.vault.root, { wikiFolder: "Private" }) : queryBody(r.vault.root, { wikiFolder: "Private/wiki" });
    const response = await post(r, path, body);
    expect(response.status).toBe(403);
    expect((response.json() as { error: { code: string; message: string } }).error).toMatchObject({ code: "excluded", message: expect.stringMatching(/^The wiki folder "Private(\/wiki)?" is in the vault's excluded folders/) });
    expect(r.agents.flat()).toEqual([]);
  });

  it("refuses a question scoped to an excluded folder", async () => {
    const r = await rig();
    const response = await post(r, "/query", queryBody(r.vault.root, { notes: { folders: ["Private"] } }));
    expect(response.status).toBe(403);
    expect(response.json()).toMatchObject({ error: { code: "excluded", message: `The folder "Private" is in the vault's excluded folders; the bridge never stages it for the agent.` } });
  });

  it("stages every note but the excluded ones for a question over all notes", async () => {
    const r = await rig();
    const response = await post(r, "/query", queryBody(r.vault.root, { notes: "all" }));
    expect(response.status).toBe(200);
    const staged = r.agents.flat()[0]?.staged ?? [];
    expect(staged).toContain(NOTE_PATH);
    expect(staged.filter((p) => p.startsWith("Private/"))).toEqual([]);
  });

  it("adds the request's excluded folders to the vault's", async () => {
    const r = await rig();
    const ok = await ingestEvents(r.bridge.url, TOKEN, ingestBody(r.vault.root, { excludedFolders: ["Archive"] }));
    expect(ok.events.at(-1)).toMatchObject({ type: "result" });
    const staged = r.agents.flat()[0]?.staged ?? [];
    expect(staged.filter((p) => p.startsWith("Private/"))).toEqual([]);
    // The request's own exclusion still holds, and so does the vault's beside it.
    expect((await post(r, "/ingest", ingestBody(r.vault.root, { excludedFolders: ["Clippings"] }))).status).toBe(403);
    expect((await post(r, "/ingest", ingestBody(r.vault.root, { notePath: SALARY, excludedFolders: ["Clippings"] }))).status).toBe(403);
  });

  it("refuses to stage a vault whose settings file cannot be read, as its excluded folders are unknown", async () => {
    const r = await rig("{ not json");
    const response = await post(r, "/query", queryBody(r.vault.root, { notes: "all" }));
    expect(response.status).toBe(409);
    expect(response.json()).toMatchObject({ error: { code: "settings_unreadable" } });
    expect(r.agents.flat()).toEqual([]);
  });
});
