/**
 * "Check wiki health": a view with the lint report grouped by check, with counts; each finding
 * links to its page and offers its fixes (each one goes through the review step before anything is
 * written); "Fix all safe"; the model checks behind a toggle, with their estimate shown and
 * confirmed before any call; progress and cancel. Display only: the controller does the work.
 */
import { ItemView, type WorkspaceLeaf } from "obsidian";
import { estimateLine, spentLine } from "../lint/estimate-text";
import type { ModelCheckEstimate } from "../lint/model-checks";
import type { LintReport } from "../lint/run-lint";
import { CHECKS, type Check, type Finding, type Fix } from "../lint/types";

export const LINT_VIEW_TYPE = "synapse-lint";

export interface LintRun {
  readonly modelChecks: boolean;
  readonly signal: AbortSignal;
  /** Shows the estimate; resolves true to run the model checks, false to skip them. */
  confirm(estimate: ModelCheckEstimate): Promise<boolean>;
  progress(done: number, total: number): void;
}

export interface LintController {
  check(run: LintRun): Promise<LintReport>;
  /** "Fix all safe": every safe fix, through review; the report after them. */
  fixAllSafe(): Promise<LintReport>;
  /** One fix of one finding, through review; how many files it changed, and what it spent (a re-ingest calls the model). */
  applyFix(finding: Finding, fix: Fix): Promise<{ readonly written: number; readonly usage: LintReport["usage"] }>;
  open(path: string): void;
}

const CHECK_NAMES: Record<Check, string> = {
  "dangling-link": "Dangling links",
  orphan: "Orphan pages",
  "missing-sources": "Pages without sources",
  "missing-source-note": "Sources that no longer exist",
  stale: "Stale pages",
  duplicate: "Duplicates",
  index: "Index",
  "invalid-frontmatter": "Invalid frontmatter",
  "empty-page": "Empty pages",
  "wrong-folder": "Pages outside their folder",
  contradiction: "Contradictions",
  "interrupted-run": "Runs interrupted on other devices",
};

export class LintView extends ItemView {
  private running: AbortController | null = null;
  private pendingConfirm: ((go: boolean) => void) | null = null;
  private statusEl!: HTMLElement;
  private estimateEl!: HTMLElement;
  private reportEl!: HTMLElement;
  private modelBox!: HTMLInputElement;
  private checkButton!: HTMLButtonElement;
  private fixButton!: HTMLButtonElement;
  private cancelButton!: HTMLButtonElement;

  constructor(
    leaf: WorkspaceLeaf,
    private readonly controller: LintController,
  ) {
    super(leaf);
  }

  getViewType(): string {
    return LINT_VIEW_TYPE;
  }

  getDisplayText(): string {
    return "Wiki health";
  }

  override getIcon(): string {
    return "stethoscope";
  }

  override async onOpen(): Promise<void> {
    const root = this.contentEl;
    root.empty();
    root.addClass("synapse-lint");
    const bar = root.createDiv({ cls: "synapse-lint-bar" });
    this.checkButton = bar.createEl("button", { text: "Check again" });
    this.checkButton.addEventListener("click", () => void this.check());
    const label = bar.createEl("label", { cls: "synapse-lint-model" });
    this.modelBox = label.createEl("input", { type: "checkbox" });
    label.appendText(" Model checks");
    this.fixButton = bar.createEl("button", { text: "Fix all safe" });
    this.fixButton.addEventListener("click", () => void this.fixAllSafe());
    this.cancelButton = bar.createEl("button", { text: "Cancel" });
    this.cancelButton.addEventListener("click", () => this.cancel());
    this.cancelButton.hide();
    this.statusEl = root.createDiv({ cls: "synapse-lint-status" });
    this.estimateEl = root.createDiv({ cls: "synapse-lint-estimate" });
    this.reportEl = root.createDiv({ cls: "synapse-lint-report" });
    await Promise.resolve();
  }

  override async onClose(): Promise<void> {
    this.cancel();
    await Promise.resolve();
  }

  /** Stops the run: the model checks, or the exact checks' comparison of every page's words. */
  cancel(): void {
    this.pendingConfirm?.(false);
    this.running?.abort();
  }

  private busy(text: string | null): AbortController | null {
    if (text === null) {
      this.running = null;
      this.cancelButton.hide();
      this.checkButton.disabled = false;
      this.fixButton.disabled = false;
      return null;
    }
    this.running = new AbortController();
    this.statusEl.setText(text);
    this.cancelButton.show();
    this.checkButton.disabled = true;
    this.fixButton.disabled = true;
    return this.running;
  }

