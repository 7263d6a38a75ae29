/** The notes whose last ingest failed, each with its reason, and one button that retries them all. */
import { Modal, type App } from "obsidian";
import type { FailedNote } from "../obsidian/ingest-queue-store";

export class FailedIngestsModal extends Modal {
  constructor(
    app: App,
    private readonly failed: readonly FailedNote[],
    private readonly retry: () => void,
  ) {
    super(app);
  }

  override onOpen(): void {
    const { contentEl } = this;
    this.setTitle(`Failed ingests (${this.failed.length})`);
    const list = contentEl.createEl("ul", { cls: "synapse-failed-ingests" });
    for (const note of this.failed) {
      const item = list.createEl("li");
      item.createEl("strong", { text: note.notePath });
      item.createDiv({ cls: "synapse-failed-reason", text: note.reason });
      item.createDiv({ cls: "synapse-result-type", text: `Failed ${note.at.slice(0, 16).replace("T", " ")} UTC` });
    }
    const buttons = contentEl.createDiv({ cls: "modal-button-container" });
    buttons.createEl("button", { text: "Retry all", cls: "mod-cta" }).addEventListener("click", () => {
      this.close();
      this.retry();
    });
    buttons.createEl("button", { text: "Close" }).addEventListener("click", () => this.close());
  }

  override onClose(): void {
    this.contentEl.empty();
  }
}
