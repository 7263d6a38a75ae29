import { describe, expect, it } from "vitest";
import { costText } from "../../src/core/cost-text";
import { formatUsageLine, formatUsageSummary, formatUsd } from "../../src/providers/usage-summary";

describe("per-run usage summary", () => {
  it("shows tokens and an estimated cost from the price table", () => {
    expect(formatUsageSummary({ inputTokens: 1234, outputTokens: 567 }, "claude-haiku-4-5")).toBe("1,234 in / 567 out tokens, ~$0.0041");
    expect(formatUsageSummary({ inputTokens: 2_000_000, outputTokens: 100_000 }, "gpt-4.1-mini-2025-04-14")).toBe("2,000,000 in / 100,000 out tokens, ~$0.96");
  });

  it("uses the user's price overrides", () => {
    expect(formatUsageSummary({ inputTokens: 1_000_000, outputTokens: 0 }, "llama3.1:8b", { "llama3.1:8b": { input: 2, output: 0 } })).toBe("1,000,000 in / 0 out tokens, ~$2.00");
  });

  it("shows tokens without a price for an unknown model", () => {
    expect(formatUsageSummary({ inputTokens: 10, outputTokens: 5 }, "llama3.1:8b")).toBe("10 in / 5 out tokens, cost unknown (no price for model llama3.1:8b)");
    expect(formatUsageSummary({ inputTokens: 10, outputTokens: 5 }, null)).toBe("10 in / 5 out tokens");
  });

  it("formats small and large amounts readably", () => {
    expect([0, 0.00012, 0.123, 0.5, 12.5].map(formatUsd)).toEqual(["$0", "$0.0001", "$0.123", "$0.50", "$12.50"]);
  });

  it("calls a run on this computer free, whether it was priced at nothing or not at all", () => {
    expect(formatUsageLine({ inputTokens: 10, outputTokens: 5 }, { isLocal: true, model: "llama3.1:8b" }, null)).toBe("10 in / 5 out tokens, free (runs on this computer)");
    expect(formatUsageLine({ inputTokens: 0, outputTokens: 0 }, { isLocal: true, model: null }, 0)).toBe("0 in / 0 out tokens, free (runs on this computer)");
    // A price the user gave a model behind a local server (a proxy to a paid one) is shown.
    expect(formatUsageLine({ inputTokens: 10, outputTokens: 5 }, { isLocal: true, model: "proxied" }, 0.02)).toBe("10 in / 5 out tokens, ~$0.02");
  });

  it("says a remote model's cost is unknown rather than $0 when it has no price", () => {
    expect(costText(null, { isLocal: false, model: "mystery-1" })).toBe("cost unknown (no price for model mystery-1)");
    expect(costText(0, { isLocal: false, model: "claude-haiku-4-5" })).toBe("$0");
  });
});
