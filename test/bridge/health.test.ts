/**
 * The doctor (GET /health) with the real installed SDK and binary, and the plugin's "Test
 * connection" (checkBridgeHealth) reading it. No agent runs.
 */
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { HealthReportSchema } from "../../src/core/bridge-protocol";
import { startBridgeServer, type BridgeServer } from "../../src/bridge/server";
import { checkBridgeHealth } from "../../src/providers/cli";
import { problemsOn } from "../../src/core/readiness";
import { rawRequest } from "../helpers/bridge-client";
import { makeVault, tempHome, type TestVault } from "../helpers/bridge-fixtures";

const TOKEN = "health-token-0123456789abcdef";
const SDK_VERSION = (JSON.parse(readFileSync("node_modules/@anthropic-ai/claude-agent-sdk/package.json", "utf8")) as { version: string }).version;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

async function bridgeWith(env: Record<string, string | undefined>): Promise<{ vault: TestVault; bridge: BridgeServer }> {
  const vault = makeVault();
  const bridge = await startBridgeServer({ vaults: [vault.root], token: TOKEN, port: 0, version: "9.9.9", env });
  cleanups.push(vault.dispose, () => bridge.close());
  return { vault, bridge };
}

describe("the bridge's doctor", () => {
  it("finds the SDK, starts its native binary, sees the API key and lists the vaults", async () => {
    const home = tempHome();
    cleanups.push(home.dispose);
    const { vault, bridge } = await bridgeWith({ HOME: home.path, ANTHROPIC_API_KEY: "sk-ant-test" });
    const response = await rawRequest(bridge.url, { path: "/health", headers: { host: `127.0.0.1:${bridge.port}`, authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    const report = HealthReportSchema.parse(response.json());
    expect(report).toMatchObject({
      ok: true,
      protocol: 1,
      version: "9.9.9",
      sdk: { found: true, version: SDK_VERSION },
      binary: { found: true },
      auth: { configured: true, method: "ANTHROPIC_API_KEY" },
      vaults: [vault.root],
      problems: [],
    });
    expect(report.binary.version).toMatch(/^\d+\.\d+\.\d+/);
    // The key itself never appears in the report.
    expect(response.text).not.toContain("sk-ant-test");
  });

  it("says in words what to fix when the agent has no credentials", async () => {
    const home = tempHome();
    cleanups.push(home.dispose);
    const { bridge } = await bridgeWith({ HOME: home.path });
    const health = await checkBridgeHealth({ bridgeUrl: bridge.url, token: TOKEN, fetch: globalThis.fetch });
    expect(health.ok).toBe(false);
    expect(health.reachable).toBe(true);
    expect(health.problems).toEqual(["The agent has no credentials; set ANTHROPIC_API_KEY in the bridge's environment and restart the bridge."]);
  });
});

describe("checkBridgeHealth (Test connection)", () => {
  it("reports a healthy bridge that serves this vault", async () => {
    const home = tempHome();
    cleanups.push(home.dispose);
    const { vault, bridge } = await bridgeWith({ HOME: home.path, ANTHROPIC_API_KEY: "sk-ant-test" });
    const health = await checkBridgeHealth({ bridgeUrl: bridge.url, token: TOKEN, fetch: globalThis.fetch, vaultPath: vault.root });
    expect(health).toMatchObject({ provider: "claude-agent", ok: true, reachable: true, version: "9.9.9", models: [], modelPresent: null, problems: [] });
    expect(health.details[0]).toBe(`The bridge 9.9.9 answers at ${bridge.url}.`);
  });

  it("names each thing that is wrong: other vault, wrong token, nothing listening, bad URL", async () => {
    const { bridge } = await bridgeWith({ ANTHROPIC_API_KEY: "sk-ant-test", HOME: "/nonexistent" });
    const otherVault = await checkBridgeHealth({ bridgeUrl: bridge.url, token: TOKEN, fetch: globalThis.fetch, vaultPath: "/somewhere/else" });
    expect(otherVault.problems.at(-1)).toContain('restart it with --vault "/somewhere/else"');

    const wrongToken = await checkBridgeHealth({ bridgeUrl: bridge.url, token: "not-the-token-000000", fetch: globalThis.fetch });
    expect(wrongToken).toMatchObject({ ok: false, reachable: true });
    expect(wrongToken.problems[0]).toContain("refused the token");
    expect(problemsOn(wrongToken, "plugin")[0]).toContain('the secret chosen under "Bridge token"');

    const noToken = await checkBridgeHealth({ bridgeUrl: bridge.url, token: "", fetch: globalThis.fetch, vaultPath: "/Users/ada/Notes" });
    expect(noToken.problems[0]).toContain("No bridge token is set");
    // Obsidian says what to run and where the token goes, not the CLI's environment variable.
    expect(problemsOn(noToken, "plugin")).toEqual([
      'Start the bridge in a terminal: synapse bridge --vault "/Users/ada/Notes". Put the token the bridge printed on start in the secret chosen under "Bridge token" (CLI agent through the bridge).',
    ]);

    const port = bridge.port;
    await bridge.close();
    const down = await checkBridgeHealth({ bridgeUrl: `http://127.0.0.1:${port}`, token: TOKEN, fetch: globalThis.fetch });
    expect(down).toMatchObject({ ok: false, reachable: false });
    expect(down.problems[0]).toContain("synapse bridge --vault");
    expect(problemsOn(down, "plugin")[0]).toBe(`Nothing answers at http://127.0.0.1:${port}. Start the bridge in a terminal: synapse bridge --vault "<your vault folder>". If it runs, set "Bridge URL" to the address it printed.`);
    for (const report of [noToken, down, wrongToken]) expect(problemsOn(report, "plugin").join(" ")).not.toMatch(/SYNAPSE_BRIDGE_TOKEN|npm run/);

    const remote = await checkBridgeHealth({ bridgeUrl: "http://example.com:8765", token: TOKEN, fetch: globalThis.fetch });
    expect(remote.problems[0]).toContain("only listens on this machine");
  });
});
