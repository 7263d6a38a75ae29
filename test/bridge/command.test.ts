/** `synapse bridge`: arguments, the token, the first JSON line, and stopping cleanly. */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { runBridgeCommand } from "../../src/bridge/command";
import { makeVault, type TestVault } from "../helpers/bridge-fixtures";
import { until } from "../helpers/eventually";

interface Captured {
  stdout: string;
  stderr: string;
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

function vault(): TestVault {
  const v = makeVault();
  cleanups.push(v.dispose);
  return v;
}

function start(argv: string[], env: Record<string, string | undefined> = {}) {
  const out: Captured = { stdout: "", stderr: "" };
  const controller = new AbortController();
  const exit = runBridgeCommand(argv, {
    stdout: (s) => (out.stdout += s),
    stderr: (s) => (out.stderr += s),
    env,
    signal: controller.signal,
  });
  cleanups.push(async () => {
    controller.abort();
    await exit;
  });
  return { out, exit, stop: () => controller.abort() };
}

async function firstLine(out: Captured): Promise<string> {
  await until(() => out.stdout.includes("\n"), "the bridge's first line").catch((error: unknown) => {
    throw new Error(`${error instanceof Error ? error.message : String(error)}; stderr: ${out.stderr}`);
  });
  return out.stdout.slice(0, out.stdout.indexOf("\n"));
}

describe("synapse bridge", () => {
  it("prints {url, token} as its first line with --json, answers with that token, and stops with 0", async () => {
    const v = vault();
    const { out, exit, stop } = start(["--vault", v.root, "--port", "0", "--json"], { ANTHROPIC_API_KEY: "sk-ant-test" });
    const { url, token } = JSON.parse(await firstLine(out)) as { url: string; token: string };
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(token.length).toBeGreaterThanOrEqual(32);
    expect((await fetch(`${url}/health`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    expect((await fetch(`${url}/health`)).status).toBe(401);
    stop();
    expect(await exit).toBe(0);
    expect(out.stderr).not.toContain(token);
    await expect(fetch(`${url}/health`)).rejects.toThrow();
  });

  it("takes its token from SYNAPSE_BRIDGE_TOKEN and prints URL and token for people", async () => {
    const v = vault();
    const token = "a-token-chosen-by-the-user";
    const { out } = start(["--vault", v.root, "--port=0"], { SYNAPSE_BRIDGE_TOKEN: token });
    const line = await firstLine(out);
    expect(line).toMatch(/^Synapse bridge .* listening on http:\/\/127\.0\.0\.1:\d+$/);
    await until(() => out.stdout.includes("Paste the URL"), "the bridge's set-up lines");
    expect(out.stdout).toContain(`Token: ${token}\n`);
    const url = /listening on (\S+)/.exec(line)?.[1] ?? "";
    expect((await fetch(`${url}/health`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  });

  it("refuses bad arguments with exit code 2 and says why", async () => {
    const v = vault();
    const cases: [string[], Record<string, string>, string][] = [
      [[], {}, "Name at least one vault"],
      [["--vault", `${v.root}/missing`], {}, "Not a folder"],
      [["--vault", v.root, "--port", "http"], {}, "--port needs a number"],
      [["--vault", v.root, "--bind", "0.0.0.0"], {}, "Unknown option --bind"],
      [["--vault", v.root], { SYNAPSE_BRIDGE_TOKEN: "short" }, "shorter than 16 characters"],
    ];
    for (const [argv, env, message] of cases) {
      let stderr = "";
      const code = await runBridgeCommand(argv, { stdout: () => undefined, stderr: (s) => (stderr += s), env });
      expect(code).toBe(2);
      expect(stderr).toContain(message);
    }
  });

  it("says so when the port is taken", async () => {
    const v = vault();
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise<void>((resolve) => busy.close(() => resolve())));
    const port = (busy.address() as AddressInfo).port;
    let stderr = "";
    const code = await runBridgeCommand(["--vault", v.root, "--port", String(port)], { stdout: () => undefined, stderr: (s) => (stderr += s), env: {} });
    expect(code).toBe(1);
    expect(stderr).toContain(`Port ${port} is in use`);
  });
});
