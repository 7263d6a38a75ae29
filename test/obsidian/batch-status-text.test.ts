import { describe, expect, it } from "vitest";
import { batchStatusText, batchStatusTooltip, NO_BATCHES, type BatchSnapshot } from "../../src/obsidian/batch-progress";

const line = '"notes" with Anthropic (claude-haiku-4-5): 12 running; in progress at the provider, 3 of 12 requests done.';
const out: BatchSnapshot = { notes: 12, lines: [line], ready: 0, collecting: false };

describe("the batch ingests in the status bar", () => {
  it("says nothing while no batch is out", () => {
    expect(batchStatusText(NO_BATCHES)).toBe("");
    expect(batchStatusTooltip(NO_BATCHES)).toBe("");
  });

  it("shows a short text, and each batch's status with what a click does in the tooltip", () => {
    expect(batchStatusText(out)).toBe("Synapse: batch · 12 notes");
    expect(batchStatusTooltip(out)).toBe(`${line}\nClick to ask the provider for the latest status`);
    const two: BatchSnapshot = { ...out, notes: 1, lines: [line, line] };
    expect(batchStatusText(two)).toBe("Synapse: batches · 1 note");
  });

  it("says when results are in, and that a click collects them; nothing to click while a collect runs", () => {
    expect(batchStatusText({ ...out, ready: 1 })).toBe("Synapse: batch results in");
    expect(batchStatusTooltip({ ...out, ready: 1 }).split("\n").at(-1)).toBe("Click to collect the results");
    expect(batchStatusText({ ...out, ready: 1, collecting: true })).toBe("Synapse: collecting batch");
    expect(batchStatusTooltip({ ...out, collecting: true })).toBe(line);
  });

  it("stays as short as the ingest's status text", () => {
    const many: BatchSnapshot = { notes: 12_345, lines: Array.from({ length: 12 }, () => line), ready: 0, collecting: false };
    for (const snapshot of [out, many, { ...out, ready: 1 }, { ...out, collecting: true }]) expect(batchStatusText(snapshot).length).toBeLessThanOrEqual(32);
  });
});
