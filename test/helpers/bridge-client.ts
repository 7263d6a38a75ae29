/** A raw HTTP client for the bridge in tests: exact headers, raw statuses, parsed NDJSON events. */
import { request } from "node:http";
import { parseEventLine, type BridgeEvent } from "../../src/core/bridge-protocol";

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  json(): unknown;
}

/** Sends one request with exactly the headers given (node:http, so Host and Origin can be forged). */
export function rawRequest(
  url: string,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<RawResponse> {
  const target = new URL(options.path, url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: target.hostname, port: target.port, path: target.pathname, method: options.method ?? "GET", headers: options.headers ?? {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) as unknown });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

export function authHeaders(token: string, extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${token}`, "content-type": "application/json", ...extra };
}

/** POST /ingest and collect every event of the stream. */
export async function ingestEvents(
  url: string,
  token: string,
  body: unknown,
  onEvent?: (event: BridgeEvent) => void,
  signal?: AbortSignal,
): Promise<{ status: number; events: BridgeEvent[]; error: unknown }> {
  const response = await fetch(`${url}/ingest`, {
    method: "POST",
    headers: authHeaders(token),
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
  const events: BridgeEvent[] = [];
  if (!response.body) return { status: response.status, events, error: null };
  const decoder = new TextDecoder();
  let buffer = "";
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let nl = buffer.indexOf("\n");
      while (nl >= 0) {
        const event = parseEventLine(buffer.slice(0, nl));
        buffer = buffer.slice(nl + 1);
        if (event) {
          events.push(event);
          onEvent?.(event);
        }
        nl = buffer.indexOf("\n");
      }
    }
  } catch (error) {
    return { status: response.status, events, error };
  }
  return { status: response.status, events, error: null };
}
