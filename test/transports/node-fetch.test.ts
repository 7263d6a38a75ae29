import { Buffer } from "node:buffer";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeFetch } from "../../src/providers/transports/node-fetch";

interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

/** A scripted server on 127.0.0.1: each path is one behaviour the transport must handle. */
function startServer(): Promise<{ url: string; server: Server; recorded: Recorded[]; closedEarly: string[] }> {
  const recorded: Recorded[] = [];
  const closedEarly: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const path = req.url ?? "/";
      recorded.push({ method: req.method ?? "", url: path, headers: req.headers, body });
      res.on("close", () => {
        if (!res.writableFinished) closedEarly.push(path);
      });
      if (path === "/echo") {
        res.writeHead(201, { "content-type": "application/json", "x-request-id": "req_1" });
        res.end(JSON.stringify({ method: req.method, body, auth: req.headers.authorization ?? null }));
      } else if (path === "/sse") {
        res.writeHead(200, { "content-type": "text/event-stream" });
        let n = 0;
        const timer = setInterval(() => {
          n += 1;
          res.write(`data: {"n":${n}}\n\n`);
          if (n === 3) {
            clearInterval(timer);
            res.end();
          }
        }, 30);
      } else if (path === "/hang-body") {
        res.writeHead(200, { "content-type": "application/x-ndjson" });
        res.write('{"first":true}\n');
      } else if (path === "/hang-headers") {
        // never answers
      } else if (path === "/gzip") {
        res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
        res.end(gzipSync(Buffer.from(JSON.stringify({ zipped: "yes" }))));
      } else if (path === "/redirect") {
        res.writeHead(303, { location: "/echo" });
        res.end();
      } else if (path === "/no-content") {
        res.writeHead(204);
        res.end();
      } else if (path === "/error") {
        res.writeHead(429, { "content-type": "application/json", "retry-after": "2" });
        res.end(JSON.stringify({ error: "slow down" }));
      } else if (path === "/cut") {
        res.writeHead(200, { "content-type": "text/plain", "content-length": "100" });
        res.write("partial");
        setTimeout(() => res.socket?.destroy(), 20);
      } else {
        res.writeHead(404);
        res.end("missing");
      }
    });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, server, recorded, closedEarly });
    });
  });
}

describe("node fetch (desktop streaming transport)", () => {
  let base: string;
  let server: Server;
  let recorded: Recorded[];
  let closedEarly: string[];
  const fetch = createNodeFetch();

  beforeAll(async () => {
    ({ url: base, server, recorded, closedEarly } = await startServer());
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("sends method, headers and body and returns status, headers and body", async () => {
    const response = await fetch(`${base}/echo`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer t0ken" },
      body: JSON.stringify({ hello: "world" }),
    });
    expect(response.status).toBe(201);
    expect(response.headers.get("x-request-id")).toBe("req_1");
    expect(await response.json()).toEqual({ method: "POST", body: '{"hello":"world"}', auth: "Bearer t0ken" });
    const sent = recorded.find((r) => r.url === "/echo");
    expect(sent?.headers["content-length"]).toBe("17");
    expect(sent?.headers["content-type"]).toBe("application/json");
  });

  it("streams the body chunk by chunk as the server writes it", async () => {
    const response = await fetch(`${base}/sse`);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    const seen: string[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      seen.push(decoder.decode(value));
    }
    // Written 30 ms apart, so they arrive as separate reads, not one buffered body.
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(seen.join("")).toBe('data: {"n":1}\n\ndata: {"n":2}\n\ndata: {"n":3}\n\n');
  });

  it("rejects at once when the signal is already aborted, without sending anything", async () => {
    const before = recorded.length;
    const controller = new AbortController();
    controller.abort();
    await expect(fetch(`${base}/echo`, { signal: controller.signal })).rejects.toMatchObject({ name: "AbortError" });
    expect(recorded.length).toBe(before);
  });

  it("aborts while waiting for the response headers", async () => {
    const controller = new AbortController();
    const pending = fetch(`${base}/hang-headers`, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
  });

  it("aborts mid-body: the reader fails with the abort reason and the connection is closed", async () => {
    const controller = new AbortController();
    const response = await fetch(`${base}/hang-body`, { signal: controller.signal });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('{"first":true}\n');
    const reason = new Error("user cancelled");
    controller.abort(reason);
    await expect(reader.read()).rejects.toBe(reason);
    await expect.poll(() => closedEarly.includes("/hang-body")).toBe(true);
  });

  it("cancelling the body stream closes the connection", async () => {
    const response = await fetch(`${base}/hang-body`);
    await response.body?.cancel();
    await expect.poll(() => closedEarly.filter((p) => p === "/hang-body").length).toBeGreaterThanOrEqual(2);
  });

  it("decompresses a gzip body", async () => {
    const response = await fetch(`${base}/gzip`);
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(await response.json()).toEqual({ zipped: "yes" });
  });

  it("follows a 303 redirect as a GET", async () => {
    const response = await fetch(`${base}/redirect`, { method: "POST", body: "x" });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ method: "GET", body: "" });
  });

  it("returns a null body for 204 and error statuses as responses, not rejections", async () => {
    const empty = await fetch(`${base}/no-content`);
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
    const limited = await fetch(`${base}/error`);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("2");
    expect(await limited.json()).toEqual({ error: "slow down" });
  });

  it("reports a cut-off body as a stream error", async () => {
    const response = await fetch(`${base}/cut`);
    await expect(response.text()).rejects.toThrow();
  });

  it("rejects a refused connection with TypeError('fetch failed') and the ECONNREFUSED cause", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const error = await fetch(`http://127.0.0.1:${port}/`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toBe("fetch failed");
    expect(((error as TypeError).cause as { code?: string }).code).toBe("ECONNREFUSED");
  });

  it("accepts a Request object as input", async () => {
    const response = await fetch(new Request(`${base}/echo`, { method: "PUT", body: "from a request" }));
    expect(await response.json()).toMatchObject({ method: "PUT", body: "from a request" });
  });
});
