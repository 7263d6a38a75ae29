/**
 * Runs lint for the plugin's "Check wiki health" view: the core's `runLint` on the vault, the
 * model checks with the provider chosen under "Lint with", fixes planned by the core and written
 * only after the review hook (every lint write is shown as diffs first), re-ingest through the
 * ingest queue, and contradictions settled through the same review. The view only displays.
 */
import type { PaneType } from "obsidian";
import { summariseError, SynapseError, toSynapseError } from "../core/errors";
import { MemoryRunLogger } from "../core/log";
import { inFolders } from "../core/perimeter";
import { NO_USAGE } from "../core/usage";
import type { ChosenFix } from "../lint/fixes";
import type { ModelCheckEstimate } from "../lint/model-checks";
import type { LintDeps, LintReport } from "../lint/run-lint";
import type { Finding, Fix } from "../lint/types";
import type { LintController, LintRun } from "../ui/lint-view";
import type { StateStore } from "../vault/state-store";
import type { WriteContext } from "../write/apply";
import type { PlannedChange } from "../write/planned-change";
import { previewChanges, selectReviewed, type ReviewHook } from "../wiki/review";
import type { PluginEnvironment } from "./environment";
import { providerServices, type ProviderFactory } from "./ingest-service";
import type { ObsidianVault } from "./obsidian-vault";
import type { SettingsStore } from "./settings-store";

export interface LintServiceDeps {
  readonly vault: ObsidianVault;
  readonly settings: SettingsStore;
  readonly environment: PluginEnvironment;
  readonly store: StateStore;
  readonly write: WriteContext;
  /** Shows the planned changes as diffs and says which to write. */
  readonly review: ReviewHook;
  /** Plans a note's re-ingest with the ingest backend, without writing it (lint writes it with its other fixes). */
  readonly reingest: NonNullable<LintDeps["reingest"]>;
  readonly open: (path: string, newLeaf: PaneType | boolean) => void;
  readonly exists: (path: string) => boolean;
  /**
   * Lets Obsidian breathe between slices of lint's long passes (default: a zero-delay timer), so
   * comparing every page's words never blocks the app for more than a slice.
   */
  readonly yieldNow?: () => Promise<void>;
  readonly factory?: ProviderFactory;
  readonly now?: () => number;
}

/** Lint's core, loaded the first time the view runs it: Obsidian's start-up never pays for it. */
const core = async () => {
  const [run, settle, fixRun, snapshot, slices] = await Promise.all([import("../lint/run-lint"), import("../lint/settle-contradiction"), import("../lint/fix-run"), import("../lint/snapshot"), import("../lint/slices")]);
  return { ...run, ...settle, ...fixRun, ...snapshot, ...slices };
};

export class LintService implements LintController {
  constructor(private readonly deps: LintServiceDeps) {}

  /** The review step as the core's lint takes it: previews, the hook, the changes the user kept. */
  private reviewed(title: string): (changes: readonly PlannedChange[]) => Promise<readonly PlannedChange[]> {
    return async (changes) => {
      if (changes.length === 0) return [];
      const previews = await previewChanges(this.deps.vault, changes);
      const selection = await this.deps.review({ notePath: "", sourceTitle: title, dryRun: false, changes: previews });
      return selectReviewed(changes, previews, selection);
    };
  }

  private lintDeps(): LintDeps {
    const settings = this.deps.settings.settings;
    const yieldNow = this.deps.yieldNow ?? (() => new Promise<void>((resolve) => window.setTimeout(resolve, 0)));
    return { vault: this.deps.vault, settings, store: this.deps.store, write: this.deps.write, reingest: this.deps.reingest, yieldNow, ...(this.deps.now ? { now: this.deps.now } : {}) };
  }

  async check(run: LintRun): Promise<LintReport> {
    const { runLint } = await core();
    const deps = this.lintDeps();
    if (run.modelChecks) {
      try {
        const id = deps.settings.operations.lint;
        const env = await this.deps.environment.build(deps.settings, new MemoryRunLogger(deps.settings.logContent));
        const provider = this.deps.factory ? this.deps.factory(id, env) : await providerServices.createProvider(id, env);
        return await runLint(
          { ...deps, provider },
          { modelChecks: true, signal: run.signal, confirmModelChecks: (e: ModelCheckEstimate) => run.confirm(e), progress: (done, total) => run.progress(done, total) },
        );
      } catch (thrown) {
        const error = toSynapseError(thrown, "config");
        return { ...(await runLint(deps, { signal: run.signal })), error: summariseError(error) };
      }
    }
    return runLint(deps, { signal: run.signal });
  }

  async fixAllSafe(): Promise<LintReport> {
    const { runLint } = await core();
    return runLint(this.lintDeps(), { fix: "safe", review: this.reviewed("Fix all safe") });
  }

  async applyFix(finding: Finding, fix: Fix): Promise<{ readonly written: number; readonly usage: LintReport["usage"] }> {
    const { dismissContradiction, resolveContradiction, loadSnapshot, runFixes, sliceCheckpoint, undoInterruptedRuns } = await core();
    const deps = this.lintDeps();
    if (fix.kind === "undo-interrupted-run") {
      const undone = await undoInterruptedRuns(deps, [{ finding, fix }]);
      return { written: undone.length, usage: NO_USAGE };
    }
    if (fix.kind === "dismiss-contradiction") {
      await dismissContradiction(deps, fix.params.id);
      return { written: 1, usage: NO_USAGE };
    }
    if (fix.kind === "resolve-contradiction") {
      const settled = await resolveContradiction(deps, fix.params.id, fix.params.keep, this.reviewed(fix.label));
      return { written: settled.changed.length, usage: NO_USAGE };
    }
    // Every other fix, a re-ingest included, is one reviewed lint run (undone in one step).
    const settings = deps.settings;
    const snapshot = await loadSnapshot(this.deps.vault, settings.wikiFolder, inFolders(settings.excludedFolders), sliceCheckpoint({ ...(deps.yieldNow ? { yieldNow: deps.yieldNow } : {}), ...(deps.now ? { now: deps.now } : {}) }));
    const chosen: ChosenFix[] = [{ finding, fix }];
    const run = await runFixes(deps, snapshot, chosen, { review: this.reviewed(fix.label) });
    const skipped = run.skipped[0];
    if (skipped && run.planned.length === 0) throw new SynapseError("request", skipped.reason, skipped.pluginReason !== undefined ? { pluginMessage: skipped.pluginReason } : {});
    return { written: run.written, usage: run.usage };
  }

  open(path: string, newLeaf: PaneType | boolean): void {
    this.deps.open(path, newLeaf);
  }

  exists(path: string): boolean {
    return this.deps.exists(path);
  }
}
