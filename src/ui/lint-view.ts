/**
 * "Check wiki health": a view with the lint report grouped by check, with counts; each finding
 * links to its page and offers its fixes (each one goes through the review step before anything is
 * written); "Fix all safe"; the model checks behind a toggle, with their estimate shown and
 * confirmed before any call; progress and cancel. Display only: the controller does the work.
 */
import { ItemView, type HoverParent, type HoverPopover, type PaneType, type WorkspaceLeaf } from "obsidian";
import { messageOn } from "../core/errors";
import { plural } from "../core/plural";
import { estimateLine, notCheckedParts, recordedRunLine, spentLine } from "../lint/estimate-text";
import type { ModelCheckEstimate } from "../lint/model-checks";
import type { LintReport } from "../lint/run-lint";
import { CHECKS, type Check, type Finding, type Fix } from "../lint/types";
import { renderFinding } from "./lint-finding";

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
  /** Opens a page; `newLeaf` as `Keymap.isModEvent` gives it (Ctrl/Cmd-click: a new tab). */
  open(path: string, newLeaf: PaneType | boolean): void;
  /** Whether the page is in the vault: a finding about a missing one is never a link (a click would create it). */
  exists(path: string): boolean;
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

export class LintView extends ItemView implements HoverParent {
  hoverPopover: HoverPopover | null = null;
  private running: AbortController | null = null;
  /** Whether the last report has a safe fix; until a check has run, "Fix all safe" finds out itself. */
  private safeFixes = true;
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
    this.fixButton = bar.createEl("button", { text: "Fix all safe", attr: { "aria-label": "Apply every fix marked safe; each changes none of your own text" } });
    this.fixButton.addEventListener("click", () => void this.fixAllSafe());
    this.cancelButton = bar.createEl("button", { text: "Cancel" });
    this.cancelButton.addEventListener("click", () => this.cancel());
    this.cancelButton.hide();
    this.statusEl = root.createDiv({ cls: "synapse-lint-status" });
    this.estimateEl = root.createDiv({ cls: "synapse-lint-estimate" });
    this.reportEl = root.createDiv({ cls: "synapse-lint-report" });
    this.reportEl.createDiv({ cls: "synapse-lint-empty", text: "Check again lists broken links, orphan pages, pages without sources, duplicates and index problems, each with its fixes." });
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
      this.fixButton.disabled = !this.safeFixes;
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
        progress: (done, total) => this.statusEl.setText(`Model checks: ${done} of ${plural(total, "pair")}…`),
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
    // Say what the view waits for: the exact checks are done, the model checks wait on the user.
    this.statusEl.setText("Waiting for you: run the model checks below, or skip them.");
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
      done = `Could not apply the fix: ${messageOn(error, "plugin")} `;
    } finally {
      this.busy(null);
    }
    const report = await this.check(false);
    if (report) this.statusEl.setText(`${done}${this.statusEl.getText()}`);
  }

  private show(report: LintReport, prefix = ""): void {
    this.reportEl.empty();
    if (report.error) this.reportEl.createDiv({ cls: "synapse-lint-error", text: messageOn(report.error, "plugin") });
    const n = report.findings.length;
    const model = report.modelChecks ? ` Model checks: ${[`${plural(report.modelChecks.checked, "pair")} checked`, `${report.modelChecks.cached} from the cache`, ...notCheckedParts(report.modelChecks)].join(", ")}. ${recordedRunLine(report.modelChecks)}` : "";
    const spent = spentLine(report.usage);
    this.statusEl.setText(`${prefix}${plural(report.pages, "page")} checked: ${n === 0 ? "no findings" : plural(n, "finding")}.${model}${spent ? ` ${spent}` : ""}`);
    this.safeFixes = report.findings.some((f) => f.fixes.some((fix) => fix.safe));
    if (n === 0 && !report.error) this.showHealthy(report.pages);
    for (const check of CHECKS) {
      const findings = report.findings.filter((f) => f.check === check);
      if (findings.length === 0) continue;
      const group = this.reportEl.createDiv({ cls: "synapse-lint-group", attr: { "data-check": check } });
      group.createEl("h4", { text: `${CHECK_NAMES[check]} (${findings.length})` });
      const list = group.createEl("ul");
      for (const finding of findings) this.showFinding(list, finding);
    }
  }

  /** A healthy wiki: that nothing was found, and what was looked for, so "no problems" means something. */
  private showHealthy(pages: number): void {
    const empty = this.reportEl.createDiv({ cls: "synapse-lint-empty" });
    if (pages === 0) {
      empty.setText("The wiki has no pages yet: ingest a note, then check again.");
      return;
    }
    empty.createDiv({ cls: "synapse-lint-empty-title", text: "No problems found" });
    // The status line above already counts the pages; this says what "no problems" covers.
    const checked = CHECKS.map((check) => (check === "index" ? "the index" : CHECK_NAMES[check].toLowerCase()));
    empty.createDiv({ text: `Checked for ${checked.slice(0, -1).join(", ")} and ${checked.at(-1) ?? ""}.` });
  }

  private showFinding(list: HTMLElement, finding: Finding): void {
    renderFinding(list, finding, {
      link: { app: this.app, hoverParent: this, source: LINT_VIEW_TYPE, open: (path, newLeaf) => this.controller.open(path, newLeaf) },
      exists: (path) => this.controller.exists(path),
      applyFix: (f, fix) => void this.applyFix(f, fix),
    });
  }
}
