/** A yes-or-no question before an action that loses something; closing the window answers no. */
import { Modal, type App } from "obsidian";

export interface ConfirmQuestion {
  readonly title: string;
  readonly text: string;
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
    const buttons = contentEl.createDiv({ cls: "modal-button-container" });
    buttons.createEl("button", { text: this.question.keep }).addEventListener("click", () => this.finish(false));
    buttons.createEl("button", { text: this.question.confirm, cls: "mod-warning" }).addEventListener("click", () => this.finish(true));
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
