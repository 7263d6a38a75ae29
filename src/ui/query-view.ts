/**
 * "Ask the wiki": a side view with a question box, the answer streaming in as Markdown (rendered
 * as it arrives, paced by StreamingRender), a stop button, and
 * under each answer its sources, under a "Sources" label — each cited page once, as a link with a
 * short snippet of the passage that supported it, unverified citations marked as such. Clearing the
 * conversation asks first. Display only: the controller does the work.
 */
import { Component, ItemView, Keymap, MarkdownRenderer, Platform, type HoverPopover, type WorkspaceLeaf } from "obsidian";
import { messageOn } from "../core/errors";
import type { AskReport } from "../query/ask";
import type { Turn } from "../query/history";
import { ConfirmModal } from "./confirm-modal";
import { renderPageLink, type PageLinkHost } from "./page-link";
import { CLEAR_CONVERSATION } from "./confirm-questions";
import { StreamingRender } from "./streaming-render";

export const QUERY_VIEW_TYPE = "synapse-query";

export interface QueryController {
  ask(question: string, options: { general: boolean; signal: AbortSignal; onText: (text: string) => void }): Promise<AskReport>;
  /** Files the answer as a synthesis page through review; the saved path, or null when nothing was written. */
  save(report: AskReport, withConversation: boolean): Promise<string | null>;
  history(): Promise<Turn[]>;
  clear(): Promise<void>;
  open(path: string, newLeaf: boolean): void;
}

export class QueryView extends ItemView {
  /** The page preview open over one of this view's links (HoverParent). */
  hoverPopover: HoverPopover | null = null;
  private running: AbortController | null = null;
  private streaming: StreamingRender | null = null;
  /** Each answer's current render and the component it registered with, unloaded when replaced or cleared. */
  private readonly rendered = new Map<HTMLElement, { readonly body: HTMLElement; readonly component: Component }>();
  private conversationEl!: HTMLElement;
  private questionEl!: HTMLTextAreaElement;
  private askButton!: HTMLButtonElement;
  private stopButton!: HTMLButtonElement;

  constructor(
    leaf: WorkspaceLeaf,
    private readonly controller: QueryController,
  ) {
    super(leaf);
  }

  getViewType(): string {
    return QUERY_VIEW_TYPE;
  }

  getDisplayText(): string {
    return "Ask the wiki";
  }

  override getIcon(): string {
    return "message-circle-question";
  }

