/**
 * A `fetch` over Obsidian's `requestUrl`, for the SDKs' non-streaming calls. `requestUrl` is not
 * subject to CORS, so Ollama, LM Studio or any OpenAI-compatible server answers the plugin without
 * extra server configuration. It cannot stream and takes no abort signal: the whole body arrives
 * at once, and an abort rejects the pending call at once (the underlying request runs out on its
 * own and its result is dropped).
 */
import { raceAbort } from "../core/abort";
import { requestUrl, type RequestUrlParam, type RequestUrlResponse } from "obsidian";
import type { FetchLike } from "../providers/environment";

export type RequestUrlFunction = (request: RequestUrlParam) => Promise<RequestUrlResponse>;

/** Statuses whose response may not carry a body (the Response constructor refuses one). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);
/** Headers the browser or Electron sets itself; passing them on makes some builds refuse the call. */
const DROPPED_HEADERS = new Set(["host", "content-length", "connection", "keep-alive", "transfer-encoding"]);

/** Chromium network error names mapped to the Node error codes the providers already understand. */
const NETWORK_CODES: readonly (readonly [string, string])[] = [
  ["ERR_CONNECTION_REFUSED", "ECONNREFUSED"],
  ["ERR_NAME_NOT_RESOLVED", "ENOTFOUND"],
  ["ERR_CONNECTION_RESET", "ECONNRESET"],
  ["ERR_CONNECTION_TIMED_OUT", "ETIMEDOUT"],
  ["ERR_TIMED_OUT", "ETIMEDOUT"],
  ["ERR_ADDRESS_UNREACHABLE", "EHOSTUNREACH"],
  ["ERR_INTERNET_DISCONNECTED", "ENETUNREACH"],
  ["ERR_CERT_", "CERT_ERROR"],
];

export function createRequestUrlFetch(request: RequestUrlFunction = requestUrl): FetchLike {
  return async (input, init) => {
    const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined) ?? undefined;
    if (signal?.aborted) throw abortReason(signal);
    const param = await toRequestUrlParam(input, init);
    let response: RequestUrlResponse;
    try {
      response = signal ? await raceAbort(request(param), signal, abortReason) : await request(param);
    } catch (error) {
      if (signal?.aborted) throw abortReason(signal);
      throw networkError(error);
    }
    return toResponse(response);
  };
}

async function toRequestUrlParam(input: string | URL | Request, init?: RequestInit): Promise<RequestUrlParam> {
  const fromRequest = input instanceof Request ? input : null;
  const url = urlOf(input);
  const method = (init?.method ?? fromRequest?.method ?? "GET").toUpperCase();
  const headers = new Headers(fromRequest?.headers);
  new Headers(init?.headers).forEach((value, key) => headers.set(key, value));

  let body: string | ArrayBuffer | undefined;
  if (init?.body !== undefined && init.body !== null) {
    if (typeof init.body === "string") body = init.body;
    else {
      // Blob, FormData, URLSearchParams, typed arrays, streams: let Response serialise them,
      // and take the content type it derives (a multipart boundary, for one) when none was set.
      const serialised = new Response(init.body);
      body = await serialised.arrayBuffer();
      const derived = serialised.headers.get("content-type");
      if (derived && !headers.has("content-type")) headers.set("content-type", derived);
    }
  } else if (fromRequest && fromRequest.body !== null && method !== "GET" && method !== "HEAD") {
    body = await fromRequest.arrayBuffer();
  }

  const record: Record<string, string> = {};
  let contentType: string | undefined;
  headers.forEach((value, name) => {
    // Header names are case-insensitive; some Headers implementations keep the caller's case.
    const key = name.toLowerCase();
    if (key === "content-type") contentType = value;
    else if (!DROPPED_HEADERS.has(key)) record[key] = value;
  });
  return {
    url,
    method,
    headers: record,
    throw: false,
    ...(contentType !== undefined ? { contentType } : {}),
    ...(body !== undefined ? { body } : {}),
  };
}

function toResponse(response: RequestUrlResponse): Response {
  const headers = new Headers();
  for (const [key, value] of Object.entries(response.headers ?? {})) {
    // A header Chromium reports with an odd name must not cost the whole response.
    try {
      headers.append(key, value);
    } catch {
      continue;
    }
  }
  const body = NULL_BODY_STATUSES.has(response.status) ? null : response.arrayBuffer;
  return new Response(body, { status: response.status, headers });
}


function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  return new DOMException("The operation was aborted.", "AbortError");
}

/** fetch rejects a network failure with `TypeError("fetch failed")` and the cause; so do we. */
function networkError(error: unknown): TypeError {
  const message = error instanceof Error ? error.message : String(error);
  const code = NETWORK_CODES.find(([name]) => message.includes(name))?.[1];
  const cause = code === undefined ? error : Object.assign(new Error(message, { cause: error }), { code });
  return new TypeError(`fetch failed: ${message}`, { cause });
}

function urlOf(input: string | URL | Request): string {
  if (typeof input === "string") return input;
  return input instanceof URL ? input.href : input.url;
}
