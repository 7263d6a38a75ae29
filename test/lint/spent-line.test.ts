import { describe, expect, it } from "vitest";
import { addUsage, NO_USAGE, type UsageSummary } from "../../src/core/usage";
import { spentLine } from "../../src/lint/estimate-text";

const ollama: UsageSummary = { inputTokens: 1200, outputTokens: 80, costUsd: null, local: true };
const anthropic: UsageSummary = { inputTokens: 300, outputTokens: 20, costUsd: 0.0042 };
const unpriced: UsageSummary = { inputTokens: 300, outputTokens: 20, costUsd: null };

describe("what a lint run spent, in the words every surface uses", () => {
  it("calls a run on this computer free, not of unknown cost", () => {
    expect(spentLine(ollama)).toBe("Used 1,200 tokens in and 80 out, free (runs on this computer).");
  });

  it("prices a remote run, and says when no price is known", () => {
    expect(spentLine(anthropic)).toBe("Used 300 tokens in and 20 out, about $0.0042.");
    expect(spentLine(unpriced)).toBe("Used 300 tokens in and 20 out (no price known for the model).");
  });

  it("stays free only while every call that spent tokens ran on this computer", () => {
    // Model checks skipped (nothing spent) and a re-ingest fix on Ollama: still free.
    expect(spentLine(addUsage(NO_USAGE, ollama))).toContain("free (runs on this computer)");
    expect(spentLine(addUsage(ollama, NO_USAGE))).toContain("free (runs on this computer)");
    // Ollama's model checks and a re-ingest through a remote model: that part has no price.
    expect(addUsage(ollama, unpriced).local).toBeUndefined();
    expect(spentLine(addUsage(ollama, unpriced))).toBe("Used 1,500 tokens in and 100 out (no price known for the model).");
  });

  it("says nothing when nothing was spent", () => {
    expect(spentLine(NO_USAGE)).toBe("");
  });
});
