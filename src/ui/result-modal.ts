/**
 * The pages an ingest created or updated, as links that open them; then what failed, what it
 * cost, and the run log (provider calls; with prompts and replies when the user opted in).
 */
import { Keymap, Modal, type App } from "obsidian";
import type { ResultListing } from "../obsidian/outcome";

export class ResultModal extends Modal {
  constructor(
    app: App,
    private readonly listing: ResultListing,
  ) {
    super(app);
  }

  override onOpen(): void {
    const { contentEl, listing } = this;
    this.setTitle(listing.title);
    contentEl.addClass("synapse-result");
    if (listing.groups.length === 0 && listing.failures.length === 0) {
      contentEl.createEl("p", { text: "No pages were written." });
    }
    for (const group of listing.groups) {
      contentEl.createDiv({ cls: "synapse-result-heading", text: group.heading });
      const list = contentEl.createEl("ul", { cls: "synapse-result-pages" });
      for (const page of group.pages) {
        const item = list.createEl("li");
        const link = item.createEl("a", { cls: "internal-link", text: page.title, href: page.path });
        link.dataset.href = page.path;
        link.addEventListener("click", (event) => {
          event.preventDefault();
          void this.app.workspace.openLinkText(page.path, "", Keymap.isModEvent(event));
          this.close();
        });
        item.createSpan({ cls: "synapse-result-type", text: ` ${page.type}` });
      }
    }
    this.pathNotes("Contradictions between notes", listing.contradictions);
    this.pathNotes("Notes on pages", listing.details);
    if (listing.locked.length > 0) {
      contentEl.createDiv({ cls: "synapse-result-heading", text: `Locked pages left alone (${listing.locked.length})` });
      for (const page of listing.locked) {
        const details = contentEl.createEl("details", { cls: "synapse-result-locked" });
        details.createEl("summary", { text: `${page.title}: what Synapse would have added` });
        details.createEl("pre", { text: page.wouldAdd });
      }
    }
    if (listing.failures.length > 0) {
      contentEl.createDiv({ cls: "synapse-result-heading", text: `Not ingested (${listing.failures.length})` });
      const list = contentEl.createEl("ul", { cls: "synapse-result-failures" });
      for (const failure of listing.failures) {
        const item = list.createEl("li", { text: failure.message });
        if (failure.issues.length > 0) {
          const issues = item.createEl("ul");
          for (const issue of failure.issues) issues.createEl("li", { text: issue });
        }
      }
    }
    if (listing.summary.length > 0) {
      const summary = contentEl.createDiv({ cls: "synapse-result-summary" });
      for (const line of listing.summary) summary.createDiv({ text: line });
    }
    if (listing.calls.length > 0 || listing.context.length > 0) {
      const details = contentEl.createEl("details", { cls: "synapse-result-log" });
      const calls = listing.calls.length;
      details.createEl("summary", { text: calls === 0 ? "Run log" : `Run log (${calls} provider ${calls === 1 ? "call" : "calls"})` });
      for (const line of listing.context) details.createDiv({ cls: "synapse-result-call", text: line });
      for (const call of listing.calls) {
        details.createDiv({ cls: "synapse-result-call", text: call.line });
        if (call.prompt !== undefined) details.createEl("pre", { text: `Sent:\n${call.prompt}` });
        if (call.reply !== undefined) details.createEl("pre", { text: `Received:\n${call.reply}` });
      }
    }
  }

  private pathNotes(heading: string, notes: readonly { readonly path: string; readonly text: string }[]): void {
    if (notes.length === 0) return;
    this.contentEl.createDiv({ cls: "synapse-result-heading", text: `${heading} (${notes.length})` });
    const list = this.contentEl.createEl("ul", { cls: "synapse-result-notes" });
    for (const note of notes) {
      const item = list.createEl("li");
      item.createEl("strong", { text: note.path.slice(note.path.lastIndexOf("/") + 1).replace(/\.md$/i, "") });
      item.createSpan({ text: `: ${note.text}` });
    }
  }

  override onClose(): void {
    this.contentEl.empty();
  }
}
