/**
 * The one question Synapse asks before an action that loses something (clearing Ask's
 * conversation, an undo that discards edits, cancelling an ingest) or that chooses between two
 * ways of doing it (a folder ingested now or sent as a batch); closing the window answers no and
 * does nothing. The questions themselves are in confirm-questions.ts.
 */
import { Modal, type App } from "obsidian";

export interface ConfirmQuestion {
  readonly title: string;
  readonly text: string;
  /** What the action touches, listed under the text (the files an undo would restore). */
  readonly list?: readonly string[];
  /** The button that goes ahead, named for what it does ("Clear"). */
  readonly confirm: string;
  /** A second way to go ahead, offered after the first ("Ingest now"): answered as "alternative". */
  readonly alternative?: string;
  /** The button that keeps everything as it is. */
  readonly keep: string;
  /**
   * "warning" (the default) for an action that loses something; "choice" when nothing is lost
   * either way, so the first button is the call to action rather than a warning.
   */
  readonly tone?: "warning" | "choice";
}

/** Which button answered: the action, the alternative, or keep (also when the window was closed). */
export type ConfirmAnswer = "confirm" | "alternative" | "keep";

export class ConfirmModal extends Modal {
  private answered = false;

  constructor(
    app: App,
    private readonly question: ConfirmQuestion,
    private readonly answer: (confirmed: boolean, answer: ConfirmAnswer) => void,
  ) {
    super(app);
  }

  /** Asks and resolves with the button that answered. */
  static ask(app: App, question: ConfirmQuestion): Promise<ConfirmAnswer> {
    return new Promise((resolve) => new ConfirmModal(app, question, (_confirmed, answer) => resolve(answer)).open());
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
    const cls = this.question.tone === "choice" ? "mod-cta" : "mod-warning";
    buttons.createEl("button", { text: this.question.confirm, cls }).addEventListener("click", () => this.finish("confirm"));
    const { alternative } = this.question;
    if (alternative) buttons.createEl("button", { text: alternative }).addEventListener("click", () => this.finish("alternative"));
    buttons.createEl("button", { text: this.question.keep }).addEventListener("click", () => this.finish("keep"));
  }

  override onClose(): void {
    this.finish("keep");
    this.contentEl.empty();
  }

  private finish(answer: ConfirmAnswer): void {
    if (this.answered) return;
    this.answered = true;
    this.answer(answer === "confirm", answer);
    this.close();
  }
}
