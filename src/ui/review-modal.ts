/**
 * Review before apply: every change a run would make (page created, updated, merged or removed),
 * each with its unified diff as added and removed lines and a checkbox. "Apply selected" writes the
 * checked ones, "Apply all" every one, "Cancel" (or closing the window) none. Any operation that
 * writes through the one write path — ingest, query's "save as page", lint's fixes — asks through
 * `modalReviewHook`.
 */
import { Modal, type App } from "obsidian";
import type { ChangeAction } from "../wiki/planned-change";
import type { ReviewChange, ReviewHook, ReviewPlan, ReviewSelection } from "../wiki/review";

export type DiffLineKind = "added" | "removed" | "context" | "hunk" | "note";

export interface DiffLine {
  readonly kind: DiffLineKind;
  readonly text: string;
}

/** The lines of a unified diff as a person reads them; the two file header lines are dropped. */
export function diffLines(diff: string): DiffLine[] {
  const lines = diff.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const out: DiffLine[] = [];
  let inHunk = false;
  for (const line of lines) {
    if (line.startsWith("@@")) {
      inHunk = true;
      out.push({ kind: "hunk", text: line });
    } else if (!inHunk) continue; // "--- a/path" and "+++ b/path"
    else if (line.startsWith("+")) out.push({ kind: "added", text: line });
    else if (line.startsWith("-")) out.push({ kind: "removed", text: line });
    else if (line.startsWith("\\")) out.push({ kind: "note", text: line });
    else out.push({ kind: "context", text: line });
  }
  return out;
}

const ACTION_LABELS: Record<ChangeAction, string> = {
  created: "New page",
  updated: "Update",
  merged: "Merge into",
  removed: "Remove",
  unchanged: "Unchanged",
};

export function describeChange(change: ReviewChange): string {
  return `${ACTION_LABELS[change.action]}: ${change.title} (${change.type}) — ${change.path}`;
}

export class ReviewModal extends Modal {
  private answered = false;
  private readonly boxes = new Map<string, HTMLInputElement>();
  private readonly reasons = new Map<string, HTMLInputElement>();

  constructor(
    app: App,
    private readonly plan: ReviewPlan,
    private readonly answer: (selection: ReviewSelection) => void,
  ) {
    super(app);
  }

  override onOpen(): void {
    const { contentEl, plan } = this;
    const n = plan.changes.length;
    this.setTitle(plan.title ?? `Review changes from “${plan.sourceTitle}”`);
    contentEl.addClass("synapse-review");
    contentEl.createEl("p", {
      text: plan.dryRun
        ? `This is a dry run: nothing is written, whatever you choose. ${n} change${n === 1 ? "" : "s"} would be made.`
        : `${n} change${n === 1 ? "" : "s"} to the wiki. Uncheck the ones you do not want; nothing is written until you apply.`,
    });
    for (const change of plan.changes) this.renderChange(change);
    const buttons = contentEl.createDiv({ cls: "modal-button-container" });
    buttons.createEl("button", { text: "Apply selected", cls: "mod-cta" }).addEventListener("click", () => this.finish(this.selected(), true));
    buttons.createEl("button", { text: "Apply all" }).addEventListener("click", () => this.finish(plan.changes.map((c) => c.path)));
    buttons.createEl("button", { text: "Cancel" }).addEventListener("click", () => this.finish([]));
  }

  override onClose(): void {
    // Closing the window without choosing applies nothing.
    this.finish([]);
    this.contentEl.empty();
  }

  private renderChange(change: ReviewChange): void {
    const item = this.contentEl.createDiv({ cls: `synapse-review-change is-${change.action}` });
    const label = item.createEl("label", { cls: "synapse-review-label" });
    const box = label.createEl("input", { type: "checkbox" });
    box.checked = true;
    box.dataset.path = change.path;
    this.boxes.set(change.path, box);
    label.appendText(` ${describeChange(change)}`);
    // A page the model titled otherwise, planned onto this one: unchecking keeps them apart from now on.
    if (change.match) item.createDiv({ cls: "synapse-review-match", text: `${change.match.sentence} Uncheck to keep "${change.match.newTitle}" a page of its own.` });
    // Why a change is refused, where the caller keeps it: the next ingest of the note tells the model.
    if (this.plan.onReason && !this.plan.dryRun) {
      const reason = item.createEl("input", { type: "text", cls: "synapse-review-reason", placeholder: "Why not? (optional, remembered for the next ingest)" });
      reason.dataset.path = change.path;
      reason.hidden = true;
      box.addEventListener("change", () => (reason.hidden = box.checked));
      this.reasons.set(change.path, reason);
    }
    // A new page is shown whole; a changed one opens on its diff so the change itself is read first.
    const details = item.createEl("details", { cls: "synapse-review-details" });
    details.open = change.before !== null;
    details.createEl("summary", { text: change.before === null ? "Show the new page" : "Show the changes" });
    const diff = details.createDiv({ cls: "synapse-diff" });
    for (const line of diffLines(change.diff)) diff.createDiv({ cls: `synapse-diff-line is-${line.kind}`, text: line.text });
  }

  private selected(): string[] {
    return this.plan.changes.filter((c) => this.boxes.get(c.path)?.checked === true).map((c) => c.path);
  }

  private finish(selection: ReviewSelection, withReasons = false): void {
    if (this.answered) return;
    this.answered = true;
    const chosen = new Set(selection);
    // The reasons of the changes left out by "Apply selected"; a cancel keeps nothing.
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
