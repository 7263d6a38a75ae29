/**
 * "Ask the wiki" in the plugin, against the mocks: the command, the ribbon button and the side
 * view; the answer streaming into the view (or arriving whole where nothing streams), stop,
 * sources with their passages and unverified citations marked, follow-ups and a clearable
 * history, and "Save as page" through the review hook, undone by the undo command.
 * MarkdownRenderer.render is a no-op in the mocks; it is spied on so the test sees what it rendered.
 */
import { type Component, MarkdownRenderer, WorkspaceLeaf } from "obsidian-test-mocks/obsidian";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { RunContext } from "../../src/core/run-context";
import type { Message } from "../../src/core/schemas";
import { NOT_IN_WIKI } from "../../src/query/ask";
import { QUERY_VIEW_TYPE, snippet, type QueryView } from "../../src/ui/query-view";
import type { ReviewHook, ReviewPlan } from "../../src/wiki/review";
import { ChatProvider } from "../query/fakes";
import { eventually } from "../helpers/eventually";
import { loadPlugin, runCommand, type Harness } from "./plugin-harness";

const ADA = "wiki/entities/Ada Lovelace.md";
const NOTE = "notes/ada.md";
const FILES = {
  [NOTE]: "# Ada\n\nAda Lovelace wrote the first program for the Analytical Engine.\n",
  [ADA]: `---\ntype: entity\ntitle: Ada Lovelace\nsources:\n  - ${NOTE}\nlang: en\ntags: []\n---\nAda Lovelace wrote the first program for the Analytical Engine of Charles Babbage.\n`,
  "Private/diary.md": "The Analytical Engine program is my secret.\n",
};
const QUESTION = "Who wrote the first program for the Analytical Engine?";

