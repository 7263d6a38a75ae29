import { describe, expect, it } from "vitest";
import { applyProgress, formatTokens, startProgress, statusText, statusTooltip, type RunProgress } from "../../src/obsidian/progress";
import type { ProgressEvent } from "../../src/core/run-context";

function fold(events: ProgressEvent[], path = "Notes/Bees and honey.md"): RunProgress {
  return events.reduce(applyProgress, startProgress(path));
}

describe("the status bar words", () => {
  it("is empty while idle, and counts what waits", () => {
    expect(statusText(null, 0)).toBe("");
    expect(statusText(null, 2)).toBe("Synapse: 2 queued");
  });

  it("names the phase in the text, and the attempt of the maximum and the tokens so far in the tooltip", () => {
    expect(statusText(fold([]), 0)).toBe("Synapse: starting");
    expect(statusText(fold([{ type: "phase", phase: "analysing" }]), 0)).toBe("Synapse: analysing");
    const generating = fold([
      { type: "phase", phase: "analysing" },
      { type: "usage", inputTokens: 900, outputTokens: 300 },
      { type: "phase", phase: "generating", attempt: 2, maxAttempts: 3 },
      { type: "usage", inputTokens: 1500, outputTokens: 1400 },
    ]);
    expect(statusText(generating, 1)).toBe("Synapse: generating · 1 more");
    expect(statusTooltip(generating, 1)).toBe('Ingesting "Bees and honey"\nGenerating, attempt 2 of 3\n2,400 tokens in, 1,700 out\n1 more waiting\nClick to cancel');
    expect(statusText(fold([{ type: "phase", phase: "writing" }]), 0)).toBe("Synapse: writing");
  });

  it("shows a retry wait until the next event", () => {
    const waiting = fold([
      { type: "phase", phase: "generating", attempt: 1, maxAttempts: 3 },
      { type: "retry", attempt: 2, delayMs: 4200, reason: "rate_limit" },
    ]);
    expect(statusText(waiting, 0)).toBe("Synapse: retry in 4 s");
    expect(statusTooltip(waiting, 0)).toContain("Generating, attempt 1 of 3 (rate limited, retrying in 4 s)");
    expect(statusText(applyProgress(waiting, { type: "usage", inputTokens: 10, outputTokens: 5 }), 0)).toBe("Synapse: generating");
  });

  it("keeps the attempt through validation, and puts the agent's activity in the tooltip", () => {
    const validating = fold([
      { type: "phase", phase: "generating", attempt: 3, maxAttempts: 3 },
      { type: "phase", phase: "validating", attempt: 3, maxAttempts: 3 },
    ]);
    expect(statusText(validating, 0)).toBe("Synapse: checking");
    expect(statusTooltip(validating, 0)).toContain("Checking pages, attempt 3 of 3");
    const agent = fold([{ type: "phase", phase: "delegating" }, { type: "activity", message: "Wrote wiki/concepts/Bees.md" }]);
    expect(statusText(agent, 0)).toBe("Synapse: agent working");
    expect(statusTooltip(agent, 2)).toBe('Ingesting "Bees and honey"\nAgent working\nWrote wiki/concepts/Bees.md\n2 more waiting\nClick to cancel');
  });

  it("stays short whatever the phase, retry or queue", () => {
    const phases = ["reading", "analysing", "generating", "validating", "delegating", "writing"] as const;
    for (const phase of phases) {
      const progress = fold([
        { type: "phase", phase, attempt: 3, maxAttempts: 3 },
        { type: "usage", inputTokens: 1_234_567, outputTokens: 98_765 },
      ]);
      expect(statusText(progress, 99).length).toBeLessThanOrEqual(32);
      expect(statusText(applyProgress(progress, { type: "retry", attempt: 3, delayMs: 59_000, reason: "transport" }), 99).length).toBeLessThanOrEqual(32);
    }
  });

  it("writes token counts short", () => {
    expect(formatTokens(950)).toBe("950");
    expect(formatTokens(4_100)).toBe("4.1k");
    expect(formatTokens(12_345)).toBe("12k");
    expect(formatTokens(2_500_000)).toBe("2.5M");
  });
});
