/** The ledger's price of a call answered through a batch API: the documented batch discount, whatever else the run did. */
import { describe, expect, it } from "vitest";
import { BATCH_PRICE_FACTOR, estimateCost, runCost, usageCost } from "../../src/core/pricing";
import { UsageAccumulator } from "../../src/core/usage";
import { TaggedUsage } from "../../src/batch/tagged-usage";

const MODEL = "claude-sonnet-4-6";

describe("batch usage in the ledger", () => {
  it("prices a batch call at half, an interactive one at the full price, in the same run", () => {
    const usage = new UsageAccumulator();
    usage.record({ provider: "anthropic", model: MODEL, operation: "analyze", inputTokens: 10_000, outputTokens: 2_000, mode: "batch" });
    usage.record({ provider: "anthropic", model: MODEL, operation: "generate", inputTokens: 4_000, outputTokens: 1_000 });
    const full = (i: number, o: number) => estimateCost(MODEL, i, o) ?? Number.NaN;
    expect(BATCH_PRICE_FACTOR).toBe(0.5);
    expect(usageCost(usage.entries, MODEL)).toBeCloseTo(full(10_000, 2_000) / 2 + full(4_000, 1_000), 10);
    expect(runCost(usage, MODEL)).toBeCloseTo(full(10_000, 2_000) / 2 + full(4_000, 1_000), 10);
  });

  it("without batch calls, the cost is the table's price of the totals, as before", () => {
    const usage = new UsageAccumulator();
    usage.record({ provider: "openai", model: "gpt-4.1-mini", operation: "analyze", inputTokens: 1_234, outputTokens: 567 });
    expect(usageCost(usage.entries, "gpt-4.1-mini")).toBe(estimateCost("gpt-4.1-mini", 1_234, 567));
    expect(usageCost(usage.entries, "no-such-model")).toBeNull();
  });

  it("a pass's usage marks only the calls its transport answered from the batch", () => {
    const run = new UsageAccumulator();
    let fromBatch = true;
    const tagged = new TaggedUsage(run, () => fromBatch);
    tagged.record({ provider: "anthropic", model: MODEL, operation: "analyze", inputTokens: 10, outputTokens: 5 });
    fromBatch = false;
    tagged.record({ provider: "anthropic", model: MODEL, operation: "generate", inputTokens: 20, outputTokens: 5 });
    expect(run.entries.map((e) => e.mode)).toEqual(["batch", undefined]);
    expect(tagged.totals()).toEqual(run.totals());
    expect(tagged.totalTokens()).toBe(40);
  });
});
