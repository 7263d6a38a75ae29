/** Asks before an undo would discard edits the user made after the run: lists the files, never decides alone. */
import { Modal, type App } from "obsidian";

export class UndoConfirmModal extends Modal {
  private answered = false;

  constructor(
    app: App,
    private readonly what: string,
    private readonly files: readonly string[],
    private readonly answer: (undo: boolean) => void,
  ) {
    super(app);
  }

  override onOpen(): void {
    const { contentEl } = this;
    this.setTitle("Undo and lose your edits?");
    contentEl.createEl("p", { text: `You edited these files after ${this.what}. Undoing restores them as they were before it, and your edits to them are lost:` });
    const list = contentEl.createEl("ul", { cls: "synapse-undo-files" });
    for (const file of this.files) list.createEl("li", { text: file });
    const buttons = contentEl.createDiv({ cls: "modal-button-container" });
    buttons.createEl("button", { text: "Keep everything" }).addEventListener("click", () => this.finish(false));
    buttons.createEl("button", { text: "Undo anyway", cls: "mod-warning" }).addEventListener("click", () => this.finish(true));
  }

  override onClose(): void {
    // Closing the window without choosing keeps everything.
    this.finish(false);
    this.contentEl.empty();
  }

  private finish(undo: boolean): void {
    if (this.answered) return;
    this.answered = true;
    this.answer(undo);
    this.close();
  }
}
