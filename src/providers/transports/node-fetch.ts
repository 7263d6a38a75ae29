/**
 * A streaming `fetch` over Node's `http`/`https`, for the desktop app. `requestUrl` hands back a
 * whole body at once, so streamed replies (SSE, NDJSON) need another transport; the renderer's own
 * `fetch` would stream but is subject to CORS. This one streams, honours an AbortSignal at every
 * stage (before the request, while waiting for headers, mid-body), and follows redirects.
 *
 * The CLI uses it too: Node's global fetch pays about 0.3 s on its first request (undici compiles
 * its HTTP parser), this transport does not.
 *
 * Desktop only: the plugin imports this module lazily behind `Platform.isDesktopApp`, so mobile
 * never evaluates the `node:` imports. The Response and ReadableStream it builds are the
 * environment's own globals (Chromium's in Obsidian), never Node's `stream/web` classes, which a
 * renderer-side consumer would not recognise.
 */
import * as http from "node:http";
import * as https from "node:https";
import type { Readable } from "node:stream";
import * as zlib from "node:zlib";
import type { FetchLike } from "../environment";

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;

interface PreparedRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: Uint8Array | null;
  redirect: RequestRedirect;
}

export interface NodeFetchOptions {
  /** Agents to reuse connections with; Node's global agents when left out. */
  readonly httpAgent?: http.Agent;
  readonly httpsAgent?: https.Agent;
}

export function createNodeFetch(options: NodeFetchOptions = {}): FetchLike {
  return async (input, init) => {
    const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined) ?? undefined;
    if (signal?.aborted) throw abortReason(signal);
    let request = await prepare(input, init);
    for (let hop = 0; ; hop++) {
      const { response, incoming } = await send(request, signal, options);
      const location = response.headers.get("location");
      if (!REDIRECT_STATUSES.has(response.status) || location === null || request.redirect === "manual") {
        return response;
      }
      incoming.resume();
      if (request.redirect === "error" || hop >= MAX_REDIRECTS) {
        throw new TypeError(`fetch failed: too many redirects or redirect not allowed (${request.url.href})`);
      }
      request = redirected(request, response.status, new URL(location, request.url));
    }
  };
}

async function prepare(input: string | URL | Request, init?: RequestInit): Promise<PreparedRequest> {
  const fromRequest = input instanceof Request ? input : null;
  const url = new URL(urlOf(input));
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError(`fetch failed: unsupported protocol ${url.protocol}`);
  }
  const method = (init?.method ?? fromRequest?.method ?? "GET").toUpperCase();
  const headers = new Headers(fromRequest?.headers);
  new Headers(init?.headers).forEach((value, key) => headers.set(key, value));

  let body: Uint8Array | null = null;
  if (init?.body !== undefined && init.body !== null) {
    if (typeof init.body === "string") body = new TextEncoder().encode(init.body);
    else {
      const serialised = new Response(init.body);
      body = new Uint8Array(await serialised.arrayBuffer());
      const derived = serialised.headers.get("content-type");
      if (derived && !headers.has("content-type")) headers.set("content-type", derived);
    }
  } else if (fromRequest && fromRequest.body !== null && method !== "GET" && method !== "HEAD") {
    body = new Uint8Array(await fromRequest.arrayBuffer());
  }
  if (body !== null) headers.set("content-length", String(body.byteLength));

  const record: Record<string, string> = {};
  headers.forEach((value, name) => {
    record[name.toLowerCase()] = value;
  });
  return { url, method, headers: record, body, redirect: init?.redirect ?? fromRequest?.redirect ?? "follow" };
}

/** The request a redirect asks for, per the fetch standard: 303 (and 301/302 after a POST) become a GET. */
function redirected(previous: PreparedRequest, status: number, url: URL): PreparedRequest {
  const toGet = status === 303 ? previous.method !== "HEAD" : (status === 301 || status === 302) && previous.method === "POST";
  const headers = { ...previous.headers };
  if (toGet) {
    for (const key of ["content-type", "content-length", "content-encoding", "content-language", "content-location"]) delete headers[key];
  }
  if (url.origin !== previous.url.origin) {
    for (const key of ["authorization", "x-api-key", "cookie", "proxy-authorization"]) delete headers[key];
  }
  return { ...previous, url, headers, method: toGet ? "GET" : previous.method, body: toGet ? null : previous.body };
}

