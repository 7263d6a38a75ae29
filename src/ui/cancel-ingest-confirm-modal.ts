/** Asks before the status bar's click stops the running ingest, so one stray click loses no run. */
import { Modal, type App } from "obsidian";

export class CancelIngestConfirmModal extends Modal {
  private answered = false;

  constructor(
    app: App,
    /** The note being ingested, as the user knows it. */
    private readonly label: string,
    /** How many notes of the batch wait behind it; they are dropped too. */
    private readonly queued: number,
    private readonly answer: (cancel: boolean) => void,
  ) {
    super(app);
  }

  override onOpen(): void {
    const { contentEl } = this;
    this.setTitle("Cancel the ingest?");
    const waiting = this.queued === 0 ? "" : ` The ${this.queued === 1 ? "note" : `${this.queued} notes`} waiting after it will not be ingested.`;
    contentEl.createEl("p", { text: `Synapse stops ingesting "${this.label}".${waiting}` });
    const buttons = contentEl.createDiv({ cls: "modal-button-container" });
    buttons.createEl("button", { text: "Keep going" }).addEventListener("click", () => this.finish(false));
    buttons.createEl("button", { text: "Cancel ingest", cls: "mod-warning" }).addEventListener("click", () => this.finish(true));
  }

  override onClose(): void {
    // Closing the window without choosing lets the ingest run on.
    this.finish(false);
    this.contentEl.empty();
  }

  private finish(cancel: boolean): void {
    if (this.answered) return;
    this.answered = true;
    this.answer(cancel);
    this.close();
  }
}
