/**
 * "Ask the wiki": a side view with a question box, the answer streaming in as Markdown (rendered
 * as it arrives, paced by StreamingRender), a stop button, and
 * under each answer its sources — every passage the answer cites, as a link with the passage that
 * supported it, unverified citations marked as such. Display only: the controller does the work.
 */
import { Component, ItemView, Keymap, MarkdownRenderer, type WorkspaceLeaf } from "obsidian";
import type { AskReport } from "../query/ask";
import type { Turn } from "../query/history";
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
    bar.createEl("button", { text: "Clear conversation" }).addEventListener("click", () => void this.clear());
    this.conversationEl = root.createDiv({ cls: "synapse-query-conversation" });
    const form = root.createDiv({ cls: "synapse-query-form" });
    this.questionEl = form.createEl("textarea", { cls: "synapse-query-question", attr: { placeholder: "Ask a question about your wiki", rows: "3" } });
    this.questionEl.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && Keymap.isModEvent(event)) {
        event.preventDefault();
        void this.ask(false);
      }
    });
    const buttons = form.createDiv({ cls: "synapse-query-buttons" });
    this.askButton = buttons.createEl("button", { cls: "mod-cta", text: "Ask" });
    this.askButton.addEventListener("click", () => void this.ask(false));
    this.stopButton = buttons.createEl("button", { text: "Stop" });
    this.stopButton.hide();
    this.stopButton.addEventListener("click", () => this.running?.abort());
    for (const turn of await this.controller.history()) this.renderPastTurn(turn);
  }

  override async onClose(): Promise<void> {
    this.streaming?.stop();
    this.running?.abort();
  }

  /** Asks what is in the question box (or `question`, when given), streaming the answer in. */
  async ask(general: boolean, question = this.questionEl.value): Promise<AskReport | null> {
    if (this.running) return null;
    const turnEl = this.conversationEl.createDiv({ cls: "synapse-query-turn" });
    turnEl.createDiv({ cls: "synapse-query-asked", text: question });
    const answerEl = turnEl.createDiv({ cls: "synapse-query-answer is-streaming" });
    const running = new AbortController();
    this.running = running;
    this.setRunning(true);
    const streaming = new StreamingRender((markdown) => this.renderAnswer(answerEl, markdown));
    this.streaming = streaming;
    try {
      const report = await this.controller.ask(question, { general, signal: running.signal, onText: (text) => streaming.push(text) });
      await streaming.finish(report.answer);
      answerEl.removeClass("is-streaming");
      if (report.error) turnEl.createDiv({ cls: "synapse-query-error", text: report.error.message });
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
    const previous = this.rendered.get(answerEl);
    if (previous) {
      previous.body.remove();
      this.removeChild(previous.component);
    }
    this.rendered.set(answerEl, { body, component });
  }

  private setRunning(running: boolean): void {
    this.askButton.disabled = running;
    if (running) this.stopButton.show();
    else this.stopButton.hide();
  }

  private renderSources(turnEl: HTMLElement, report: AskReport): void {
    // An answer from the vault that cites nothing verified must not pass for a grounded one.
    if (report.unverifiedWarning) turnEl.createDiv({ cls: "synapse-query-unverified-answer", text: `Unverified answer: ${report.unverifiedWarning}` });
    if (report.citations.length === 0) return;
    const list = turnEl.createEl("ul", { cls: "synapse-query-sources" });
    for (const citation of report.citations) {
      const item = list.createEl("li", { cls: citation.verified ? "is-verified" : "is-unverified" });
      if (citation.path) {
        const path = citation.path;
        const link = item.createEl("a", { cls: "internal-link", text: citation.page, href: path });
        link.addEventListener("click", (event) => {
          event.preventDefault();
          this.controller.open(path, Keymap.isModEvent(event) !== false);
        });
      } else {
        item.createSpan({ text: citation.page });
      }
      if (!citation.verified) item.createSpan({ cls: "synapse-query-unverified", text: ` — unverified: ${citation.reason}` });
      // A page the agent read itself shows what it read, as a sent passage shows what was sent.
      const passage = report.passages.find((p) => p.path === citation.path) ?? report.consulted.find((p) => p.path === citation.path);
      if (passage && citation.verified) item.createEl("blockquote", { cls: "synapse-query-passage", text: excerpt(passage.text) });
    }
  }

  private renderActions(turnEl: HTMLElement, report: AskReport, question: string): void {
    const actions = turnEl.createDiv({ cls: "synapse-query-actions" });
    if (report.grounding === "none" && !report.error) {
      actions.createEl("button", { text: "Answer from general knowledge" }).addEventListener("click", () => void this.ask(true, question));
    }
    if (report.grounding !== "none" && !report.error) {
      const save = (withConversation: boolean) => async () => {
        let text: string;
        try {
          const saved = await this.controller.save(report, withConversation);
          text = saved ? `Saved as ${saved}` : "Not saved.";
        } catch (error) {
          // The write path rolled back whatever it started; say why in one sentence.
          text = `Could not save the answer: ${error instanceof Error ? error.message : String(error)}`;
        }
        actions.querySelector(".synapse-query-saved")?.remove();
        actions.createDiv({ cls: "synapse-query-saved", text });
      };
      actions.createEl("button", { text: "Save as page" }).addEventListener("click", () => void save(false)());
      actions.createEl("button", { text: "Save with conversation" }).addEventListener("click", () => void save(true)());
    }
  }

  private renderPastTurn(turn: Turn): void {
    const turnEl = this.conversationEl.createDiv({ cls: "synapse-query-turn is-past" });
    turnEl.createDiv({ cls: "synapse-query-asked", text: turn.question });
    const answerEl = turnEl.createDiv({ cls: "synapse-query-answer" });
    void this.renderAnswer(answerEl, turn.answer);
  }

  private async clear(): Promise<void> {
    await this.controller.clear();
    for (const { component } of this.rendered.values()) this.removeChild(component);
    this.rendered.clear();
    this.conversationEl.empty();
  }
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 280 ? `${flat.slice(0, 280)}…` : flat;
}
