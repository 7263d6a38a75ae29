/**
 * A stand-in for Obsidian's `requestUrl` that really goes over the network, through Node's http,
 * so the requestUrl-backed fetch and the SDKs above it meet a real server. It behaves as Obsidian's
 * does where it matters: the whole body at once, `contentType` becomes the Content-Type header,
 * `throw: false` returns error statuses, and a refused connection throws a net:: error.
 */
import { Buffer } from "node:buffer";
import { request as httpRequest } from "node:http";
import type { RequestUrlParam, RequestUrlResponse } from "obsidian";

export interface ForwardedCall {
  readonly param: RequestUrlParam;
}

export function nodeRequestUrl(calls: ForwardedCall[] = []): (param: RequestUrlParam | string) => Promise<RequestUrlResponse> {
  return (input) => {
    const param: RequestUrlParam = typeof input === "string" ? { url: input } : input;
    calls.push({ param });
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = { ...(param.headers ?? {}) };
      if (param.contentType) headers["content-type"] = param.contentType;
      const body = param.body === undefined ? undefined : typeof param.body === "string" ? Buffer.from(param.body) : Buffer.from(param.body);
      if (body) headers["content-length"] = String(body.byteLength);
      const req = httpRequest(param.url, { method: param.method ?? "GET", headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const bytes = Buffer.concat(chunks);
          const text = bytes.toString("utf8");
          const status = res.statusCode ?? 0;
          if (status >= 400 && param.throw !== false) {
            reject(new Error(`Request failed, status ${status}`));
            return;
          }
          const responseHeaders: Record<string, string> = {};
          for (const [key, value] of Object.entries(res.headers)) {
            if (value !== undefined) responseHeaders[key] = Array.isArray(value) ? value.join(", ") : value;
          }
          resolve({
            status,
            headers: responseHeaders,
            arrayBuffer: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
            text,
            get json(): unknown {
              return JSON.parse(text) as unknown;
            },
          });
        });
      });
      req.on("error", (error: Error & { code?: string }) => {
        reject(new Error(error.code === "ECONNREFUSED" ? "net::ERR_CONNECTION_REFUSED" : `net::ERR_FAILED (${error.message})`));
      });
      req.end(body);
    });
  };
}
