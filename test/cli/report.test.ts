import { describe, expect, it } from "vitest";
import { humanReport, jsonReportObject } from "../../src/cli/report";
import type { IngestReport } from "../../src/wiki/ingest-types";

function aReport(overrides: Partial<IngestReport> = {}): IngestReport {
  return {
    converged: true,
    stopReason: "converged",
    dryRun: false,
    attempts: { analyze: 1, generate: 1 },
    pages: [],
    upToDate: null,
    declined: [],
    usage: { inputTokens: 1200, outputTokens: 800, costUsd: null },
    provider: { name: "ollama", mode: "local", isLocal: true, model: "qwen3:8b" },
    error: null,
    issues: [],
    dangling: [],
    contradictions: [],
    locked: [],
    linkedNotes: [],
    durationMs: 4321,
    ...overrides,
  };
}

describe("an ingest that did not converge explains itself", () => {
  const failed = aReport({ converged: false, stopReason: "max_iter", attempts: { analyze: 1, generate: 3 }, issues: ['Page "Bees": the summary is empty.', 'Page "Bees": no sources.'] });

  it("--json names the stop reason and the last issues", () => {
    const json = jsonReportObject(failed);
    expect(json.converged).toBe(false);
    expect(json.error).toBeNull();
    expect(json.stopReason).toBe("max_iter");
    expect(json.issues).toEqual(['Page "Bees": the summary is empty.', 'Page "Bees": no sources.']);
    expect(jsonReportObject(aReport()).stopReason).toBe("converged");
  });

  it("usage says how many requests' tokens are estimated, in --json and the human output", () => {
    const cut = aReport({ converged: false, stopReason: "deadline", usage: { inputTokens: 3200, outputTokens: 0, costUsd: null, estimatedCalls: 1 } });
    expect(jsonReportObject(cut).usage).toEqual({ inputTokens: 3200, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: null, estimatedCalls: 1 });
    expect(humanReport(cut, "notes/Bees.md")).toContain("(1 request never returned usage: its tokens are estimated)");
    expect(humanReport(aReport(), "notes/Bees.md")).not.toContain("estimated");
  });

  it("the human output says why and lists the last problems", () => {
    const text = humanReport(failed, "notes/Bees.md");
    expect(text).toContain("Not converged: 3 generation attempts all failed validation. Nothing was written for notes/Bees.md.");
    expect(text).toContain('  - Page "Bees": the summary is empty.');
  });
});