function send(
  prepared: PreparedRequest,
  signal: AbortSignal | undefined,
  options: NodeFetchOptions,
): Promise<{ response: Response; incoming: http.IncomingMessage }> {
  return new Promise((resolve, reject) => {
    const secure = prepared.url.protocol === "https:";
    const agent = secure ? options.httpsAgent : options.httpAgent;
    const request = (secure ? https : http).request(prepared.url, {
      method: prepared.method,
      headers: prepared.headers,
      ...(agent ? { agent } : {}),
    });
    let settled = false;
    let onBodyAbort: ((reason: Error) => void) | null = null;

    const onAbort = () => {
      const reason = abortReason(signal as AbortSignal);
      request.destroy(reason);
      if (!settled) {
        settled = true;
        reject(reason);
      }
      onBodyAbort?.(reason);
    };
    const detach = () => signal?.removeEventListener("abort", onAbort);
    signal?.addEventListener("abort", onAbort, { once: true });

    request.on("error", (error) => {
      detach();
      if (settled) return;
      settled = true;
      reject(signal?.aborted ? abortReason(signal) : new TypeError("fetch failed", { cause: error }));
    });

    request.on("response", (incoming) => {
      const status = incoming.statusCode ?? 0;
      const headers = new Headers();
      const raw = incoming.rawHeaders;
      for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i] as string, raw[i + 1] as string);
      const decoded = decode(incoming, headers);
      const noBody = NULL_BODY_STATUSES.has(status) || prepared.method === "HEAD";
      let body: ReadableStream<Uint8Array> | null = null;
      if (noBody) {
        incoming.resume();
        detach();
      } else {
        const stream = toWebStream(decoded, () => request.destroy(), detach);
        body = stream.body;
        onBodyAbort = stream.fail;
      }
      settled = true;
      resolve({
        response: new Response(body, { status, statusText: incoming.statusMessage ?? "", headers }),
        incoming,
      });
    });

    if (prepared.body !== null) request.end(prepared.body);
    else request.end();
  });
}

/** Undoes the content encoding, so callers read plain bytes (as fetch gives them). */
function decode(incoming: http.IncomingMessage, headers: Headers): Readable {
  const encoding = (headers.get("content-encoding") ?? "").trim().toLowerCase();
  const decoder =
    encoding === "gzip" || encoding === "x-gzip"
      ? zlib.createGunzip()
      : encoding === "deflate"
        ? zlib.createInflate()
        : encoding === "br"
          ? zlib.createBrotliDecompress()
          : null;
  if (decoder === null) return incoming;
  headers.delete("content-encoding");
  headers.delete("content-length");
  incoming.on("error", (error) => decoder.destroy(error));
  return incoming.pipe(decoder);
}

/**
 * A ReadableStream fed by a Node stream, with backpressure: the Node stream pauses while the web
 * stream's queue is full and resumes when the consumer pulls. Cancelling the web stream destroys
 * the request.
 */
function toWebStream(
  source: Readable,
  destroyRequest: () => void,
  done: () => void,
): { body: ReadableStream<Uint8Array>; fail: (reason: Error) => void } {
  let controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  let finished = false;
  const finish = () => {
    finished = true;
    done();
  };
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      source.on("data", (chunk: Uint8Array) => {
        if (finished) return;
        c.enqueue(new Uint8Array(chunk));
        if ((c.desiredSize ?? 1) <= 0) source.pause();
      });
      source.on("end", () => {
        if (finished) return;
        finish();
        c.close();
      });
      source.on("error", (error) => {
        if (finished) return;
        finish();
        c.error(new TypeError("fetch failed: the response body was cut off", { cause: error }));
      });
      source.on("aborted", () => {
        if (finished) return;
        finish();
        c.error(new TypeError("fetch failed: the server closed the connection mid-response"));
      });
    },
    pull() {
      source.resume();
    },
    cancel() {
      finish();
      source.destroy();
      destroyRequest();
    },
  });
  const fail = (reason: Error) => {
    if (finished || controller === null) return;
    finish();
    controller.error(reason);
    source.destroy();
  };
  return { body, fail };
}

function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  return new DOMException("The operation was aborted.", "AbortError");
}

function urlOf(input: string | URL | Request): string {
  if (typeof input === "string") return input;
  return input instanceof URL ? input.href : input.url;
}
