import { describe, expect, it } from "vitest";
import { classifyHttpFailure } from "../../src/providers/classify-error";

const classify = (status: number, serverMessage = "", retryAfterMs?: number) =>
  classifyHttpFailure({ provider: "Anthropic", model: "claude-haiku-4-5", status, serverMessage, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}), secrets: ["sk-secret-value-123"] });

describe("HTTP failures into the taxonomy", () => {
  it.each([
    [400, "bad request", "request", false],
    [401, "", "request", false],
    [403, "", "request", false],
    [404, "", "request", false],
    [408, "", "transport", true],
    [413, "", "context", false],
    [429, "", "rate_limit", true],
    [500, "", "transport", true],
    [502, "", "transport", true],
    [503, "", "rate_limit", true],
    [529, "", "rate_limit", true],
  ])("%i is %s", (status, message, kind, retryable) => {
    const error = classify(status, message);
    expect(error.kind).toBe(kind);
    expect(error.isRetryable).toBe(retryable);
    expect(error.status).toBe(status);
  });

  it("recognises context-too-long and unknown-model 400s", () => {
    expect(classify(400, "prompt is too long: 250000 tokens > 200000 maximum").message).toMatch(/too long for claude-haiku-4-5's context window/);
    expect(classify(400, "The model `gpt-9` does not exist").message).toMatch(/does not know the model/);
  });

  it("keeps the server's retry-after and says how long", () => {
    const error = classify(429, "", 30_000);
    expect(error.retryAfterMs).toBe(30_000);
    expect(error.message).toContain("asked to wait 30 s");
  });

  it("redacts secrets from what the server said", () => {
    expect(classify(403, "key sk-secret-value-123 has no access").message).not.toContain("sk-secret-value-123");
  });
});
