/**
 * The lint benchmark's wiki (bench/lint-wiki-maker.ts), made small: lint by similarity finds its
 * planted rewrites and no other pair. The bench counts those pairs, so a planted pair that lint
 * rightly keeps apart (two titles that differ in a number are two subjects) would read there as a
 * regression of the check.
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeLintWiki, PLANTED_DUPLICATES } from "../../bench/lint-wiki-maker";
import { runLint, type LintReport } from "../../src/lint/run-lint";
import { DEFAULT_SETTINGS } from "../../src/settings/schema";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { NodeVault } from "../../src/vault/node-vault";
import { removedBy } from "../helpers/fixes";

const PAGES = 300;

describe("the lint benchmark's wiki", () => {
  let root = "";
  let report: LintReport;

  beforeAll(async () => {
    root = makeLintWiki(PAGES);
    report = await runLint({ vault: new NodeVault(root), settings: DEFAULT_SETTINGS, store: new MemoryStateStore() });
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("has its planted rewrites found by similarity, each beside the page it rewrites, and no other pair", () => {
    expect(report.error).toBeNull();
    expect(report.pages).toBe(PAGES);
    const similar = report.findings.filter((f) => f.check === "duplicate" && f.message.includes("alike in their words"));
    const pairs = similar.map((f) => [f.page, removedBy(f.fixes[0])]);
    expect(pairs).toHaveLength(PLANTED_DUPLICATES);
    for (const [keep, remove] of pairs) {
      // "wiki/concepts/Topic 12.md" keeps, "wiki/syntheses/Topic 12 overview.md" goes.
      const original = /\/(Topic \d+)\.md$/.exec(keep ?? "")?.[1];
      expect(original, keep).toBeDefined();
      expect(remove).toMatch(new RegExp(`/${original ?? ""} overview\\.md$`));
    }
  });
});
