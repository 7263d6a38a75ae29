import { describe, expect, it } from "vitest";
import { ANALYSIS_LIMITS, checkAnalysis } from "../../src/core/analysis-check";
import { createRunContext } from "../../src/core/run-context";
import { OfflineProvider } from "../../src/providers/offline/offline-provider";
import { anAnalysis } from "../builders";

describe("checkAnalysis", () => {
  it("passes a sound analysis, its language trimmed", () => {
    expect(checkAnalysis({ ...anAnalysis(), language: " de " }, "m").language).toBe("de");
  });

  it.each([
    ["a made-up language", { language: "en2### your.comOS" }, "ISO 639-1"],
    ["an empty language", { language: "" }, "ISO 639-1"],
    ["a three-letter code", { language: "eng" }, "ISO 639-1"],
    ["an empty title", { title: "  " }, "the title is empty"],
    ["an overlong summary", { summary: "x".repeat(ANALYSIS_LIMITS.summary + 1) }, "the summary is longer"],
    ["an unnamed concept", { concepts: [{ name: "", description: "d" }] }, "is empty"],
  ])("refuses %s as a schema failure that names it", (_label, patch, words) => {
    let thrown: unknown;
    try {
      checkAnalysis({ ...anAnalysis(), ...patch }, "qwen3:8b");
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ kind: "schema", message: expect.stringContaining(words) as string });
    expect((thrown as Error).message).toContain("qwen3:8b");
  });

  it("accepts what the Offline provider extracts from a note whose heading and links are enormous", async () => {
    const huge = "🐝".repeat(60_000);
    const text = `# ${huge}\n\nA note about [[${huge}]] and [[Bees]] with a long line.\n`;
    const run = createRunContext({ source: { path: "Huge.md", text } });
    const analysis = await new OfflineProvider().analyze(text, "", run);
    expect(() => checkAnalysis(analysis, null)).not.toThrow();
    expect(analysis.title.length).toBeLessThanOrEqual(ANALYSIS_LIMITS.title);
    expect(analysis.title).not.toMatch(/[\uD800-\uDBFF]$/);
  });
});