  override async onOpen(): Promise<void> {
    const root = this.contentEl;
    root.empty();
    root.addClass("synapse-query");
    const bar = root.createDiv({ cls: "synapse-query-bar" });
    bar.createEl("button", { cls: "synapse-query-clear", text: "Clear conversation" }).addEventListener("click", () => this.confirmClear());
    this.conversationEl = root.createDiv({ cls: "synapse-query-conversation" });
    // Shown while the conversation is empty (styles.css), as Obsidian's side views say what they hold.
    root.createDiv({ cls: "synapse-query-empty", text: "Ask about your wiki: answers come from its pages and name the ones they use." });
    const form = root.createDiv({ cls: "synapse-query-form" });
    form.createEl("label", { cls: "synapse-query-label", text: "Question", attr: { for: "synapse-query-question" } });
    this.questionEl = form.createEl("textarea", {
      cls: "synapse-query-question",
      attr: { id: "synapse-query-question", placeholder: "Ask a question about your wiki", rows: "3", "aria-label": "Question" },
    });
    this.questionEl.addEventListener("input", () => this.setRunning(this.running !== null));
    this.questionEl.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && Keymap.isModEvent(event)) {
        event.preventDefault();
        void this.ask(false);
      }
    });
    const buttons = form.createDiv({ cls: "synapse-query-buttons" });
    this.askButton = buttons.createEl("button", { cls: "mod-cta", text: "Ask" });
    this.askButton.addEventListener("click", () => void this.ask(false));
    // Beside Ask, where the eye is after asking.
    this.stopButton = buttons.createEl("button", { text: "Stop" });
    this.stopButton.hide();
    this.stopButton.addEventListener("click", () => this.running?.abort());
    // Enter makes a new line in the box, so the way to send is said where it is needed.
    buttons.createSpan({ cls: "synapse-query-hint", text: Platform.isMacOS ? "⌘+Enter to ask" : "Ctrl+Enter to ask" });
    this.setRunning(false);
    for (const turn of await this.controller.history()) this.renderPastTurn(turn);
    this.questionEl.focus();
  }

  override async onClose(): Promise<void> {
    this.streaming?.stop();
    this.running?.abort();
  }

  /** Asks what is in the question box (or `question`, when given), streaming the answer in. */
  async ask(general: boolean, question = this.questionEl.value): Promise<AskReport | null> {
    // An empty question is not a turn: the button is disabled until there is one.
    if (this.running || question.trim() === "") return null;
    const turnEl = this.conversationEl.createDiv({ cls: "synapse-query-turn" });
    turnEl.createDiv({ cls: "synapse-query-asked", text: question });
    const answerEl = turnEl.createDiv({ cls: "synapse-query-answer markdown-rendered is-streaming" });
    // Shown until the first words arrive (the first render replaces it).
    answerEl.createDiv({ cls: "synapse-query-waiting", text: "Searching the wiki…" });
    turnEl.scrollIntoView({ block: "start" });
    const running = new AbortController();
    this.running = running;
    this.setRunning(true);
    const streaming = new StreamingRender((markdown) => this.renderAnswer(answerEl, markdown));
    this.streaming = streaming;
    try {
      const report = await this.controller.ask(question, { general, signal: running.signal, onText: (text) => streaming.push(text) });
      await streaming.finish(report.answer);
      answerEl.removeClass("is-streaming");
      answerEl.querySelector(".synapse-query-waiting")?.remove();
      // Stopping is the user's own choice, not a failure: said plainly, not in red.
      if (report.error?.kind === "cancelled") turnEl.createDiv({ cls: "synapse-query-stopped", text: "Stopped." });
      else if (report.error) turnEl.createDiv({ cls: "synapse-query-error", text: messageOn(report.error, "plugin") });
      else this.questionEl.value = "";
      this.renderSources(turnEl, report);
      this.renderActions(turnEl, report, question);
      return report;
    } finally {
      streaming.stop();
      this.streaming = null;
      this.running = null;
      this.setRunning(false);
    }
  }

  /**
   * Renders `markdown` as the answer in `answerEl`, replacing the previous render only once the new
   * one is ready (no flash of an empty answer) and unloading the component the previous one used.
   */
  private async renderAnswer(answerEl: HTMLElement, markdown: string): Promise<void> {
    const component = this.addChild(new Component());
    const body = answerEl.createDiv({ cls: "synapse-query-markdown" });
    try {
      await MarkdownRenderer.render(this.app, markdown, body, "", component);
    } catch (error) {
      body.remove();
      this.removeChild(component);
      throw error;
    }
    this.linkInternal(body);
    answerEl.querySelector(".synapse-query-waiting")?.remove();
    const previous = this.rendered.get(answerEl);
    if (previous) {
      previous.body.remove();
      this.removeChild(previous.component);
    }
    this.rendered.set(answerEl, { body, component });
  }

  /** Links in this view behave like Obsidian's own: a click opens, Ctrl/Cmd-click in a new tab, hovering previews. */
  private linkHost(): PageLinkHost {
    return { app: this.app, hoverParent: this, source: QUERY_VIEW_TYPE, open: (path, newLeaf) => this.controller.open(path, newLeaf !== false) };
  }

  /** The answer's `[[links]]` open their page, in a new tab with Ctrl/Cmd, and preview on hover, as links in a note do. */
  private linkInternal(body: HTMLElement): void {
    const host = this.linkHost();
    for (const link of Array.from(body.querySelectorAll<HTMLAnchorElement>("a.internal-link"))) {
      const target = link.dataset.href ?? link.getAttribute("href") ?? "";
      if (target === "") continue;
      link.addEventListener("click", (event) => {
        event.preventDefault();
        host.open(target, Keymap.isModEvent(event));
      });
      link.addEventListener("mouseover", (event) => {
        this.app.workspace.trigger("hover-link", { event, source: QUERY_VIEW_TYPE, hoverParent: this, targetEl: link, linktext: target, sourcePath: "" });
      });
    }
  }

  private setRunning(running: boolean): void {
    this.askButton.disabled = running || this.questionEl.value.trim() === "";
    if (running) this.stopButton.show();
    else this.stopButton.hide();
  }

  private renderSources(turnEl: HTMLElement, report: AskReport): void {
    // An answer from the vault that cites nothing verified must not pass for a grounded one.
    if (report.unverifiedWarning) turnEl.createDiv({ cls: "synapse-query-unverified-answer", text: `Unverified answer: ${report.unverifiedWarning}` });
    if (report.citations.length === 0) return;
    turnEl.createDiv({ cls: "synapse-query-sources-heading", text: "Sources" });
    const list = turnEl.createEl("ul", { cls: "synapse-query-sources", attr: { "aria-label": "Sources" } });
    for (const citation of report.citations) {
      const item = list.createEl("li", { cls: citation.verified ? "is-verified" : "is-unverified" });
      if (citation.path) renderPageLink(item, citation.path, true, this.linkHost()).setText(citation.page);
      else item.createSpan({ text: citation.page });
      if (!citation.verified) item.createSpan({ cls: "synapse-query-unverified", text: ` — unverified: ${citation.reason}` });
      // A page the agent read itself shows what it read, as a sent passage shows what was sent.
      const passage = report.passages.find((p) => p.path === citation.path) ?? report.consulted.find((p) => p.path === citation.path);
      if (passage && citation.verified) item.createDiv({ cls: "synapse-query-passage", text: snippet(passage.text) });
    }
  }

  private renderActions(turnEl: HTMLElement, report: AskReport, question: string): void {
    const actions = turnEl.createDiv({ cls: "synapse-query-actions" });
    if (report.grounding === "none" && !report.error) {
      actions.createEl("button", { text: "Answer from general knowledge" }).addEventListener("click", () => void this.ask(true, question));
    }
    // Only an answer from the wiki is filed in it; a general-knowledge one is not the wiki's to keep.
    if (report.grounding === "vault" && !report.error) {
      const buttons: HTMLButtonElement[] = [];
      const save = async (withConversation: boolean) => {
        for (const b of buttons) b.disabled = true;
        turnEl.querySelector(".synapse-query-saved")?.remove();
        const status = turnEl.createDiv({ cls: "synapse-query-saved", text: "Saving…" });
        try {
          const saved = await this.controller.save(report, withConversation);
          if (saved) {
            // Saved once: the buttons go, so the answer cannot be filed twice; the page is a link.
            actions.remove();
            status.setText("Saved as ");
            renderPageLink(status, saved, true, this.linkHost());
            return;
          }
          status.setText("Not saved.");
        } catch (error) {
          // The write path rolled back whatever it started; say why in one sentence.
          status.addClass("is-error");
          status.setText(`Could not save the answer: ${messageOn(error, "plugin")}`);
        }
        for (const b of buttons) b.disabled = false;
      };
      buttons.push(actions.createEl("button", { text: "Save as page" }));
      buttons.push(actions.createEl("button", { text: "Save with conversation" }));
      buttons[0]?.addEventListener("click", () => void save(false));
      buttons[1]?.addEventListener("click", () => void save(true));
    }
  }

  private renderPastTurn(turn: Turn): void {
    const turnEl = this.conversationEl.createDiv({ cls: "synapse-query-turn is-past" });
    turnEl.createDiv({ cls: "synapse-query-asked", text: turn.question });
    const answerEl = turnEl.createDiv({ cls: "synapse-query-answer markdown-rendered" });
    void this.renderAnswer(answerEl, turn.answer);
  }

  /** A conversation is gone once cleared, so the button asks first (an empty one has nothing to lose). */
  private confirmClear(): void {
    if (this.conversationEl.childElementCount === 0) {
      void this.clear();
      return;
    }
    new ConfirmModal(this.app, CLEAR_CONVERSATION, (confirmed) => {
      if (confirmed) void this.clear();
    }).open();
  }

  private async clear(): Promise<void> {
    await this.controller.clear();
    for (const { component } of this.rendered.values()) this.removeChild(component);
    this.rendered.clear();
    this.conversationEl.empty();
  }
}

/** The most a source's snippet shows: a line or two, enough to recognise the passage, not the whole of it. */
const SNIPPET_CHARS = 140;

/**
 * A passage as one short line, read as text: list marks, emphasis and `[[links]]` flattened, cut at
 * a word. Headings are left out — the page's title is the link above the snippet, and "Summary"
 * glued to the sentence after it read as one run-on line — unless the passage has nothing else.
 */
export function snippet(text: string): string {
  const body = text.replace(/^\s*#+\s+.*$/gm, "");
  const flat = (body.trim() ? body : text)
    .replace(/^\s*(?:#+|[-*+]|\d+\.)\s+/gm, "")
    .replace(/\[\[(?:[^\]|]*\|)?([^\]]*)\]\]/g, "$1")
    .replace(/\*\*|__/g, "")
    .replace(/\s+/g, " ")
    .trim();
  if (flat.length <= SNIPPET_CHARS) return flat;
  const cut = flat.slice(0, SNIPPET_CHARS);
  const space = cut.lastIndexOf(" ");
  return `${(space > SNIPPET_CHARS / 2 ? cut.slice(0, space) : cut).replace(/[\s.,;:]+$/, "")}…`;
}
