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

  it("names the phase, the attempt of the maximum, and the tokens so far", () => {
    expect(statusText(fold([]), 0)).toBe("Synapse: starting");
    expect(statusText(fold([{ type: "phase", phase: "analysing" }]), 0)).toBe("Synapse: analysing");
    const generating = fold([
      { type: "phase", phase: "analysing" },
      { type: "usage", inputTokens: 900, outputTokens: 300 },
      { type: "phase", phase: "generating", attempt: 2, maxAttempts: 3 },
      { type: "usage", inputTokens: 1500, outputTokens: 1400 },
    ]);
    expect(statusText(generating, 1)).toBe("Synapse: generating, attempt 2 of 3 · 4.1k tokens · 1 queued");
    expect(statusText(fold([{ type: "phase", phase: "writing" }]), 0)).toBe("Synapse: writing pages");
  });

  it("shows a retry wait until the next event", () => {
    const waiting = fold([
      { type: "phase", phase: "generating", attempt: 1, maxAttempts: 3 },
      { type: "retry", attempt: 2, delayMs: 4200, reason: "rate_limit" },
    ]);
    expect(statusText(waiting, 0)).toBe("Synapse: generating, attempt 1 of 3 (rate limited, retrying in 4 s)");
    expect(statusText(applyProgress(waiting, { type: "usage", inputTokens: 10, outputTokens: 5 }), 0)).toBe("Synapse: generating, attempt 1 of 3 · 15 tokens");
  });

  it("keeps the attempt through validation, and puts the agent's activity in the tooltip", () => {
    const validating = fold([
      { type: "phase", phase: "generating", attempt: 3, maxAttempts: 3 },
      { type: "phase", phase: "validating", attempt: 3, maxAttempts: 3 },
    ]);
    expect(statusText(validating, 0)).toBe("Synapse: checking pages, attempt 3 of 3");
    const agent = fold([{ type: "phase", phase: "delegating" }, { type: "activity", message: "Wrote wiki/concepts/Bees.md" }]);
    expect(statusText(agent, 0)).toBe("Synapse: agent working");
    expect(statusTooltip(agent, 2)).toBe('Ingesting "Bees and honey"\nWrote wiki/concepts/Bees.md\n2 more waiting\nClick to cancel');
  });

  it("writes token counts short", () => {
    expect(formatTokens(950)).toBe("950");
    expect(formatTokens(4_100)).toBe("4.1k");
    expect(formatTokens(12_345)).toBe("12k");
    expect(formatTokens(2_500_000)).toBe("2.5M");
  });
});
