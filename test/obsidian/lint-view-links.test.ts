/**
 * "Check wiki health" lists pages as Obsidian's own lists do: each finding names its page by title
 * with the path in the tooltip, in a real internal link (`data-href`) that Ctrl/Cmd-click opens in
 * a new tab and that asks Page preview for its popover; a missing page is text, never a link that
 * would create it; severity shows; fix labels read once, without "(safe)" glued on; counts are in
 * words, and the status says what the view waits for.
 */
import { Platform } from "obsidian-test-mocks/obsidian";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LINT_VIEW_TYPE, type LintView } from "../../src/ui/lint-view";
import { eventually } from "../helpers/eventually";
import { FakeModel } from "../lint/fake-model";
import { PLANTED } from "../lint/planted-wiki";
import { loadPlugin, type Harness } from "./plugin-harness";

afterEach(() => vi.restoreAllMocks());

// The mocks' metadata cache cannot load a note with broken YAML; the core's tests cover that page.
const FILES = Object.fromEntries(Object.entries(PLANTED).filter(([path]) => path !== "wiki/concepts/Broken yaml.md"));
const ORPHAN = "wiki/concepts/Orphaned idea.md";

async function open(files: Record<string, string> = FILES): Promise<{ harness: Harness; view: LintView; model: FakeModel }> {
  const model = new FakeModel(() => '{"contradictions": [], "duplicate": false}');
  const harness = await loadPlugin({ files, seams: { createProvider: () => model, review: (plan) => Promise.resolve(plan.changes.map((c) => c.path)) } });
  const view = await harness.plugin.openLintView();
  if (!view) throw new Error("opening the view built none");
  return { harness, view, model };
}

const $$ = (view: LintView, selector: string) => [...view.contentEl.querySelectorAll<HTMLElement>(selector)];
const findingOf = (view: LintView, check: string) => $$(view, `.synapse-lint-group[data-check='${check}'] li`)[0];
const status = (view: LintView) => view.contentEl.querySelector(".synapse-lint-status")?.textContent ?? "";

describe("Check wiki health: page links like Obsidian's", () => {
  it("labels a finding by its page's title, with the path in the tooltip and in data-href", async () => {
    const { view } = await open();
    const link = findingOf(view, "orphan")?.querySelector<HTMLAnchorElement>("a.internal-link");
    expect(link?.textContent).toBe("Orphaned idea");
    expect(link?.getAttribute("data-href")).toBe(ORPHAN);
    expect(link?.getAttribute("aria-label")).toBe(ORPHAN);
    // A real anchor with an href is reached by Tab and opened by Enter, as a link is.
    expect(link?.getAttribute("href")).toBe(ORPHAN);
    expect($$(view, "a").every((a) => a.getAttribute("href") !== "#")).toBe(true);
  });

  it("opens the page in place on a click, in a new tab on Ctrl/Cmd-click or a middle click", async () => {
    const { harness, view } = await open();
    const openLink = vi.spyOn(harness.app.workspace, "openLinkText").mockResolvedValue();
    const link = findingOf(view, "orphan")?.querySelector<HTMLAnchorElement>("a.internal-link");
    if (!link) throw new Error("no link");
    link.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
    const mod = Platform.isMacOS ? { metaKey: true } : { ctrlKey: true };
    link.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true, ...mod }));
    link.dispatchEvent(new MouseEvent("auxclick", { bubbles: true, cancelable: true, button: 1 }));
    expect(openLink.mock.calls).toEqual([
      [ORPHAN, "", false],
      [ORPHAN, "", "tab"],
      [ORPHAN, "", "tab"],
    ]);
  });

  it("asks Page preview for a popover on hover, from a registered hover source", async () => {
    const { harness, view } = await open();
    expect(harness.registered.hoverLinkSources__.get(LINT_VIEW_TYPE)).toMatchObject({ defaultMod: true });
    const calls: unknown[][] = [];
    vi.spyOn(harness.app.workspace, "trigger").mockImplementation((...args: unknown[]) => void calls.push(args));
    const link = findingOf(view, "orphan")?.querySelector<HTMLAnchorElement>("a.internal-link");
    link?.dispatchEvent(new MouseEvent("mouseover", { bubbles: true }));
    const hover = calls.find(([name]) => name === "hover-link")?.[1] as Record<string, unknown> | undefined;
    expect(hover?.source).toBe(LINT_VIEW_TYPE);
    expect(hover?.linktext).toBe(ORPHAN);
    expect(hover?.targetEl === link).toBe(true);
    expect(hover?.hoverParent === view).toBe(true);
  });

  it("shows a missing index.md as text: nothing to click that would create the file", async () => {
    const files = Object.fromEntries(Object.entries(FILES).filter(([path]) => path !== "wiki/index.md"));
    const { harness, view } = await open(files);
    const item = findingOf(view, "index");
    expect(item?.querySelector("a")).toBeNull();
    const page = item?.querySelector<HTMLElement>(".synapse-page-link");
    expect(page?.textContent).toBe("index");
    expect(page?.getAttribute("aria-label")).toBe("wiki/index.md (does not exist yet)");
    page?.click();
    expect(harness.app.vault.getFileByPath("wiki/index.md")).toBeNull();
  });
});

