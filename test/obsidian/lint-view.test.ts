/**
 * "Check wiki health" in the plugin, against the mocks: the command opens the view and runs the
 * exact checks; the report is grouped by check with counts; a finding links to its page and offers
 * its fixes, written only through the review hook; "Fix all safe"; the model checks with their
 * estimate shown before any call, progress, and cancel.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Message } from "../../src/core/schemas";
import { LINT_VIEW_TYPE, type LintView } from "../../src/ui/lint-view";
import type { ReviewHook, ReviewPlan } from "../../src/wiki/review";
import { eventually } from "../helpers/eventually";
import { FakeModel } from "../lint/fake-model";
import { PLANTED, PLANTED_REPORT_HEADINGS } from "../lint/planted-wiki";
import { loadPlugin, runCommand, type Harness } from "./plugin-harness";

afterEach(() => vi.restoreAllMocks());

// The mocks' metadata cache cannot load a note with broken YAML; the core's tests cover that page.
const FILES = Object.fromEntries(Object.entries(PLANTED).filter(([path]) => path !== "wiki/concepts/Broken yaml.md"));

interface Rig {
  readonly harness: Harness;
  readonly view: LintView;
  readonly reviews: ReviewPlan[];
  readonly model: FakeModel;
}

const adaPair = (messages: Message[]) => (messages[1]?.content ?? "").includes('Page A: "Ada Lovelace"') && (messages[1]?.content ?? "").includes('Page B: "Ada Lovelace"');

async function open(options: { review?: ReviewHook } = {}): Promise<Rig> {
  const reviews: ReviewPlan[] = [];
  const review: ReviewHook = (plan) => {
    reviews.push(plan);
    return options.review ? options.review(plan) : Promise.resolve(plan.changes.map((c) => c.path));
  };
  const model = new FakeModel((messages) =>
    adaPair(messages)
      ? JSON.stringify({ contradictions: [{ first: "Ada wrote about the Analytical Engine.", second: "A second page about Ada Lovelace." }], duplicate: false })
      : '{"contradictions": [], "duplicate": false}',
  );
  const harness = await loadPlugin({ files: FILES, seams: { createProvider: () => model, review } });
  // The command's own path: a leaf whose view state builds the view (see leaf-views.ts), then a check.
  const view = await harness.plugin.openLintView();
  if (!view) throw new Error("opening the view built none");
  return { harness, view, reviews, model };
}

const $$ = (view: LintView, selector: string) => [...view.contentEl.querySelectorAll<HTMLElement>(selector)];
const button = (view: LintView, text: string | RegExp) => {
  const found = $$(view, "button").find((b) => (typeof text === "string" ? b.textContent === text : text.test(b.textContent ?? "")));
  if (!found) throw new Error(`no button "${String(text)}"`);
  return found as HTMLButtonElement;
};
const headings = (view: LintView) => $$(view, ".synapse-lint-group h4").map((h) => h.textContent);
const status = (view: LintView) => view.contentEl.querySelector(".synapse-lint-status")?.textContent ?? "";

describe("Check wiki health: the command and the report", () => {
  it("registers a command without a default hotkey that opens one view and runs the checks", async () => {
    const { harness } = await open();
    const command = harness.registered.commands__.get("check-wiki-health");
    expect(command?.name).toBe("Check wiki health");
    expect(command?.hotkeys ?? []).toEqual([]);
    runCommand(harness, "check-wiki-health");
    await eventually(() => expect(harness.app.workspace.getLeavesOfType(LINT_VIEW_TYPE)).toHaveLength(1));
  });

  it("groups the findings by check with counts; a finding links to its page and lists its fixes", async () => {
    const { harness, view } = await open();
    expect(headings(view)).toEqual(PLANTED_REPORT_HEADINGS);
    expect(status(view)).toMatch(/^10 pages checked: 9 findings\.$/);
    const openLink = vi.spyOn(harness.app.workspace, "openLinkText").mockResolvedValue();
    const orphan = $$(view, ".synapse-lint-group[data-check='orphan'] li")[0];
    orphan?.querySelector("a")?.click();
    expect(openLink).toHaveBeenCalledWith("wiki/concepts/Orphaned idea.md", "", false);
    expect([...(orphan?.querySelectorAll("button") ?? [])].map((b) => b.textContent)).toEqual(["List it in index.md", 'Link it from "Dangling"']);
  });
});

describe("Check wiki health: fixes through review", () => {
  it("applies one fix after the review hook showed its diff, then checks again", async () => {
    const { harness, view, reviews } = await open();
    button(view, 'Create a stub page "Nowhere at all"').click();
    await eventually(() => expect(status(view)).toMatch(/^Done: Create a stub page "Nowhere at all"\. /));
    expect(reviews).toHaveLength(1);
    expect(reviews[0]?.changes.map((c) => c.path)).toEqual(["wiki/concepts/Nowhere at all.md", "wiki/index.md"]);
    expect(reviews[0]?.changes[0]?.diff).toContain("+# Nowhere at all");
    expect(await harness.read("wiki/concepts/Nowhere at all.md")).toContain("A stub: [[Dangling]] links here.");
    expect(headings(view)).toContain("Dangling links (1)");
  });

  it("writes nothing when the review declines", async () => {
    const { harness, view } = await open({ review: () => Promise.resolve([]) });
    const before = await harness.read("wiki/index.md");
    button(view, "List it in index.md").click();
    await eventually(() => expect(status(view)).toMatch(/^Nothing was written\. /));
    expect(await harness.read("wiki/index.md")).toBe(before);
  });

  it("'Fix all safe' applies every safe fix in one reviewed run and leaves the user's text alone", async () => {
    const { harness, view, reviews } = await open();
    const report = await view.fixAllSafe();
    expect(report?.error).toBeNull();
    expect(reviews).toHaveLength(1);
    expect(status(view)).toMatch(/^Fixed \d+\. /);
    expect(headings(view)).not.toContain("Index (1)");
    expect(await harness.read("notes/ada.md")).toBe(PLANTED["notes/ada.md"]);
    expect(await harness.read("wiki/syntheses/Deliberately unsourced.md")).toBe(PLANTED["wiki/syntheses/Deliberately unsourced.md"]);
  });
});

describe("Check wiki health: undo", () => {
  it("one 'Undo last ingest or other change' takes a whole 'Fix all safe' run back, byte for byte", async () => {
    const { harness, view } = await open();
    const paths = Object.keys(FILES);
    const before = Object.fromEntries(await Promise.all(paths.map(async (p) => [p, await harness.read(p)] as const)));
    const report = await view.fixAllSafe();
    expect(report?.fixed.length).toBeGreaterThan(1);
    expect(await harness.read("wiki/index.md")).not.toBe(before["wiki/index.md"]);
    expect(harness.app.vault.getFileByPath("wiki/concepts/Nowhere at all.md")).not.toBeNull();
    const notices = harness.notices.length;
    runCommand(harness, "undo-last-change");
    await eventually(() => expect(harness.notices.length).toBeGreaterThan(notices));
    for (const path of paths) expect(await harness.read(path)).toBe(before[path]);
    expect(harness.app.vault.getFileByPath("wiki/concepts/Nowhere at all.md")).toBeNull();
  });
});

describe("Check wiki health: model checks", () => {
  const toggle = (view: LintView) => {
    const box = view.contentEl.querySelector<HTMLInputElement>(".synapse-lint-model input");
    if (!box) throw new Error("no model checks toggle");
    box.checked = true;
  };

  it("shows the estimate and sends nothing until it is confirmed, then reports what the model found", async () => {
    const { view, model } = await open();
    toggle(view);
    const checking = view.check();
    await eventually(() => expect(view.contentEl.querySelector(".synapse-lint-estimate")?.textContent).toMatch(/^Model checks with fake-1: \d+ pairs of related pages, 0 already checked/));
    expect(model.calls).toHaveLength(0);
    button(view, "Run the model checks").click();
    const report = await checking;
    expect(model.calls.length).toBeGreaterThan(0);
    expect(report?.modelChecks?.checked).toBe(model.calls.length);
    expect(headings(view)).toContain("Contradictions (1)");
    expect(status(view)).toContain(`Model checks: ${model.calls.length} pairs checked, 0 from the cache.`);
    // What the calls cost, as the fake reported them (100 in, 20 out each): the fake runs on this computer, unpriced.
    expect(status(view)).toContain(`Used ${(model.calls.length * 100).toLocaleString("en-US")} tokens in and ${model.calls.length * 20} out, free (runs on this computer).`);
  });

  it("dismissing the contradiction the model found is undone by 'Undo last ingest or other change'", async () => {
    const { harness, view } = await open();
    toggle(view);
    const checking = view.check();
    await eventually(() => expect(() => button(view, "Run the model checks")).not.toThrow());
    button(view, "Run the model checks").click();
    await checking;
    expect(headings(view)).toContain("Contradictions (1)");
    button(view, /^Dismiss it/).click();
    await eventually(() => expect(status(view)).toMatch(/^Done: Dismiss it/));
    expect(headings(view)).not.toContain("Contradictions (1)");
    const notices = harness.notices.length;
    runCommand(harness, "undo-last-change");
    await eventually(() => expect(harness.notices.length).toBeGreaterThan(notices));
    expect(harness.notices.at(-1)).toMatch(/dismiss contradiction c-/);
    await view.check();
    expect(headings(view)).toContain("Contradictions (1)");
  });

  it("cancel while the estimate is shown sends nothing and still shows the exact checks", async () => {
    const { view, model } = await open();
    toggle(view);
    const checking = view.check();
    await eventually(() => expect(() => button(view, "Run the model checks")).not.toThrow());
    expect(button(view, "Cancel").style.display).not.toBe("none");
    button(view, "Cancel").click();
    const report = await checking;
    expect(model.calls).toHaveLength(0);
    expect(report?.modelChecks).toMatchObject({ checked: 0 });
    expect(headings(view)).toContain("Dangling links (2)");
    expect(button(view, "Cancel").style.display).toBe("none");
  });
});
