/**
 * The notes whose last ingest failed, each with its reason, the time in the user's own clock, and
 * its own Retry / Open note / Dismiss; "Retry all" below retries what is still listed.
 */
import { Keymap, Modal, Setting, type App } from "obsidian";
import type { FailedNote } from "../obsidian/ingest-queue-store";
import { pageTitle } from "./page-link";

export interface FailedIngestActions {
  retryAll(): void;
  retry(notePath: string): void;
  open(notePath: string, newLeaf: boolean): void;
  dismiss(notePath: string): void;
}

/** "2026-12-02T04:10:00.000Z" in the user's locale and time zone; a broken stamp is shown as it is. */
export function localTime(at: string): string {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? at : date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

export class FailedIngestsModal extends Modal {
  private readonly listed: FailedNote[];

  constructor(
    app: App,
    failed: readonly FailedNote[],
    private readonly actions: FailedIngestActions,
  ) {
    super(app);
    this.listed = [...failed];
  }

  override onOpen(): void {
    this.render();
  }

  override onClose(): void {
    this.contentEl.empty();
  }

  private render(): void {
    const { contentEl } = this;
    contentEl.empty();
    this.setTitle(`Failed ingests (${this.listed.length})`);
    if (this.listed.length === 0) {
      contentEl.createEl("p", { text: "No failed ingests left." });
    }
    const list = contentEl.createDiv({ cls: "synapse-failed-ingests" });
    for (const note of this.listed) this.renderNote(list, note);
    const buttons = contentEl.createDiv({ cls: "modal-button-container" });
    if (this.listed.length > 0) {
      buttons.createEl("button", { text: "Retry all", cls: "mod-cta" }).addEventListener("click", () => {
        this.close();
        this.actions.retryAll();
      });
    }
    buttons.createEl("button", { text: "Close" }).addEventListener("click", () => this.close());
  }

  private renderNote(list: HTMLElement, note: FailedNote): void {
    // Named as Obsidian names a file, with its folder under it: two notes may share a name.
    const row = new Setting(list).setName(pageTitle(note.notePath));
    row.settingEl.addClass("synapse-failed-note");
    row.descEl.createDiv({ cls: "synapse-failed-reason", text: note.reason });
    row.descEl.createDiv({ cls: "synapse-result-type", text: `${note.notePath} · Failed ${localTime(note.at)}` });
    // Plain buttons with their own listeners, as the modal's footer has.
    const button = (text: string, run: (event: MouseEvent) => void) => row.controlEl.createEl("button", { text }).addEventListener("click", run);
    button("Retry", () => {
      this.close();
      this.actions.retry(note.notePath);
    });
    button("Open note", (event) => {
      this.close();
      this.actions.open(note.notePath, Keymap.isModEvent(event) !== false);
    });
    button("Dismiss", () => {
      this.actions.dismiss(note.notePath);
      this.listed.splice(this.listed.indexOf(note), 1);
      this.render();
    });
  }
}
