/**
 * Obsidian's requestUrl cannot be aborted. With a transport that ignores abort signals, timeouts
 * and cancel must still end the call promptly: the facade stops waiting and ignores the late reply.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FetchLike } from "../../src/providers/environment";
import type { ScriptedServer } from "../helpers/scripted-server";
import { WAIT_MS } from "../helpers/eventually";
import { failure, ingestRun, providerFor, startServer } from "./harness";

const deaf: FetchLike = (input, init) => {
  const { signal: _ignored, ...rest } = init ?? {};
  return fetch(input, rest);
};

describe.each(["ollama", "anthropic", "openai"] as const)("%s over a transport that cannot abort", (protocol) => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startServer(protocol, [{ kind: "slow", delayMs: 60_000 }]);
  });
  afterAll(() => server.close());

  it("still times out on time", async () => {
    const provider = providerFor(protocol, server, { fetch: deaf, requestTimeoutSeconds: 0.1, retry: { maxAttempts: 1 } });
    const started = Date.now();
    const error = await failure(() => provider.analyze("text", "", ingestRun()));
    expect(error.kind).toBe("timeout");
    // Far below the server's minute: the facade stopped waiting (a loaded machine may be slow).
    expect(Date.now() - started).toBeLessThan(WAIT_MS);
  });

  it("still cancels on time", async () => {
    const controller = new AbortController();
    const provider = providerFor(protocol, server, { fetch: deaf, retry: { maxAttempts: 1 } });
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    const error = await failure(() => provider.analyze("text", "", ingestRun({ signal: controller.signal })));
    expect(error.kind).toBe("cancelled");
    // Far below the server's minute: the facade stopped waiting (a loaded machine may be slow).
    expect(Date.now() - started).toBeLessThan(WAIT_MS);
  });
});
