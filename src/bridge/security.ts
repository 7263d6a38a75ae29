/**
 * The bridge's gate, checked on every request before anything else: the Host header must name
 * the loopback address we listen on (a DNS-rebinding page sends its own host name), a browser
 * Origin must be Obsidian's or absent (a web page cannot talk to the bridge), and the bearer token
 * must match, compared in constant time.
 */
import { Buffer } from "node:buffer";
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";

/** Obsidian desktop's renderer origin; requests from the plugin carry it or no Origin at all. */
export const ALLOWED_ORIGINS: ReadonlySet<string> = new Set(["app://obsidian.md"]);

/** Tokens from SYNAPSE_BRIDGE_TOKEN shorter than this are refused. */
export const MIN_TOKEN_LENGTH = 16;

export function generateToken(): string {
  return randomBytes(32).toString("base64url");
}

function digest(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}

/** Constant-time comparison; hashing first makes the lengths equal without leaking them. */
export function tokenMatches(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected)) && expected.length > 0;
}

export type GateFailure = { readonly status: 401 | 403; readonly code: string; readonly message: string };

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export function allowedHosts(port: number): ReadonlySet<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
}

/** Returns why the request is refused, or null when it may go on. */
export function checkGate(headers: IncomingHttpHeaders, port: number, token: string): GateFailure | null {
  const host = single(headers.host)?.toLowerCase();
  if (!host || !allowedHosts(port).has(host)) {
    return { status: 403, code: "forbidden_host", message: `The bridge only answers requests addressed to 127.0.0.1:${port}.` };
  }
  const origin = single(headers.origin);
  if (origin !== undefined && !ALLOWED_ORIGINS.has(origin)) {
    return { status: 403, code: "forbidden_origin", message: "Requests from web pages are refused; only Obsidian and the Synapse CLI may use the bridge." };
  }
  const auth = single(headers.authorization);
  const match = auth ? /^Bearer\s+(\S+)\s*$/i.exec(auth) : null;
  if (!match?.[1]) {
    return { status: 401, code: "missing_token", message: "The request has no bridge token; send the token the bridge printed on start as a Bearer token." };
  }
  if (!tokenMatches(match[1], token)) {
    return { status: 401, code: "invalid_token", message: "The bridge token does not match; copy the token the bridge printed on start into Synapse's settings." };
  }
  return null;
}
