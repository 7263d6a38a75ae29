/** Lint names pages by title in its messages and fix labels, with the path only where two pages share the title. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { humanLintReport } from "../../src/cli/lint-report";
import { pageNamer } from "../../src/lint/page-names";
import type { LintReport } from "../../src/lint/run-lint";

describe("a page's name in lint's words", () => {
  const snapshot = {
    pages: [
      { path: "wiki/entities/Ada Lovelace.md", title: "Ada Lovelace" },
      { path: "wiki/concepts/Bees.md", title: "Bees" },
      { path: "wiki/entities/Bees.md", title: "bees" },
      { path: "wiki/concepts/Untitled.md", title: "  " },
    ],
  };
  const name = pageNamer(snapshot);

  it("is the title in quotes, never the path, when the title is the page's alone", () => {
    expect(name("wiki/entities/Ada Lovelace.md")).toBe('"Ada Lovelace"');
    expect(name("wiki/concepts/Untitled.md")).toBe('"Untitled"');
  });

  it("adds the path where two pages share the title (whatever its case)", () => {
    expect(name("wiki/concepts/Bees.md")).toBe('"Bees" (wiki/concepts/Bees.md)');
    expect(name("wiki/entities/Bees.md")).toBe('"bees" (wiki/entities/Bees.md)');
  });

  it("names a note (a source, outside the wiki) by its file name, as Obsidian does", () => {
    expect(name("notes/Bridge.md")).toBe('"Bridge"');
  });

  it("never shows a path for a page whose title no other page has (property)", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.stringMatching(/^[A-Za-z]{1,8}$/), { minLength: 1, maxLength: 8, selector: (t) => t.toLowerCase() }), (titles) => {
        const pages = titles.map((title, i) => ({ path: `wiki/concepts/p${i}.md`, title }));
        const named = pageNamer({ pages });
        return pages.every((p) => named(p.path) === `"${p.title}"`);
      }),
    );
  });
});

describe("the CLI's lint report", () => {
  const finding = (page: string, message: string) => ({ check: "orphan" as const, severity: "info" as const, page, message, fixes: [] });
  const report = (findings: LintReport["findings"]): LintReport => ({
    findings,
    fixed: [],
    changes: [],
    counts: {},
    pages: 3,
    usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
    error: null,
    durationMs: 0,
    modelChecks: null,
  });

  it("labels each finding by its page's name, with the path only where two share it", () => {
    const text = humanLintReport(report([finding("wiki/concepts/Tea.md", "No page links here."), finding("wiki/concepts/Bees.md", "x"), finding("wiki/entities/Bees.md", "y")]), false);
    expect(text).toContain("  Tea: No page links here.");
    expect(text).toContain("  Bees (wiki/concepts/Bees.md): x");
    expect(text).toContain("  Bees (wiki/entities/Bees.md): y");
    expect(text).not.toContain("  wiki/concepts/Tea.md:");
  });
});