describe("Check wiki health: what a finding says", () => {
  it("shows each finding's severity", async () => {
    const { view } = await open();
    expect(findingOf(view, "dangling-link")?.querySelector(".synapse-lint-severity")?.textContent).toBe("Warning");
    expect(findingOf(view, "wrong-folder")?.querySelector(".synapse-lint-severity")?.textContent).toBe("Note");
    const shown = { error: "Error", warning: "Warning", info: "Note" } as Record<string, string>;
    for (const item of $$(view, ".synapse-lint-finding")) {
      const badge = item.querySelector(".synapse-lint-severity");
      expect(badge?.textContent).toBe(shown[item.dataset.severity ?? ""]);
      expect(badge?.classList.contains(`mod-${item.dataset.severity ?? ""}`)).toBe(true);
    }
  });

  it("labels each fix once: no '(safe)' suffix, no doubled parentheses, no two identical buttons on a finding", async () => {
    const { view } = await open();
    for (const item of $$(view, ".synapse-lint-finding")) {
      const labels = [...item.querySelectorAll("button")].map((b) => b.textContent ?? "");
      expect(new Set(labels).size).toBe(labels.length);
      for (const label of labels) {
        expect(label).not.toContain("(safe)");
        expect(label).not.toMatch(/\)\s*\(/);
      }
    }
    const safe = findingOf(view, "orphan")?.querySelector<HTMLButtonElement>("button.is-safe");
    expect(safe?.textContent).toBe("List it in index.md");
    expect(safe?.getAttribute("aria-label")).toMatch(/^List it in index\.md\. Safe: /);
    const unsafe = [...(findingOf(view, "orphan")?.querySelectorAll("button") ?? [])].find((b) => !b.classList.contains("is-safe"));
    expect(unsafe?.getAttribute("aria-label")).toBeNull();
  });

  it("keeps a fix's button to its own words, with what else it does in the tooltip", async () => {
    const { view } = await open();
    const retract = [...(findingOf(view, "missing-source-note")?.querySelectorAll("button") ?? [])].find((b) => b.textContent?.startsWith("Retract"));
    expect(retract?.textContent).toMatch(/^Retract "[^"]+"$/);
    expect(retract?.getAttribute("aria-label")).toMatch(/^Retract "[^"]+"\. Its sections leave every page, and a page left empty goes\.$/);
  });

  it("counts in words, never 'page(s)'", async () => {
    const { view } = await open();
    expect(status(view)).toBe("10 pages checked: 9 findings.");
    expect(view.contentEl.textContent).not.toMatch(/\(s\)/);
  });

  it("says what it waits for while the model checks' estimate awaits confirmation", async () => {
    const { view } = await open();
    const box = view.contentEl.querySelector<HTMLInputElement>(".synapse-lint-model input");
    if (!box) throw new Error("no model checks toggle");
    box.checked = true;
    const checking = view.check();
    await eventually(() => expect(view.contentEl.querySelector(".synapse-lint-estimate button")).not.toBeNull());
    expect(status(view)).toBe("Waiting for you: run the model checks below, or skip them.");
    view.cancel();
    await checking;
  });
});

describe("Check wiki health: empty states", () => {
  it("says what a check looks for before the first one has run", async () => {
    const { view } = await open();
    await view.onOpen();
    expect(view.contentEl.querySelector(".synapse-lint-empty")?.textContent).toMatch(/^Check again lists broken links/);
  });

  it("says no problems were found in a healthy wiki, and what was checked", async () => {
    const { view } = await open({
      "notes/a.md": "A note about [[Bees]].",
      "wiki/concepts/Bees.md": "---\ntype: concept\ntitle: Bees\nsources: [notes/a.md]\n---\nBees make honey.\n",
      "wiki/index.md": "# Index\n\n## Concepts\n\n- [[wiki/concepts/Bees|Bees]]\n",
    });
    const empty = view.contentEl.querySelector(".synapse-lint-empty");
    expect(empty?.querySelector(".synapse-lint-empty-title")?.textContent).toBe("No problems found");
    expect(empty?.textContent).toMatch(/^No problems foundChecked for dangling links, orphan pages, .*duplicates, the index, .* and runs interrupted on other devices\.$/);
  });

  it("says the wiki is healthy when nothing is found, and turns off Fix all safe", async () => {
    const { view } = await open({ "notes/a.md": "A note." });
    expect(view.contentEl.querySelector(".synapse-lint-empty")?.textContent).toMatch(/ingest a note, then check again|No problems found/);
    const fixAll = [...view.contentEl.querySelectorAll<HTMLButtonElement>("button")].find((b) => b.textContent === "Fix all safe");
    expect(fixAll?.disabled).toBe(true);
  });
});
