import Anthropic from "@anthropic-ai/sdk";
import { Buffer } from "node:buffer";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Ollama } from "ollama/browser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WAIT_MS } from "../helpers/eventually";
import { createRequestUrlFetch } from "../../src/obsidian/request-url-fetch";
import { startScriptedServer, type ScriptedServer } from "../helpers/scripted-server";
import { nodeRequestUrl, type ForwardedCall } from "./node-request-url";

interface Seen {
  method: string;
  headers: IncomingMessage["headers"];
  body: string;
}

function startEchoServer(): Promise<{ server: Server; base: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      seen.push({ method: req.method ?? "", headers: req.headers, body });
      if (req.url === "/missing") {
        res.writeHead(404, { "content-type": "application/json" });
        res.end('{"error":"not here"}');
      } else if (req.url === "/empty") {
        res.writeHead(204);
        res.end();
      } else if (req.url === "/slow") {
        setTimeout(() => res.end("late"), 60_000).unref();
      } else {
        res.writeHead(200, { "content-type": "application/json", "x-request-id": "abc" });
        res.end(JSON.stringify({ method: req.method, body }));
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve({ server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen })),
  );
}

describe("the requestUrl-backed fetch", () => {
  let server: Server;
  let base: string;
  let seen: Seen[];
  const calls: ForwardedCall[] = [];
  const fetch = createRequestUrlFetch(nodeRequestUrl(calls));

  beforeAll(async () => {
    ({ server, base, seen } = await startEchoServer());
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("hands requestUrl the method, headers, content type and body, with throw: false", async () => {
    const response = await fetch(`${base}/echo`, {
      method: "post",
      headers: { "Content-Type": "application/json", "x-api-key": "k", "Content-Length": "999" },
      body: '{"a":1}',
    });
    const param = calls.at(-1)?.param;
    expect(param).toMatchObject({ url: `${base}/echo`, method: "POST", contentType: "application/json", body: '{"a":1}', throw: false });
    // Content type travels as contentType; hop-by-hop and length headers are Electron's to set.
    expect(param?.headers).toEqual({ "x-api-key": "k" });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toBe("abc");
    expect(await response.json()).toEqual({ method: "POST", body: '{"a":1}' });
    expect(seen.at(-1)?.headers["content-type"]).toBe("application/json");
  });

  it("turns binary and form bodies into what requestUrl takes", async () => {
    await fetch(`${base}/echo`, { method: "PUT", body: new Uint8Array([104, 105]) });
    expect(calls.at(-1)?.param.body).toBeInstanceOf(ArrayBuffer);
    expect(seen.at(-1)?.body).toBe("hi");
    await fetch(`${base}/echo`, { method: "POST", body: new URLSearchParams({ q: "bees" }) });
    expect(calls.at(-1)?.param.contentType).toMatch(/^application\/x-www-form-urlencoded/);
    expect(seen.at(-1)?.body).toBe("q=bees");
  });

  it("returns error statuses as responses, and 204 without a body", async () => {
    const missing = await fetch(`${base}/missing`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: "not here" });
    const empty = await fetch(`${base}/empty`, { method: "DELETE" });
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
  });

  it("rejects an already-aborted request without calling requestUrl", async () => {
    const before = calls.length;
    const controller = new AbortController();
    controller.abort();
    await expect(fetch(`${base}/echo`, { signal: controller.signal })).rejects.toMatchObject({ name: "AbortError" });
    expect(calls.length).toBe(before);
  });

  it("rejects at once when aborted while requestUrl is still waiting", async () => {
    const controller = new AbortController();
    const started = Date.now();
    const pending = fetch(`${base}/slow`, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    // Far below the server's minute: the abort did not wait for requestUrl.
    expect(Date.now() - started).toBeLessThan(WAIT_MS);
  });

  it("reports a refused connection as fetch does: TypeError with an ECONNREFUSED cause", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const error = await fetch(`http://127.0.0.1:${port}/`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toContain("ERR_CONNECTION_REFUSED");
    expect(((error as TypeError).cause as { code?: string }).code).toBe("ECONNREFUSED");
  });
});

describe("the SDKs over the requestUrl-backed fetch", () => {
  let anthropic: ScriptedServer;
  let ollama: ScriptedServer;
  const fetch = createRequestUrlFetch(nodeRequestUrl());

  beforeAll(async () => {
    anthropic = await startScriptedServer({ protocol: "anthropic", script: [{ kind: "content", text: "Hello from the scripted API." }] });
    ollama = await startScriptedServer({ protocol: "ollama", version: "0.6.2", models: [{ name: "llama3.2:latest", capabilities: ["completion"] }] });
  });
  afterAll(async () => {
    await anthropic.close();
    await ollama.close();
  });

  it("the Anthropic SDK, in browser mode as in Obsidian, completes a message", async () => {
    const client = new Anthropic({ apiKey: "sk-ant-test", baseURL: anthropic.url, fetch, maxRetries: 0, dangerouslyAllowBrowser: true });
    const message = await client.messages.create({ model: "claude-sonnet-4-6", max_tokens: 64, messages: [{ role: "user", content: "Hi" }] });
    expect(message.content[0]).toMatchObject({ type: "text", text: "Hello from the scripted API." });
    const sent = anthropic.modelRequests()[0];
    expect(sent?.headers["x-api-key"] ?? sent?.headers.authorization).toContain("sk-ant-test");
    expect(sent?.headers["anthropic-dangerous-direct-browser-access"]).toBe("true");
  });

  it("the Ollama client lists the server's models", async () => {
    const client = new Ollama({ host: ollama.url, fetch });
    const list = await client.list();
    expect(list.models.map((m) => m.name)).toEqual(["llama3.2:latest"]);
  });
});
