import { describe, expect, it } from "vitest";
import { defineCapabilities } from "../../src/core/capabilities";
import { SynapseError, isTransient, toSynapseError } from "../../src/core/errors";
import { Perimeter, isExcluded } from "../../src/core/perimeter";
import { estimateCost, priceFor } from "../../src/core/pricing";
import { createRunContext } from "../../src/core/run-context";
import { AnalysisSchema, LenientPagesReplySchema, PagesReplySchema } from "../../src/core/schemas";
import { UsageAccumulator } from "../../src/core/usage";
import { SOURCE_PATH, ScriptedProvider, aPage } from "../builders";
import * as z from "zod";

describe("provider capabilities", () => {
  it("are conservative by default: remote, no tools, no agent, no structured output", () => {
    expect(defineCapabilities({ name: "x" })).toMatchObject({
      isLocal: false,
      supportsTools: false,
      supportsAgenticLoop: false,
      structuredOutput: "none",
      streaming: false,
      maxContext: 0,
    });
  });

  it("are frozen", () => {
    const caps = defineCapabilities({ name: "x", isLocal: true });
    expect(Object.isFrozen(caps)).toBe(true);
    expect(() => {
      (caps as { isLocal: boolean }).isLocal = false;
    }).toThrow();
  });
});

describe("the failure taxonomy", () => {
  it("marks transport, timeout and rate limit as retryable, and nothing else", () => {
    expect(["transport", "timeout", "rate_limit"].every((k) => new SynapseError(k as "transport", "x").isRetryable)).toBe(true);
    expect(["schema", "refusal", "request", "unavailable", "cancelled", "perimeter"].some((k) => isTransient(new SynapseError(k as "schema", "x")))).toBe(false);
  });

  it("recognises its errors by brand, not by class identity (as across bundles)", () => {
    const foreign = Object.assign(new Error("from another bundle"), { [Symbol.for("synapse.error")]: true, kind: "request" });
    expect(SynapseError.isInstance(foreign)).toBe(true);
    expect(SynapseError.isInstance(new Error("plain"))).toBe(false);
  });

  it("turns an AbortError into a cancellation and anything else into the fallback kind", () => {
    const abort = Object.assign(new Error("aborted"), { name: "AbortError" });
    expect(toSynapseError(abort).kind).toBe("cancelled");
    expect(toSynapseError(new Error("boom"), "transport")).toMatchObject({ kind: "transport", message: "boom" });
  });
});

describe("the schemas", () => {
  it("parse a page leniently so the validator can name what is missing", () => {
    const parsed = LenientPagesReplySchema.parse({ pages: [{ type: "concept", title: "T", frontmatter: {}, content: "x" }] });
    expect(parsed.pages[0]?.frontmatter).toEqual({ sources: [], lang: "", tags: [] });
  });

  it("ask models for a strict, strict-mode-safe JSON Schema", () => {
    const schema = z.toJSONSchema(PagesReplySchema, { target: "draft-07", io: "output" }) as Record<string, unknown>;
    const text = JSON.stringify(schema);
    expect(text).toContain('"enum":["entity","concept","source","synthesis","comparison"]');
    expect(text).not.toContain('"additionalProperties":{}');
    expect(z.toJSONSchema(AnalysisSchema, { io: "output" })).toMatchObject({ required: ["title", "language", "summary", "topics", "entities", "concepts"] });
  });
});

describe("usage and cost", () => {
  it("accumulates tokens per call and per provider", () => {
    const usage = new UsageAccumulator();
    usage.record({ provider: "a", model: "m", operation: "analyze", inputTokens: 10, outputTokens: 2 });
    usage.record({ provider: "a", model: "m", operation: "generate", inputTokens: 5, outputTokens: 3 });
    usage.record({ provider: "b", model: null, operation: "generate", inputTokens: 1, outputTokens: 1 });
    expect(usage.totals()).toEqual({ inputTokens: 16, outputTokens: 6, calls: 3, estimatedCalls: 0 });
    expect(usage.byProvider().get("a")).toEqual({ inputTokens: 15, outputTokens: 5, calls: 2, estimatedCalls: 0 });
    expect(usage.totalTokens()).toBe(22);
  });

  it("prices known models by prefix, honours overrides, and has no price for unknown models", () => {
    expect(priceFor("claude-sonnet-4-5-20250929")).toMatchObject({ input: 3, output: 15 });
    // Anthropic's prompt cache: reads at 0.1× the input price, 5-minute writes at 1.25×.
    expect(priceFor("claude-sonnet-4-5-20250929")?.cacheRead).toBeCloseTo(0.3, 12);
    expect(priceFor("claude-sonnet-4-5-20250929")?.cacheWrite).toBeCloseTo(3.75, 12);
    expect(estimateCost("gpt-4o-mini", 1_000_000, 1_000_000)).toBeCloseTo(0.75);
    expect(estimateCost("my-model", 1000, 1000, { "my-model": { input: 1, output: 1 } })).toBeCloseTo(0.002);
    expect(estimateCost("llama3.2", 1000, 1000)).toBeNull();
  });
});

describe("the privacy perimeter", () => {
  const run = () => createRunContext({ source: { path: SOURCE_PATH, text: "x" } });

  it("refuses a remote provider in local-only mode before any call, naming the setting", async () => {
    const remote = new ScriptedProvider([[aPage().build()]], { name: "remote", isLocal: false });
    const guarded = new Perimeter({ localOnly: true, excludedFolders: [] }).guard(remote);
    await expect(guarded.analyze("x", "", run())).rejects.toMatchObject({ kind: "perimeter", message: expect.stringContaining("Local-only mode") });
    await expect(guarded.generate({ analysis: remote.analyzeCalls as never, note: "", related: "" }, run())).rejects.toMatchObject({ kind: "perimeter" });
    expect(remote.analyzeCalls).toHaveLength(0);
    expect(remote.generateCalls).toHaveLength(0);
  });

  it("lets a local provider through in local-only mode", async () => {
    const local = new ScriptedProvider([[aPage().build()]], { isLocal: true });
    await expect(new Perimeter({ localOnly: true, excludedFolders: [] }).guard(local).analyze("x", "", run())).resolves.toBeTruthy();
  });

  it("never sends a note from an excluded folder, even to a local provider", async () => {
    const local = new ScriptedProvider([[aPage().build()]], { isLocal: true });
    const guarded = new Perimeter({ localOnly: false, excludedFolders: ["notes/"] }).guard(local);
    await expect(guarded.analyze("x", "", run())).rejects.toMatchObject({ kind: "perimeter", message: expect.stringContaining("Excluded folders") });
    expect(local.analyzeCalls).toHaveLength(0);
  });

  it("matches excluded folders by whole path segments", () => {
    expect(isExcluded("Private/diary.md", ["Private"])).toBe(true);
    expect(isExcluded("Private/deep/x.md", ["/Private/"])).toBe(true);
    expect(isExcluded("Private notes/x.md", ["Private"])).toBe(false);
    expect(isExcluded("x.md", [""])).toBe(false);
  });
});
