/**
 * Lint never proposes merging pages whose titles are different subjects (a numeral, a letter:
 * distinguishing-marks.ts), however alike their words are — by similarity or by the model's
 * verdict — while a true duplicate in other words is still found.
 */
import { describe, expect, it } from "vitest";
import { runLint, type LintReport } from "../../src/lint/run-lint";
import { DEFAULT_SETTINGS } from "../../src/settings/schema";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import { FakeModel } from "./fake-model";
import { SIMILAR_WIKI } from "./similar-wiki";
import { removedBy } from "../helpers/fixes";

const page = (title: string, body: string) => `---\ntype: concept\ntitle: ${title}\nsources: [notes/history.md]\n---\n\n${body}\n`;

/** Two pages of one family: the same long text but for the mark, so their words are far above the duplicate threshold. */
const twins = (family: string, marks: readonly [string, string], text: (mark: string) => string): Record<string, string> =>
  Object.fromEntries(marks.map((mark) => [`wiki/concepts/${family} ${mark}.md`, page(`${family} ${mark}`, text(mark))]));

const war = (n: string) =>
  `World War ${n} was a global conflict fought between two coalitions of great powers across Europe, Africa, Asia and the oceans. ` +
  `Millions of soldiers and civilians died in the fighting, in famines and in the epidemics that followed it. The war reshaped borders, ` +
  `ended empires, changed the role of women in industry, and left a settlement that historians still argue about. World War ${n} is remembered every November.`;
const vitamin = (letter: string) =>
  `Vitamin ${letter} is an essential nutrient that the human body cannot make in sufficient amounts and must take from food such as ` +
  `leafy vegetables, eggs, dairy products, fish and liver. A deficiency of vitamin ${letter} causes disease that a better diet or a ` +
  `supplement corrects, and too much of it taken as tablets over months can also harm the liver, the skin and the nervous system of adults.`;

const WIKI: Record<string, string> = {
  ...SIMILAR_WIKI,
  ...twins("World War", ["I", "II"], war),
  ...twins("Vitamin", ["A", "B"], vitamin),
};

const duplicatePairs = (report: LintReport) =>
  report.findings.filter((f) => f.check === "duplicate").map((f) => [f.page, removedBy(f.fixes[0])].sort().join(" + ")).sort();

describe("lint's duplicates respect distinct subjects", () => {
  it("never proposes merging World War I with II, or Vitamin A with B, by similarity of words", async () => {
    const report = await runLint({ vault: new MemoryVault(WIKI), store: new MemoryStateStore(), settings: DEFAULT_SETTINGS });
    expect(report.error).toBeNull();
    const pairs = duplicatePairs(report);
    expect(pairs.some((p) => p.includes("World War") || p.includes("Vitamin"))).toBe(false);
    // A duplicate in other words is still found.
    expect(pairs).toContain("wiki/entities/Ada Lovelace.md + wiki/entities/Augusta Ada King.md");
  });

  it("never turns a model's 'duplicate' verdict on such a pair into a merge, though the pair is still checked for contradictions", async () => {
    const model = new FakeModel(() => '{"contradictions": [], "duplicate": true, "reason": "Same subject."}');
    const store = new MemoryStateStore();
    const report = await runLint(
      { vault: new MemoryVault(WIKI), store, provider: model, settings: DEFAULT_SETTINGS, write: { store, writer: { kind: "cli", pid: null, host: null } }, now: () => Date.UTC(2026, 10, 30) },
      { modelChecks: true },
    );
    expect(report.error).toBeNull();
    const asked = model.calls.map((m) => [...(m[1]?.content ?? "").matchAll(/^Page [AB]: "([^"]+)"/gm)].map((x) => x[1]).sort().join(" + "));
    expect(asked).toContain("World War I + World War II");
    const pairs = duplicatePairs(report);
    expect(pairs.some((p) => p.includes("World War") || p.includes("Vitamin"))).toBe(false);
    expect(pairs).toContain("wiki/entities/Ada Lovelace.md + wiki/entities/Augusta Ada King.md");
  });
});
