/**
 * The one yes-or-no question Synapse asks before an action that loses something (clearing Ask's
 * conversation, an undo that discards edits, cancelling an ingest); closing the window answers no.
 * The questions themselves are in confirm-questions.ts.
 */
import { Modal, type App } from "obsidian";

export interface ConfirmQuestion {
  readonly title: string;
  readonly text: string;
  /** What the action touches, listed under the text (the files an undo would restore). */
  readonly list?: readonly string[];
  /** The button that goes ahead, named for what it does ("Clear"). */
  readonly confirm: string;
  /** The button that keeps everything as it is. */
  readonly keep: string;
}

export class ConfirmModal extends Modal {
  private answered = false;

  constructor(
    app: App,
    private readonly question: ConfirmQuestion,
    private readonly answer: (confirmed: boolean) => void,
  ) {
    super(app);
  }

  override onOpen(): void {
    const { contentEl } = this;
    this.setTitle(this.question.title);
    contentEl.createEl("p", { text: this.question.text });
    if (this.question.list) {
      const list = contentEl.createEl("ul", { cls: "synapse-confirm-list" });
      for (const item of this.question.list) list.createEl("li", { text: item });
    }
    const buttons = contentEl.createDiv({ cls: "modal-button-container" });
    // The action first, then the way out, as Obsidian's own "Delete file" asks.
    buttons.createEl("button", { text: this.question.confirm, cls: "mod-warning" }).addEventListener("click", () => this.finish(true));
    buttons.createEl("button", { text: this.question.keep }).addEventListener("click", () => this.finish(false));
  }

  override onClose(): void {
    this.finish(false);
    this.contentEl.empty();
  }

  private finish(confirmed: boolean): void {
    if (this.answered) return;
    this.answered = true;
    this.answer(confirmed);
    this.close();
  }
}
