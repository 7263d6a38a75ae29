/**
 * The bridge's gate and its refusals, over real HTTP with forged headers: no token, a wrong token,
 * a foreign Host (DNS rebinding) or Origin (a web page), an oversized body, a vault it does not
 * serve, paths that climb out. None of these may reach the agent or touch the vault.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_REQUEST_BYTES } from "../../src/core/bridge-protocol";
import { tokenMatches } from "../../src/bridge/security";
import { startBridgeServer, type BridgeServer } from "../../src/bridge/server";
import { authHeaders, rawRequest, type RawResponse } from "../helpers/bridge-client";
import { makeVault, NOTE_PATH, type TestVault } from "../helpers/bridge-fixtures";
import { fakeAgent } from "../helpers/fake-agent-query";
import { until } from "../helpers/eventually";

const TOKEN = "security-token-0123456789abcdef";

describe("the bridge's gate", () => {
  let vault: TestVault;
  let other: string;
  let bridge: BridgeServer;
  let before: Map<string, string>;
  const hanging = fakeAgent({ steps: [], hang: true });

  beforeAll(async () => {
    vault = makeVault();
    other = mkdtempSync(join(tmpdir(), "synapse-other-vault-"));
    bridge = await startBridgeServer({
      vaults: [vault.root],
      token: TOKEN,
      port: 0,
      version: "test",
      env: { ANTHROPIC_API_KEY: "sk-ant-test" },
      maxConcurrentRuns: 1,
      loadQuery: () => Promise.resolve(hanging.query),
    });
    before = vault.snapshot();
  });

  afterAll(async () => {
    await bridge.close();
    vault.dispose();
    rmSync(other, { recursive: true, force: true });
  });

  const host = () => `127.0.0.1:${bridge.port}`;
  const ingestBody = (overrides: Record<string, unknown> = {}) =>
    JSON.stringify({ vault: vault.root, notePath: NOTE_PATH, wikiFolder: "wiki", maxTurns: 5, maxBudgetUsd: 0.5, ...overrides });
  const post = (body: string, headers: Record<string, string> = {}) =>
    rawRequest(bridge.url, { method: "POST", path: "/ingest", headers: { ...authHeaders(TOKEN, { host: host() }), ...headers }, body });

  function expectError(response: RawResponse, status: number, code: string): void {
    expect(response.status).toBe(status);
    expect(response.headers["content-type"]).toContain("application/json");
    const body = response.json() as { error: { code: string; message: string } };
    expect(body.error.code).toBe(code);
    expect(body.error.message.length).toBeGreaterThan(10);
  }

  it("refuses a request without a token", async () => {
    const response = await rawRequest(bridge.url, { path: "/health", headers: { host: host() } });
    expectError(response, 401, "missing_token");
    expect(response.headers["www-authenticate"]).toBe("Bearer");
  });

  it("refuses a wrong token, whatever its length or scheme", async () => {
    for (const authorization of [`Bearer ${TOKEN.slice(0, -1)}x`, "Bearer short", `Bearer ${TOKEN}${TOKEN}`, `Basic ${TOKEN}`]) {
      const response = await rawRequest(bridge.url, { path: "/health", headers: { host: host(), authorization } });
      expectError(response, 401, authorization.startsWith("Basic") ? "missing_token" : "invalid_token");
    }
  });

  it("refuses a foreign Host header (DNS rebinding), even with the right token", async () => {
    for (const foreign of ["evil.example", `evil.example:${bridge.port}`, `127.0.0.1:${bridge.port + 1}`, `0.0.0.0:${bridge.port}`]) {
      const response = await rawRequest(bridge.url, { path: "/health", headers: { host: foreign, authorization: `Bearer ${TOKEN}` } });
      expectError(response, 403, "forbidden_host");
    }
  });

  it("refuses a web page's Origin, and accepts Obsidian's", async () => {
    for (const origin of ["https://evil.example", "null", `http://127.0.0.1:${bridge.port}`]) {
      const response = await rawRequest(bridge.url, { path: "/health", headers: { host: host(), origin, authorization: `Bearer ${TOKEN}` } });
      expectError(response, 403, "forbidden_origin");
    }
    const obsidian = await rawRequest(bridge.url, {
      path: "/health",
      headers: { host: `localhost:${bridge.port}`, origin: "app://obsidian.md", authorization: `Bearer ${TOKEN}` },
    });
    expect(obsidian.status).toBe(200);
  });

  it("refuses an oversized body, declared or streamed", async () => {
    const big = "x".repeat(MAX_REQUEST_BYTES + 1);
    expectError(await post(big), 413, "payload_too_large");
    // Chunked, without a Content-Length: the cap holds while reading.
    const streamed = await new Promise<RawResponse>((resolve, reject) => {
      const req = request(
        { host: "127.0.0.1", port: bridge.port, path: "/ingest", method: "POST", headers: authHeaders(TOKEN, { host: host(), "transfer-encoding": "chunked" }) },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => {
            const text = Buffer.concat(chunks).toString("utf8");
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) as unknown });
          });
        },
      );
      req.on("error", reject);
      const chunk = "y".repeat(64 * 1024);
      for (let sent = 0; sent <= MAX_REQUEST_BYTES; sent += chunk.length) req.write(chunk);
      req.end();
    });
    expectError(streamed, 413, "payload_too_large");
  });

  it("refuses a vault it was not started with, and paths that lead out of the served one", async () => {
    expectError(await post(ingestBody({ vault: other })), 403, "vault_not_served");
    expectError(await post(ingestBody({ vault: join(vault.root, "wiki") })), 403, "vault_not_served");
    expectError(await post(ingestBody({ vault: join(vault.root, "..", other.slice(other.lastIndexOf("/") + 1)) })), 403, "vault_not_served");
    expectError(await post(ingestBody({ vault: join(other, "missing") })), 403, "vault_not_served");
    for (const notePath of ["../outside.md", "/etc/passwd.md", "Clippings/../../x.md", "C:/x.md", "a\\..\\b.md", "notes/x.txt"]) {
      expectError(await post(ingestBody({ notePath })), 400, "invalid_request");
    }
    for (const wikiFolder of ["..", "/", "wiki/../..", ""]) {
      expectError(await post(ingestBody({ wikiFolder })), 400, "invalid_request");
    }
    expectError(await post(ingestBody({ notePath: "Clippings/Missing.md" })), 404, "note_not_found");
  });

  it("answers unknown routes, wrong methods and malformed bodies with clear JSON errors", async () => {
    const auth = { host: host(), authorization: `Bearer ${TOKEN}` };
    expectError(await rawRequest(bridge.url, { path: "/admin", headers: auth }), 404, "not_found");
    const wrongMethod = await rawRequest(bridge.url, { path: "/ingest", headers: auth });
    expectError(wrongMethod, 405, "method_not_allowed");
    expect(wrongMethod.headers.allow).toBe("POST");
    expectError(await post(ingestBody(), { "content-type": "text/plain" }), 415, "unsupported_media_type");
    expectError(await post("{not json"), 400, "invalid_json");
    expectError(await post(ingestBody({ maxTurns: 0 })), 400, "invalid_request");
    expectError(await post(ingestBody({ shell: "rm -rf /" })), 400, "invalid_request");
  });

  it("never reached the agent nor touched the vault for any refused request", () => {
    expect(hanging.calls).toEqual([]);
    expect(vault.snapshot()).toEqual(before);
  });

  it("runs a bounded number of ingests at once and says so when busy", async () => {
    const first = fetch(`${bridge.url}/ingest`, { method: "POST", headers: authHeaders(TOKEN), body: ingestBody() });
    const response = await first;
    expect(response.status).toBe(200);
    expect(bridge.activeRuns()).toBe(1);
    expectError(await post(ingestBody()), 429, "busy");
    await response.body?.cancel();
    await until(() => bridge.activeRuns() === 0, "the bridge's run ends");
  });

  it("holds the limit when simultaneous requests arrive while the SDK is still loading", async () => {
    let release!: () => void;
    const loaded = new Promise<void>((resolve) => (release = resolve));
    const slow = await startBridgeServer({
      vaults: [vault.root],
      token: TOKEN,
      port: 0,
      version: "test",
      env: { ANTHROPIC_API_KEY: "sk-ant-test" },
      maxConcurrentRuns: 1,
      // The SDK finishes loading only once two of the three requests are answered: all three
      // arrive while it loads, however slowly the machine gets them there.
      loadQuery: () => loaded.then(() => hanging.query),
    });
    try {
      let answered = 0;
      const pending = [1, 2, 3].map(() =>
        fetch(`${slow.url}/ingest`, { method: "POST", headers: authHeaders(TOKEN), body: ingestBody() }).then((response) => {
          answered += 1;
          return response;
        }),
      );
      await until(() => answered >= 2, "two of the requests to be answered while the SDK loads");
      release();
      const responses = await Promise.all(pending);
      expect(responses.map((r) => r.status).sort()).toEqual([200, 429, 429]);
      expect(slow.activeRuns()).toBe(1);
      for (const response of responses) await response.body?.cancel();
    } finally {
      await slow.close();
    }
  });

  it("compares tokens in constant time over digests, refusing an empty expected token", () => {
    expect(tokenMatches(TOKEN, TOKEN)).toBe(true);
    expect(tokenMatches(`${TOKEN}x`, TOKEN)).toBe(false);
    expect(tokenMatches("", "")).toBe(false);
  });
});
