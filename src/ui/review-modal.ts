/**
 * Review before apply: every change a run would make (page created, updated, merged or removed),
 * each under a compact header — checkbox, a badge for what happens, the title, +/− counts, the path
 * — with its content as a person reads it (a new page as its text, a changed one as the diff of its
 * text, Synapse's markers and ids hidden; see review-diff.ts). One "Apply N changes" button in a
 * footer that stays in view writes the checked ones; "Cancel" (or closing the window) none. Any
 * operation that writes through the one write path — ingest, query's "save as page", lint's
 * fixes — asks through `modalReviewHook`.
 */
import { Modal, type App } from "obsidian";
import type { ChangeAction } from "../write/planned-change";
import type { ReviewChange, ReviewHook, ReviewPlan, ReviewSelection } from "../wiki/review";
import { newPageText, readableChange } from "./review-diff";

export { diffLines, type DiffLine, type DiffLineKind } from "./review-diff";

const BADGES: Record<ChangeAction, string> = {
  created: "New",
  updated: "Update",
  merged: "Merge",
  removed: "Delete",
  unchanged: "Unchanged",
};

/** "Apply 3 changes"; the footer's one button. */
export function applyLabel(n: number): string {
  return `Apply ${n} change${n === 1 ? "" : "s"}`;
}

export class ReviewModal extends Modal {
  private answered = false;
  private readonly boxes = new Map<string, HTMLInputElement>();
  private readonly reasons = new Map<string, HTMLInputElement>();
  private applyButton!: HTMLButtonElement;

  constructor(
    app: App,
    private readonly plan: ReviewPlan,
    private readonly answer: (selection: ReviewSelection) => void,
  ) {
    super(app);
  }

  override onOpen(): void {
    const { contentEl, plan } = this;
    this.setTitle(plan.title ?? `Review changes from “${plan.sourceTitle}”`);
    this.modalEl.addClass("synapse-review-modal");
    contentEl.addClass("synapse-review");
    contentEl.createEl("p", {
      cls: "synapse-review-intro",
      text: plan.dryRun
        ? "This is a dry run: nothing is written, whatever you choose."
        : "Uncheck what you do not want; nothing is written until you apply.",
    });
    const list = contentEl.createDiv({ cls: "synapse-review-changes" });
    for (const change of plan.changes) this.renderChange(list, change);
    // The footer sits after the scrolling list, so it stays in view however long the diffs are.
    const footer = contentEl.createDiv({ cls: "modal-button-container synapse-review-footer" });
    this.applyButton = footer.createEl("button", { cls: "mod-cta" });
    this.applyButton.addEventListener("click", () => this.finish(this.selected(), true));
    footer.createEl("button", { text: "Cancel" }).addEventListener("click", () => this.finish([]));
    this.updateApply();
  }

  override onClose(): void {
    // Closing the window without choosing applies nothing.
    this.finish([]);
    this.contentEl.empty();
  }

  private renderChange(list: HTMLElement, change: ReviewChange): void {
    const item = list.createDiv({ cls: `synapse-review-change is-${change.action}` });
    const header = item.createEl("label", { cls: "synapse-review-header" });
    const box = header.createEl("input", { type: "checkbox", attr: { "aria-label": `Apply: ${change.title}` } });
    box.checked = true;
    box.dataset.path = change.path;
    box.addEventListener("change", () => this.updateApply());
    this.boxes.set(change.path, box);
    header.createSpan({ cls: `synapse-review-badge is-${change.action}`, text: BADGES[change.action] });
    header.createSpan({ cls: "synapse-review-title", text: change.title });
    const readable = readableChange(change);
    const counts = header.createSpan({ cls: "synapse-review-counts" });
    if (change.before !== null && change.after !== null) {
      counts.createSpan({ cls: "synapse-review-added", text: `+${readable.added}` });
      counts.createSpan({ cls: "synapse-review-removed", text: `−${readable.removed}` });
    }
    // The path, and room for one more line about the change under it (why it matched, why it was refused).
    item.createDiv({ cls: "synapse-review-path", text: change.path });
    // A page the model titled otherwise, planned onto this one: unchecking keeps them apart from now on.
    if (change.match) item.createDiv({ cls: "synapse-review-match", text: `${change.match.sentence} Uncheck to keep "${change.match.newTitle}" a page of its own.` });
    // Why a change is refused, where the caller keeps it: the next ingest of the note tells the model.
    if (this.plan.onReason && !this.plan.dryRun) {
      const reason = item.createEl("input", { type: "text", cls: "synapse-review-reason", placeholder: "Why not? (optional, remembered for the next ingest)", attr: { "aria-label": `Why not apply: ${change.title}` } });
      reason.dataset.path = change.path;
      reason.hidden = true;
      box.addEventListener("change", () => (reason.hidden = box.checked));
      this.reasons.set(change.path, reason);
    }
    if (change.after === null) return;
    if (change.before === null) {
      const details = item.createEl("details", { cls: "synapse-review-details" });
      details.createEl("summary", { text: "Show the page" });
      details.createDiv({ cls: "synapse-review-page", text: newPageText(change.after) });
      return;
    }
    if (readable.lines.length === 0) {
      item.createDiv({ cls: "synapse-review-path", text: "Only Synapse's own records of the page change." });
      return;
    }
    const diff = item.createDiv({ cls: "synapse-diff" });
    for (const line of readable.lines) diff.createDiv({ cls: `synapse-diff-line is-${line.kind}`, text: line.text });
  }

  private updateApply(): void {
    const n = this.selected().length;
    this.applyButton.setText(applyLabel(n));
    this.applyButton.disabled = n === 0;
  }

  private selected(): string[] {
    return this.plan.changes.filter((c) => this.boxes.get(c.path)?.checked === true).map((c) => c.path);
  }

  private finish(selection: ReviewSelection, withReasons = false): void {
    if (this.answered) return;
    this.answered = true;
    const chosen = new Set(selection);
    // The reasons of the changes left out by the Apply button; a cancel keeps nothing.
    if (withReasons) for (const [path, input] of this.reasons) if (!chosen.has(path) && input.value.trim()) this.plan.onReason?.(path, input.value.trim());
    this.answer(selection);
    this.close();
  }
}

/**
 * A review hook that shows the plan in the modal and resolves with what the user chose. With a
 * signal, cancelling the run (or unloading the plugin) closes the modal, applying nothing.
 */
export function modalReviewHook(app: App, signal?: AbortSignal): ReviewHook {
  return (plan) =>
    new Promise((resolve) => {
      if (signal?.aborted) return resolve([]);
      const modal = new ReviewModal(app, plan, resolve);
      signal?.addEventListener("abort", () => modal.close(), { once: true });
      modal.open();
    });
}
