/**
 * The pages "Ask the wiki" names behave like links in Obsidian's own lists: the sources and the
 * saved page open on click and ask Page preview for a popover on hover, from a registered source.
 */
import { MarkdownRenderer, WorkspaceLeaf } from "obsidian-test-mocks/obsidian";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { QUERY_VIEW_TYPE, type QueryView } from "../../src/ui/query-view";
import { eventually } from "../helpers/eventually";
import { ChatProvider } from "../query/fakes";
import { loadPlugin, type Harness } from "./plugin-harness";

const ADA = "wiki/entities/Ada Lovelace.md";
const FILES = {
  "notes/ada.md": "# Ada\n\nAda Lovelace wrote the first program for the Analytical Engine.\n",
  [ADA]: "---\ntype: entity\ntitle: Ada Lovelace\nsources:\n  - notes/ada.md\nlang: en\ntags: []\n---\nAda Lovelace wrote the first program for the Analytical Engine of Charles Babbage.\n",
};
const QUESTION = "Who wrote the first program for the Analytical Engine?";

beforeEach(() => {
  vi.spyOn(MarkdownRenderer, "render").mockImplementation((_app, markdown: string, el: HTMLElement) => {
    el.setText(markdown);
    return Promise.resolve();
  });
});
afterEach(() => vi.restoreAllMocks());

async function answered(): Promise<{ harness: Harness; view: QueryView }> {
  const harness = await loadPlugin({
    files: FILES,
    seams: { createProvider: () => new ChatProvider(["[[Ada Lovelace]] wrote it."]), review: (plan) => Promise.resolve(plan.changes.map((c) => c.path)), streaming: true },
  });
  const create = harness.registered.views__.get(QUERY_VIEW_TYPE);
  if (!create) throw new Error("the view is not registered");
  const view = create(WorkspaceLeaf.create2__(harness.app).asOriginalType3__()) as unknown as QueryView;
  await view.onOpen();
  const box = view.contentEl.querySelector("textarea");
  if (!box) throw new Error("no question box");
  box.value = QUESTION;
  await view.ask(false);
  return { harness, view };
}

/** What hovering `link` asked the workspace for. */
function hovered(harness: Harness, link: HTMLElement): Record<string, unknown> | undefined {
  const calls: unknown[][] = [];
  vi.spyOn(harness.app.workspace, "trigger").mockImplementation((...args: unknown[]) => void calls.push(args));
  link.dispatchEvent(new MouseEvent("mouseover", { bubbles: true }));
  return calls.find(([name]) => name === "hover-link")?.[1] as Record<string, unknown> | undefined;
}

describe("Ask the wiki: links to pages", () => {
  it("a source previews its page on hover, from a registered hover source", async () => {
    const { harness, view } = await answered();
    expect(harness.registered.hoverLinkSources__.get(QUERY_VIEW_TYPE)).toMatchObject({ defaultMod: true });
    const link = view.contentEl.querySelector<HTMLElement>(".synapse-query-sources a.internal-link");
    if (!link) throw new Error("no source link");
    expect(link.textContent).toBe("Ada Lovelace");
    const hover = hovered(harness, link);
    expect(hover?.source).toBe(QUERY_VIEW_TYPE);
    expect(hover?.linktext).toBe(ADA);
    expect(hover?.hoverParent === view).toBe(true);
  });

  it("the saved page is a link that is shown, opens on click and previews on hover", async () => {
    const { harness, view } = await answered();
    [...view.contentEl.querySelectorAll("button")].find((b) => b.textContent === "Save as page")?.click();
    await eventually(() => expect(view.contentEl.querySelector(".synapse-query-saved a.internal-link")).not.toBeNull());
    const link = view.contentEl.querySelector<HTMLElement>(".synapse-query-saved a.internal-link");
    if (!link) throw new Error("no saved link");
    // In the answer's turn, on its own line (not in a row of buttons that runs off the edge), nothing hiding it.
    expect(link.closest(".synapse-query-turn > .synapse-query-saved")).not.toBeNull();
    expect(link.closest(".synapse-query-actions, [hidden], [style*='display: none']")).toBeNull();
    const openLink = vi.spyOn(harness.app.workspace, "openLinkText");
    link.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true, ctrlKey: true }));
    expect(openLink).toHaveBeenCalledWith(link.dataset.href, "", true);
    expect(hovered(harness, link)?.linktext).toBe(link.dataset.href);
  });
});