/** A provider whose pieces wait for the test to release them, so the view can be seen mid-stream. */
class GatedProvider extends ChatProvider {
  private gates: (() => void)[] = [];
  readonly waiting: Promise<void>[] = [];
  constructor(reply: readonly string[]) {
    super(reply);
  }
  override async *chat(messages: Message[], context: string, run: RunContext): AsyncIterable<string> {
    const iterator = super.chat(messages, context, run)[Symbol.asyncIterator]();
    let first = true;
    for (;;) {
      if (!first) await new Promise<void>((release) => this.gates.push(release));
      first = false;
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  }
  /** Lets the next piece through; true when one was waiting. */
  release(): boolean {
    const gate = this.gates.shift();
    gate?.();
    return gate !== undefined;
  }
  get held(): number {
    return this.gates.length;
  }
}

let rendered: string[] = [];
/** The component each render was given, in order: what the view must unload when it replaces a render. */
let components: Component[] = [];
beforeEach(() => {
  rendered = [];
  components = [];
  vi.spyOn(MarkdownRenderer, "render").mockImplementation((_app, markdown: string, el: HTMLElement, _path, component) => {
    rendered.push(markdown);
    components.push(component);
    el.setText(markdown);
    return Promise.resolve();
  });
});

/** The components the view still holds as children (the mocks keep them in `children__`). */
const children = (view: QueryView) => (view as unknown as { children__: Component[] }).children__;
afterEach(() => vi.restoreAllMocks());

interface Rig {
  readonly harness: Harness;
  readonly view: QueryView;
  readonly reviews: ReviewPlan[];
}

async function open(provider: ChatProvider, options: { review?: ReviewHook | "modal"; streaming?: boolean; data?: unknown } = {}): Promise<Rig> {
  const reviews: ReviewPlan[] = [];
  const chosen = options.review;
  const review: ReviewHook = (plan) => {
    reviews.push(plan);
    return chosen && chosen !== "modal" ? chosen(plan) : Promise.resolve(plan.changes.map((c) => c.path));
  };
  const harness = await loadPlugin({
    files: FILES,
    ...(options.data !== undefined ? { data: options.data } : {}),
    // "modal": the plugin's own review modal, under the "Review before writing" setting.
    seams: { createProvider: () => provider, ...(chosen === "modal" ? {} : { review }), streaming: options.streaming ?? true },
  });
  const view = await openView(harness);
  return { harness, view, reviews };
}

async function openView(harness: Harness): Promise<QueryView> {
  const create = harness.registered.views__.get(QUERY_VIEW_TYPE);
  if (!create) throw new Error("the view is not registered");
  const view = create(WorkspaceLeaf.create2__(harness.app).asOriginalType3__()) as unknown as QueryView;
  await view.onOpen();
  return view;
}

const $ = (view: QueryView, selector: string) => view.contentEl.querySelector<HTMLElement>(selector);
const $$ = (view: QueryView, selector: string) => [...view.contentEl.querySelectorAll<HTMLElement>(selector)];
const button = (view: QueryView, text: string) => {
  const found = $$(view, "button").find((b) => b.textContent === text);
  if (!found) throw new Error(`no button "${text}"`);
  return found as HTMLButtonElement;
};

/** Answers the confirmation "Clear conversation" asks for: `confirm` clears, else it keeps the conversation. */
function confirmClear(harness: Harness, confirm = true): void {
  const modal = harness.opened.at(-1);
  const label = confirm ? "Clear" : "Keep";
  const found = [...(modal?.contentEl.querySelectorAll("button") ?? [])].find((b) => b.textContent === label);
  if (!found) throw new Error("Clearing the conversation did not ask first");
  found.click();
}

function ask(view: QueryView, question: string) {
  const box = $(view, "textarea") as HTMLTextAreaElement;
  box.value = question;
  return view.ask(false);
}

describe("Ask the wiki: registration", () => {
  it("registers the view, a command without a default hotkey, a ribbon button, and the 'Ask with' picker", async () => {
    const { harness } = await open(new ChatProvider(["x"]));
    const command = harness.registered.commands__.get("ask-the-wiki");
    expect(command?.name).toBe("Ask the wiki");
    expect(command?.hotkeys ?? []).toEqual([]);
    expect(harness.registered.views__.has(QUERY_VIEW_TYPE)).toBe(true);
    expect(harness.registered.ribbonActions__.length).toBe(2);
    runCommand(harness, "ask-the-wiki");
    await eventually(() => expect(harness.app.workspace.getLeavesOfType(QUERY_VIEW_TYPE)).toHaveLength(1));
    // A second time reveals the same view instead of opening another.
    await harness.plugin.openQueryView();
    expect(harness.app.workspace.getLeavesOfType(QUERY_VIEW_TYPE)).toHaveLength(1);
  });
});

describe("Ask the wiki: the view", () => {
  it("streams the answer in as Markdown, then renders it whole with its sources, passages and unverified citations", async () => {
    const provider = new GatedProvider(["Ada Lovelace wrote it ", "[[Ada Lovelace]]; see also [[Charles Darwin]]."]);
    const { view } = await open(provider);
    const asked = ask(view, QUESTION);
    // The first piece is rendered as Markdown at once, while the rest of the stream is still held back.
    await eventually(() => expect(rendered).toEqual(["Ada Lovelace wrote it "]));
    expect(provider.held).toBe(1);
    expect($(view, ".synapse-query-answer")?.textContent).toBe("Ada Lovelace wrote it ");
    // Mid-stream: Stop is offered, Ask is not.
    expect(button(view, "Stop").style.display).not.toBe("none");
    expect(button(view, "Ask").disabled).toBe(true);
    provider.release();
    await eventually(() => expect(provider.release()).toBe(true));
    const report = await asked;
    expect(report?.error).toBeNull();
    expect(rendered.at(-1)).toBe("Ada Lovelace wrote it [[Ada Lovelace]]; see also [[Charles Darwin]].");
    // One render shown at a time: each earlier one was removed with its component.
    expect($$(view, ".synapse-query-answer .synapse-query-markdown")).toHaveLength(1);
    expect($(view, ".synapse-query-answer")?.textContent).toBe(report?.answer);
    expect(children(view).filter((c) => components.includes(c))).toEqual([components.at(-1)]);
    const sources = $$(view, ".synapse-query-sources li");
    expect(sources.map((li) => li.className)).toEqual(["is-verified", "is-unverified"]);
    expect(sources[0]?.querySelector("a")?.textContent).toBe("Ada Lovelace");
    expect(sources[0]?.querySelector(".synapse-query-passage")?.textContent).toContain("wrote the first program");
    expect($(view, ".synapse-query-sources-heading")?.textContent).toBe("Sources");
    expect(sources[1]?.textContent).toMatch(/Charles Darwin — unverified: This page was not among the passages sent/);
    expect($(view, ".synapse-query-unverified-answer")).toBeNull();
    // What the model was sent: the wiki page, never the excluded folder's note.
    expect(provider.calls[0]?.context).toContain(ADA);
    // The run is over and the box emptied for the next question: Ask waits for one.
    expect(($(view, "textarea") as HTMLTextAreaElement).value).toBe("");
    expect(button(view, "Ask").disabled).toBe(true);
  });

  it("labels an answer that cites nothing verified as unverified", async () => {
    const provider = new GatedProvider(["Ada Lovelace wrote it, see [[Charles Darwin]]."]);
    const { view } = await open(provider);
    const asked = ask(view, QUESTION);
    provider.release();
    await eventually(() => expect(provider.release()).toBe(true));
    expect((await asked)?.error).toBeNull();
    expect($(view, ".synapse-query-unverified-answer")?.textContent).toMatch(/^Unverified answer: None of this answer's citations could be verified/);
  });

  it("renders a finished paragraph at once, before the next piece of the stream arrives", async () => {
    const provider = new GatedProvider(["Ada Lovelace ", "wrote the first program.\n\n", "Babbage built the engine."]);
    const { view } = await open(provider);
    const asked = ask(view, QUESTION);
    await eventually(() => expect(provider.held).toBe(1));
    provider.release();
    // However long the second piece took to come, it ends a paragraph: rendered now, the third still held.
    await eventually(() => expect(rendered.at(-1)).toBe("Ada Lovelace wrote the first program.\n\n"));
    expect(provider.held).toBe(1);
    provider.release();
    await eventually(() => expect(provider.release()).toBe(true));
    await asked;
    expect(rendered.at(-1)).toBe("Ada Lovelace wrote the first program.\n\nBabbage built the engine.");
  });

  it("unloads every answer's render component when the conversation is cleared", async () => {
    const { view, harness } = await open(new ChatProvider(["[[Ada Lovelace]] wrote it."]));
    await ask(view, QUESTION);
    await ask(view, QUESTION);
    expect(children(view).filter((c) => components.includes(c))).toHaveLength(2);
    button(view, "Clear conversation").click();
    confirmClear(harness);
    await eventually(() => expect($$(view, ".synapse-query-turn")).toHaveLength(0));
    expect(children(view).filter((c) => components.includes(c))).toEqual([]);
  });

  it("asks before clearing the conversation, and keeps it when the user says so", async () => {
    const { view, harness } = await open(new ChatProvider(["[[Ada Lovelace]] wrote it."]));
    await ask(view, QUESTION);
    button(view, "Clear conversation").click();
    expect($$(view, ".synapse-query-turn")).toHaveLength(1);
    confirmClear(harness, false);
    expect($$(view, ".synapse-query-turn")).toHaveLength(1);
    expect(await harness.plugin.query?.history()).toHaveLength(1);
  });

  it("lists each cited page once, with a short snippet of its passage", async () => {
    const { view } = await open(new ChatProvider(["[[Ada Lovelace]] wrote it, as [[Ada Lovelace]] says again."]));
    await ask(view, QUESTION);
    const sources = $$(view, ".synapse-query-sources li");
    expect(sources.map((li) => li.querySelector("a")?.textContent)).toEqual(["Ada Lovelace"]);
    expect(sources[0]?.querySelector(".synapse-query-passage")?.textContent?.length).toBeLessThanOrEqual(141);
  });

  it("cuts a long passage to a short snippet at a word, without its heading", () => {
    const passage = `## Ada Lovelace\n\n${"Ada wrote notes on the Analytical Engine that hold the first published program. ".repeat(6)}`;
    const short = snippet(passage);
    expect(short.length).toBeLessThanOrEqual(141);
    expect(short).toMatch(/^Ada wrote notes/);
    expect(short).toMatch(/[a-z]…$/);
    expect(snippet("A short passage.")).toBe("A short passage.");
  });

  it("opens a source when its link is clicked", async () => {
    const { harness, view } = await open(new ChatProvider(["[[Ada Lovelace]] did."]));
    const openLink = vi.spyOn(harness.app.workspace, "openLinkText");
    await ask(view, QUESTION);
    $(view, ".synapse-query-sources a")?.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
    expect(openLink).toHaveBeenCalledWith(ADA, "", false);
  });

  it("stops mid-stream: the answer ends where it was, 'Stopped.' says so (not as an error), and the turn is not kept", async () => {
    const provider = new GatedProvider(["Ada ", "Lovelace ", "wrote it."]);
    const { view, harness } = await open(provider);
    const asked = ask(view, QUESTION);
    await eventually(() => expect($(view, ".synapse-query-answer")?.textContent).toBe("Ada "));
    button(view, "Stop").click();
    provider.release();
    const report = await asked;
    expect(report?.error?.kind).toBe("cancelled");
    expect($(view, ".synapse-query-stopped")?.textContent).toBe("Stopped.");
    expect($(view, ".synapse-query-error")).toBeNull();
    expect(await harness.plugin.query?.history()).toEqual([]);
  });

  it("on mobile (no streaming transport) receives the answer whole, with nothing shown piece by piece", async () => {
    const provider = new GatedProvider(["Ada Lovelace ", "[[Ada Lovelace]]."]);
    const { view } = await open(provider, { streaming: false });
    const asked = ask(view, QUESTION);
    await eventually(() => expect(provider.held).toBe(1));
    // Only the waiting line until the answer arrives whole.
    expect($(view, ".synapse-query-answer")?.textContent).toBe("Searching the wiki…");
    provider.release();
    // The second piece is through; the end of the stream waits behind one more gate.
    await eventually(() => expect(provider.release()).toBe(true));
    await asked;
    expect($(view, ".synapse-query-answer")?.textContent).toBe("Ada Lovelace [[Ada Lovelace]].");
  });

  it("says 'not in your wiki' without calling the model, and offers a labelled general answer", async () => {
    const provider = new ChatProvider(["Nitrogen boils at -196 °C."]);
    const { view } = await open(provider);
    const report = await ask(view, "What is the boiling point of nitrogen?");
    expect(report?.answer).toBe(NOT_IN_WIKI);
    expect(provider.calls).toEqual([]);
    button(view, "Answer from general knowledge").click();
    await eventually(() => expect(provider.calls).toHaveLength(1));
    await eventually(() => expect(rendered.at(-1)).toMatch(/^\*\*Not from your vault\*\*/));
  });

  it("keeps the conversation for follow-ups, shows it again when the view reopens, and clears it", async () => {
    const provider = new ChatProvider(["[[Ada Lovelace]] wrote it."]);
    const { view, harness } = await open(provider);
    await ask(view, QUESTION);
    await ask(view, "And what did Ada Lovelace write about the Analytical Engine?");
    expect(provider.calls[1]?.messages.slice(0, 2)).toEqual([
      { role: "user", content: QUESTION },
      { role: "assistant", content: "[[Ada Lovelace]] wrote it." },
    ]);
    const again = await openView(harness);
    expect($$(again, ".synapse-query-turn.is-past .synapse-query-asked").map((e) => e.textContent)).toEqual([
      QUESTION,
      "And what did Ada Lovelace write about the Analytical Engine?",
    ]);
    button(again, "Clear conversation").click();
    confirmClear(harness);
    await eventually(() => expect($$(again, ".synapse-query-turn")).toHaveLength(0));
    expect(await harness.plugin.query?.history()).toEqual([]);
    await ask(again, QUESTION);
    expect(provider.calls[2]?.messages).toEqual([{ role: "user", content: QUESTION }]);
  });
});

describe("Ask the wiki: the question box", () => {
  it("is labelled, says how to send, and its Ask button is disabled while it is empty", async () => {
    const { view } = await open(new ChatProvider(["[[Ada Lovelace]] did."]));
    const box = $(view, "textarea") as HTMLTextAreaElement;
    expect(box.getAttribute("aria-label")).toBe("Question");
    expect(view.contentEl.querySelector(`label[for="${box.id}"]`)?.textContent).toBe("Question");
    expect($(view, ".synapse-query-hint")?.textContent).toMatch(/\+Enter to ask$/);
    expect(button(view, "Ask").disabled).toBe(true);
    box.value = "   ";
    box.dispatchEvent(new Event("input"));
    expect(button(view, "Ask").disabled).toBe(true);
    // An empty question asked anyway (Ctrl+Enter) is no turn, and no red error.
    expect(await view.ask(false)).toBeNull();
    expect($$(view, ".synapse-query-turn")).toEqual([]);
    box.value = QUESTION;
    box.dispatchEvent(new Event("input"));
    expect(button(view, "Ask").disabled).toBe(false);
  });

  it("links in an answer open their page; the answer is styled as rendered Markdown", async () => {
    const { view, harness } = await open(new ChatProvider(["[[Ada Lovelace]] did."]));
    // The mocks' renderer writes text; give it a link as Obsidian's renderer makes one.
    vi.spyOn(MarkdownRenderer, "render").mockImplementation((_app, _markdown: string, el: HTMLElement) => {
      el.createEl("a", { cls: "internal-link", text: "Ada Lovelace", attr: { "data-href": "Ada Lovelace", href: "Ada Lovelace" } });
      return Promise.resolve();
    });
    const openLink = vi.spyOn(harness.app.workspace, "openLinkText");
    await ask(view, QUESTION);
    expect($(view, ".synapse-query-answer")?.classList.contains("markdown-rendered")).toBe(true);
    $(view, ".synapse-query-answer a.internal-link")?.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
    expect(openLink).toHaveBeenCalledWith("Ada Lovelace", "", false);
  });
});

describe("Ask the wiki: save as page", () => {
  it("files the answer as a synthesis page through the review hook, and the undo command removes it", async () => {
    const { view, harness, reviews } = await open(new ChatProvider(["[[Ada Lovelace]] wrote the first program."]));
    await ask(view, QUESTION);
    button(view, "Save as page").click();
    const saved = "wiki/syntheses/Who wrote the first program for the Analytical Engine.md";
    await eventually(() => expect($(view, ".synapse-query-saved")?.textContent).toBe("Saved as Who wrote the first program for the Analytical Engine"));
    expect(reviews).toHaveLength(1);
    expect(reviews[0]?.changes.map((c) => [c.path, c.action, c.before])).toEqual([[saved, "created", null]]);
    // Saved once: the page is a link that opens it, and nothing offers to save the answer again.
    const openLink = vi.spyOn(harness.app.workspace, "openLinkText");
    const link = $(view, ".synapse-query-saved a.internal-link");
    expect(link?.dataset.href).toBe(saved);
    link?.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
    expect(openLink).toHaveBeenCalledWith(saved, "", false);
    expect($$(view, "button").filter((b) => b.textContent?.startsWith("Save"))).toEqual([]);
    const page = await harness.read(saved);
    expect(page).toMatch(/^---\ntype: synthesis\n/);
    expect(page).toContain(`  - ${NOTE}`);
    expect(await harness.read("wiki/log.md")).toContain(`] query | ${QUESTION}`);
    runCommand(harness, "undo-last-change");
    await eventually(() => expect(harness.app.vault.getFileByPath(saved)).toBeNull());
  });

  it("writes nothing when the review declines", async () => {
    const { view, harness, reviews } = await open(new ChatProvider(["[[Ada Lovelace]] did."]), { review: () => Promise.resolve([]) });
    await ask(view, QUESTION);
    button(view, "Save as page").click();
    await eventually(() => expect(reviews).toHaveLength(1));
    await eventually(() => expect($(view, ".synapse-query-saved")?.textContent).toBe("Not saved."));
    expect(harness.app.vault.getFiles().filter((f) => f.path.startsWith("wiki/syntheses/"))).toEqual([]);
  });
});

describe("Ask the wiki: save as page through the review modal", () => {
  const saved = "wiki/syntheses/Who wrote the first program for the Analytical Engine.md";

  it("shows the new page in the modal when review is 'always', and writes it on 'Apply 1 change'", async () => {
    const { view, harness } = await open(new ChatProvider(["[[Ada Lovelace]] wrote it."]), { review: "modal", data: { reviewMode: "always" } });
    await ask(view, QUESTION);
    button(view, "Save as page").click();
    await eventually(() => expect(harness.opened).toHaveLength(1));
    const modal = harness.opened[0];
    expect(modal?.titleEl.textContent).toBe(`Save answer: ${QUESTION}`);
    expect(modal?.contentEl.textContent).toContain(saved);
    expect(harness.app.vault.getFileByPath(saved)).toBeNull();
    [...(modal?.contentEl.querySelectorAll("button") ?? [])].find((b) => b.textContent === "Apply 1 change")?.click();
    await eventually(() => expect($(view, ".synapse-query-saved")?.textContent).toBe("Saved as Who wrote the first program for the Analytical Engine"));
    expect(await harness.read(saved)).toContain("[[Ada Lovelace]] wrote it.");
  });

  it("with the default 'changes', files a new page at once and asks before replacing a saved answer", async () => {
    const provider = new ChatProvider(["[[Ada Lovelace]] wrote it."]);
    const { view, harness } = await open(provider, { review: "modal" });
    await ask(view, QUESTION);
    button(view, "Save as page").click();
    await eventually(() => expect($(view, ".synapse-query-saved")?.textContent).toBe("Saved as Who wrote the first program for the Analytical Engine"));
    expect(harness.opened).toHaveLength(0);
    // The same question again, answered differently: saving it would change the page.
    await view.ask(false, QUESTION);
    const second = $$(view, ".synapse-query-turn").at(-1);
    [...(second?.querySelectorAll("button") ?? [])].find((b) => b.textContent === "Save with conversation")?.click();
    await eventually(() => expect(harness.opened).toHaveLength(1));
    [...(harness.opened[0]?.contentEl.querySelectorAll("button") ?? [])].find((b) => b.textContent === "Cancel")?.click();
    await eventually(() => expect(second?.querySelector(".synapse-query-saved")?.textContent).toBe("Not saved."));
    expect(await harness.read(saved)).not.toContain("## Conversation");
  });
});

describe("Ask the wiki: failures", () => {
  it("says what to do in Obsidian, never a flag or an environment variable", async () => {
    // The real provider factory, with Anthropic chosen and no key in the keychain.
    const harness = await loadPlugin({ files: FILES, data: { operations: { query: "anthropic" } } });
    const view = await openView(harness);
    await ask(view, QUESTION);
    const error = $(view, ".synapse-query-error")?.textContent ?? "";
    expect(error).toMatch(/No Anthropic API key was found; choose the secret that holds it under "API key" in API: Anthropic/);
    expect(error).not.toMatch(/ANTHROPIC_API_KEY|--[a-z]|for the CLI/);
  });
});

describe("Ask the wiki: settings", () => {
  it("keeps to the token budget: a question it cannot hold is refused in the view and nothing is sent", async () => {
    const provider = new ChatProvider(["[[Ada Lovelace]]."]);
    const { view } = await open(provider, { data: { tokenBudget: 300 } });
    const report = await ask(view, QUESTION);
    expect(report?.error?.kind).toBe("config");
    expect($(view, ".synapse-query-error")?.textContent).toMatch(/token budget of 300 \(setting "Token budget"\), so nothing was sent/);
    expect(provider.calls).toEqual([]);
  });

  it("answers from the wiki only when 'Ask from' says so: a note is never sent", async () => {
    const provider = new ChatProvider(["[[Ada Lovelace]]."]);
    const { view } = await open(provider, { data: { queryScope: "wiki" } });
    await ask(view, QUESTION);
    expect(provider.calls[0]?.context).toContain(ADA);
    expect(provider.calls[0]?.context).not.toContain(NOTE.replace(/\.md$/, "") + ".md (");
    expect(provider.calls[0]?.context).not.toContain("source note");
  });
});
