/**
 * The commands that open a view, run as the palette runs them, with leaves that build views as
 * Obsidian's do (leaf-views.ts): "Check wiki health" opens the report, whose fix goes through review
 * and undo; "Ask the wiki" opens its panel; running either again reveals the same view.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { LINT_VIEW_TYPE, LintView } from "../../src/ui/lint-view";
import { QUERY_VIEW_TYPE, QueryView } from "../../src/ui/query-view";
import type { ReviewPlan } from "../../src/wiki/review";
import { eventually } from "../helpers/eventually";
import { aPage, ScriptedProvider } from "../builders";
import { FakeModel } from "../lint/fake-model";
import { PLANTED, PLANTED_REPORT_HEADINGS } from "../lint/planted-wiki";
import { loadPlugin, runCommand, type Harness } from "./plugin-harness";

afterEach(() => vi.restoreAllMocks());

// The mocks' metadata cache cannot load a note with broken YAML; the core's tests cover that page.
const FILES = Object.fromEntries(Object.entries(PLANTED).filter(([path]) => path !== "wiki/concepts/Broken yaml.md"));

const leavesOf = (harness: Harness, type: string) => harness.app.workspace.getLeavesOfType(type);

function onlyView<T>(harness: Harness, type: string, kind: abstract new (...args: never[]) => T): T {
  const leaves = leavesOf(harness, type);
  expect(leaves).toHaveLength(1);
  const view = leaves[0]?.view;
  if (!(view instanceof kind)) throw new Error(`the ${type} leaf holds no view of its type`);
  return view;
}

const headings = (view: LintView) => [...view.contentEl.querySelectorAll(".synapse-lint-group h4")].map((h) => h.textContent);
const status = (view: LintView) => view.contentEl.querySelector(".synapse-lint-status")?.textContent ?? "";

describe("the command 'Check wiki health'", () => {
  async function load() {
    const reviews: ReviewPlan[] = [];
    const harness = await loadPlugin({
      files: FILES,
      seams: {
        createProvider: () => new FakeModel(() => '{"contradictions": [], "duplicate": false}'),
        review: (plan) => {
          reviews.push(plan);
          return Promise.resolve(plan.changes.map((c) => c.path));
        },
      },
    });
    return { harness, reviews };
  }

  it("opens the report, grouped by check with counts; a fix goes through review and undo restores the bytes", async () => {
    const { harness, reviews } = await load();
    expect(runCommand(harness, "check-wiki-health")).toBe(true);
    const view = await eventually(() => onlyView(harness, LINT_VIEW_TYPE, LintView));
    await eventually(() => expect(status(view)).toMatch(/^10 pages checked: 9 findings\.$/));
    expect(headings(view)).toEqual(PLANTED_REPORT_HEADINGS);

    const before = await harness.read("wiki/index.md");
    const fix = [...view.contentEl.querySelectorAll("button")].find((b) => b.textContent === "List it in index.md");
    fix?.click();
    await eventually(() => expect(status(view)).toMatch(/^Done: List it in index\.md\. /));
    expect(reviews.map((r) => r.changes.map((c) => c.path))).toEqual([["wiki/index.md"]]);
    expect(await harness.read("wiki/index.md")).toContain("[[wiki/concepts/Orphaned idea|Orphaned idea]]");
    expect(headings(view)).not.toContain("Orphan pages (1)");

    const notices = harness.notices.length;
    runCommand(harness, "undo-last-change");
    await eventually(() => expect(harness.notices.length).toBeGreaterThan(notices));
    expect(await harness.read("wiki/index.md")).toBe(before);
  });

  it("run again, reveals the same view and checks again instead of opening a second one", async () => {
    const { harness } = await load();
    runCommand(harness, "check-wiki-health");
    const view = await eventually(() => onlyView(harness, LINT_VIEW_TYPE, LintView));
    await eventually(() => expect(status(view)).toMatch(/checked: 9 findings\.$/));
    const leaf = leavesOf(harness, LINT_VIEW_TYPE)[0];
    // Another leaf comes to the front; the command brings the report back, checked again.
    harness.app.workspace.setActiveLeaf(harness.app.workspace.getLeaf("tab"));
    const check = vi.spyOn(LintView.prototype, "check");
    runCommand(harness, "check-wiki-health");
    await eventually(() => expect(check).toHaveBeenCalledTimes(1));
    await eventually(() => expect(harness.app.workspace.activeLeaf).toBe(leaf));
    expect(onlyView(harness, LINT_VIEW_TYPE, LintView)).toBe(view);
  });
});

describe("a re-ingest fix from the report", () => {
  it("says what its model calls spent", async () => {
    const NOTE = "notes/Bridge.md";
    const page = (content: string) => aPage().titled("Golden Gate Bridge").withSources(NOTE).withContent(content).build();
    // 250 tokens a call, as the provider reports them, at a known model's price.
    const provider = new ScriptedProvider([[page("It opened in 1937.")], [page("It opened in 1937 and is painted orange.")]], { model: "claude-haiku-4-5" }, 250);
    const harness = await loadPlugin({
      files: { [NOTE]: "# Bridge\n\nIt opened in 1937.\n" },
      seams: { createProvider: () => provider, review: (plan) => Promise.resolve(plan.changes.map((c) => c.path)) },
    });
    harness.activate(NOTE);
    runCommand(harness, "ingest-active-note");
    await harness.plugin.ingest?.settled();
    await harness.app.vault.modify(harness.app.vault.getFileByPath(NOTE) as never, "# Bridge\n\nIt opened in 1937 and is painted orange.\n");
    runCommand(harness, "check-wiki-health");
    const view = await eventually(() => onlyView(harness, LINT_VIEW_TYPE, LintView));
    await eventually(() => expect(headings(view)).toContain("Stale pages (1)"));
    const calls = provider.analyzeCalls.length + provider.generateCalls.length;
    const fix = [...view.contentEl.querySelectorAll("button")].find((b) => b.textContent === 'Re-ingest "Bridge"');
    fix?.click();
    await eventually(() => expect(status(view)).toMatch(/^Done: Re-ingest "Bridge"\. Used 500 tokens in and 0 out, about \$0\.0005\. /));
    expect(provider.analyzeCalls.length + provider.generateCalls.length - calls).toBe(2);
    expect(headings(view)).not.toContain("Stale pages (1)");
  });
});

describe("the command 'Ask the wiki'", () => {
  it("opens the panel in a side leaf, rendered, and run again reveals the same one", async () => {
    const harness = await loadPlugin({ files: FILES });
    runCommand(harness, "ask-the-wiki");
    const view = await eventually(() => onlyView(harness, QUERY_VIEW_TYPE, QueryView));
    expect(view.contentEl.querySelector("textarea.synapse-query-question")).not.toBeNull();
    const leaf = leavesOf(harness, QUERY_VIEW_TYPE)[0];
    harness.app.workspace.setActiveLeaf(harness.app.workspace.getLeaf("tab"));
    runCommand(harness, "ask-the-wiki");
    await eventually(() => expect(harness.app.workspace.activeLeaf).toBe(leaf));
    expect(onlyView(harness, QUERY_VIEW_TYPE, QueryView)).toBe(view);
  });
});