  /** Runs the checks and shows the report; the model checks only when the toggle is on. */
  async check(modelChecks = this.modelBox.checked): Promise<LintReport | null> {
    if (this.running) return null;
    const controller = this.busy("Checking the wiki…");
    if (!controller) return null;
    try {
      const report = await this.controller.check({
        modelChecks,
        signal: controller.signal,
        confirm: (estimate) => this.confirm(estimate),
        progress: (done, total) => this.statusEl.setText(`Model checks: ${done} of ${total} pairs…`),
      });
      this.show(report);
      return report;
    } finally {
      this.estimateEl.empty();
      this.busy(null);
    }
  }

  private confirm(estimate: ModelCheckEstimate): Promise<boolean> {
    this.estimateEl.empty();
    this.estimateEl.createDiv({ text: estimateLine(estimate) });
    if (estimate.toCheck === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const answer = (go: boolean) => {
        this.pendingConfirm = null;
        this.estimateEl.empty();
        resolve(go);
      };
      this.pendingConfirm = answer;
      this.estimateEl.createEl("button", { text: "Run the model checks", cls: "mod-cta" }).addEventListener("click", () => answer(true));
      this.estimateEl.createEl("button", { text: "Skip them" }).addEventListener("click", () => answer(false));
    });
  }

  async fixAllSafe(): Promise<LintReport | null> {
    if (this.running) return null;
    if (!this.busy("Fixing…")) return null;
    try {
      const report = await this.controller.fixAllSafe();
      this.show(report, report.fixed.length > 0 ? `Fixed ${report.fixed.length}. ` : "");
      return report;
    } finally {
      this.busy(null);
    }
  }

  private async applyFix(finding: Finding, fix: Fix): Promise<void> {
    if (this.running) return;
    this.busy(`${fix.label}…`);
    let done = "";
    try {
      const { written, usage } = await this.controller.applyFix(finding, fix);
      const spent = spentLine(usage);
      done = `${written > 0 ? `Done: ${fix.label}.` : "Nothing was written."} ${spent ? `${spent} ` : ""}`;
    } catch (error) {
      done = `Could not apply the fix: ${error instanceof Error ? error.message : String(error)} `;
    } finally {
      this.busy(null);
    }
    const report = await this.check(false);
    if (report) this.statusEl.setText(`${done}${this.statusEl.getText()}`);
  }

  private show(report: LintReport, prefix = ""): void {
    this.reportEl.empty();
    if (report.error) this.reportEl.createDiv({ cls: "synapse-lint-error", text: `${report.error.message}` });
    const n = report.findings.length;
    const model = report.modelChecks ? ` Model checks: ${report.modelChecks.checked} pair(s) checked, ${report.modelChecks.cached} from the cache.` : "";
    const spent = spentLine(report.usage);
    this.statusEl.setText(`${prefix}${report.pages} page(s) checked: ${n === 0 ? "no findings" : `${n} finding(s)`}.${model}${spent ? ` ${spent}` : ""}`);
    for (const check of CHECKS) {
      const findings = report.findings.filter((f) => f.check === check);
      if (findings.length === 0) continue;
      const group = this.reportEl.createDiv({ cls: "synapse-lint-group", attr: { "data-check": check } });
      group.createEl("h4", { text: `${CHECK_NAMES[check]} (${findings.length})` });
      const list = group.createEl("ul");
      for (const finding of findings) this.showFinding(list.createEl("li", { cls: "synapse-lint-finding" }), finding);
    }
  }

  private showFinding(item: HTMLElement, finding: Finding): void {
    const link = item.createEl("a", { text: finding.page, cls: "internal-link", href: "#" });
    link.addEventListener("click", (event) => {
      event.preventDefault();
      this.controller.open(finding.page);
    });
    item.createDiv({ cls: "synapse-lint-message", text: finding.message });
    if (finding.fixes.length === 0) return;
    const fixes = item.createDiv({ cls: "synapse-lint-fixes" });
    for (const fix of finding.fixes) {
      const button = fixes.createEl("button", { text: fix.safe ? `${fix.label} (safe)` : fix.label });
      button.addEventListener("click", () => void this.applyFix(finding, fix));
    }
  }
}
