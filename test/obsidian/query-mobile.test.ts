/**
 * "Ask the wiki" on a phone, over each HTTP protocol: no Node, so requests go through Obsidian's
 * requestUrl (here forwarded to the scripted servers over Node http, whole bodies at once, as
 * Obsidian does) and the view receives the answer whole; its citations are checked as on desktop.
 */
import { Platform } from "obsidian-test-mocks/obsidian";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createRequestUrlFetch } from "../../src/obsidian/request-url-fetch";
import { createProvider } from "../../src/providers/factory";
import type { Protocol, ScriptedServer } from "../helpers/scripted-server";
import { content, FAST_RETRY, settingsFor, startServer, testSecrets } from "../providers/harness";
import { nodeRequestUrl, type ForwardedCall } from "./node-request-url";
import { loadPlugin } from "./plugin-harness";

const ADA = "wiki/entities/Ada Lovelace.md";
const FILES = {
  "notes/ada.md": "# Ada\n\nAda Lovelace wrote the first program for the Analytical Engine.\n",
  [ADA]: "---\ntype: entity\ntitle: Ada Lovelace\nsources:\n  - notes/ada.md\nlang: en\ntags: []\n---\nAda Lovelace wrote the first program for the Analytical Engine.\n",
};
const ANSWER = "Ada Lovelace wrote it [[Ada Lovelace]]; see [[Charles Darwin]].";
const desktop = { isDesktopApp: Platform.isDesktopApp, isMobile: Platform.isMobile, isMobileApp: Platform.isMobileApp };

beforeAll(() => {
  Object.assign(Platform, { isDesktopApp: false, isMobile: true, isMobileApp: true });
});
afterAll(() => {
  Object.assign(Platform, desktop);
  vi.restoreAllMocks();
});

describe.each(["ollama", "anthropic", "openai"] as const)("Ask the wiki on mobile with %s", (protocol: Protocol) => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startServer(protocol, [content(ANSWER)]);
  });
  afterAll(() => server.close());

  it("receives the answer whole through requestUrl, with its citations checked", async () => {
    const calls: ForwardedCall[] = [];
    const requestUrl = createRequestUrlFetch(nodeRequestUrl(calls));
    const harness = await loadPlugin({
      files: FILES,
      data: settingsFor(protocol, server.url),
      // The real factory and SDKs, over the transport a phone has: requestUrl only.
      seams: { createProvider: (id, env) => createProvider(id, { ...env, secrets: testSecrets(), fetch: requestUrl, streamingFetch: requestUrl, retry: FAST_RETRY }) },
    });
    const pieces: string[] = [];
    const report = await harness.plugin.query?.ask("Who wrote the first program for the Analytical Engine?", {
      general: false,
      signal: new AbortController().signal,
      onText: (t) => pieces.push(t),
    });
    expect(report?.error).toBeNull();
    expect(report?.answer).toBe(ANSWER);
    expect(pieces).toEqual([]);
    expect(report?.citations.map((c) => [c.page, c.verified])).toEqual([
      ["Ada Lovelace", true],
      ["Charles Darwin", false],
    ]);
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.some((c) => typeof c.param.body === "string" && c.param.body.includes(ADA))).toBe(true);
  });
});
