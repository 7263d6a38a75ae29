/**
 * Runs ingests for the plugin: builds the provider for the "ingest" operation, hands the note to
 * the core's `ingestNote` through the Obsidian vault adapter, one at a time through the queue,
 * and tells the user how it went (a notice, and the result modal with links to the pages).
 */
import { effectiveWikiFolder } from "../wiki/page-paths";
import { Notice, TFile, TFolder, type App } from "obsidian";
import { rephrased, summariseError, toSynapseError } from "../core/errors";
import { MemoryRunLogger } from "../core/log";
import type { InferenceProvider } from "../core/provider";
import type { ReadinessReport } from "../core/readiness";
import type { ProviderEnvironment } from "../providers/environment";
import type { ProviderId, Settings } from "../settings/schema";
import { inFolders } from "../core/perimeter";
import { FailedIngestsModal } from "../ui/failed-ingests-modal";
import { ResultModal } from "../ui/result-modal";
import { modalReviewHook } from "../ui/review-modal";
import type { WriteContext } from "../write/apply";
import type { DeferredIngest } from "../wiki/ingest-note";
import type { IngestDeps, IngestReport } from "../wiki/ingest-types";
import { reviewWhenNeeded, type ReviewHook } from "../wiki/review";
import type { PluginEnvironment } from "./environment";
import type { IndexService, IngestIndex } from "./index-service";
import { IngestQueue, type JobOutcome, type QueueJob } from "./ingest-queue";
import { ObsidianVault } from "./obsidian-vault";
import { batchNotice, buildResultListing, noteName, outcomeNotice, plural, type IngestedNote } from "./outcome";
import { QueueStore, type FailedNote, type QueuedNote } from "./ingest-queue-store";
import type { SettingsStore } from "./settings-store";

export type ProviderFactory = (id: ProviderId, env: ProviderEnvironment) => InferenceProvider;

/** The provider factory and readiness check, loaded on first use (they bring the SDKs along). */
export const providerServices = {
  async createProvider(id: ProviderId, env: ProviderEnvironment): Promise<InferenceProvider> {
    const { createProvider } = await import("../providers/factory");
    return createProvider(id, env);
  },
  async checkReadiness(id: ProviderId, env: ProviderEnvironment): Promise<ReadinessReport> {
    const { checkReadiness } = await import("../providers/readiness");
    return checkReadiness(id, env);
  },
};

const MODES = { offline: "offline", ollama: "local", anthropic: "api", openai: "api", cli: "cli" } as const;

/** The report of an ingest that could not start because its provider could not be built. */
export function setupFailure(id: ProviderId, error: unknown): IngestReport {
  const e = toSynapseError(error, "config");
  return {
    converged: false,
    stopReason: "error",
    dryRun: false,
    attempts: { analyze: 0, generate: 0 },
    pages: [],
    upToDate: null,
    declined: [],
    usage: { inputTokens: 0, outputTokens: 0, costUsd: null },
    provider: { name: id, mode: MODES[id], isLocal: false, model: null },
    error: summariseError(e),
    issues: [],
    dangling: [],
    contradictions: [],
    locked: [],
    linkedNotes: [],
    durationMs: 0,
  };
}

/** Markdown notes under a folder that an ingest may take: not in the wiki, not excluded. */
export function ingestibleNotes(folder: TFolder, settings: Settings): { notes: string[]; skipped: number } {
  const wiki = effectiveWikiFolder(settings.wikiFolder);
  const excluded = inFolders(settings.excludedFolders);
  const notes: string[] = [];
  let skipped = 0;
  const walk = (node: TFolder) => {
    for (const child of node.children) {
      if (child instanceof TFolder) walk(child);
      else if (child instanceof TFile && child.extension.toLowerCase() === "md") {
        const inWiki = wiki !== "" && (child.path === wiki || child.path.startsWith(`${wiki}/`));
        if (inWiki || excluded(child.path)) skipped += 1;
        else notes.push(child.path);
      }
    }
  };
  walk(folder);
  return { notes: notes.sort(), skipped };
}

export interface IngestOptions {
  /** Ingest even when the note is unchanged since its last ingest ("re-ingest anyway"). */
  readonly force?: boolean;
}

export class IngestService {
  readonly queue = new IngestQueue<IngestedNote>();
  /** The queue as it survives a restart (queue.json), when the plugin has a state folder. */
  readonly saved: QueueStore | null;
  private batches = 0;
  /** Set when the plugin unloads: what is queued then stays in queue.json, to resume next time. */
  private disposed = false;
  /** Ingests started from a command and not yet reported to the user. */
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly app: App,
    private readonly store: SettingsStore,
    private readonly environment: PluginEnvironment,
    private readonly factory?: ProviderFactory,
    /** Where runs are journaled and recorded for undo (the plugin's state folder). */
    private readonly write?: WriteContext,
    /** The vault's search index: the model's context and the duplicate shortlist come from it. */
    private readonly index?: IndexService,
    /** "Undo last ingest or other change", offered on the notice of an ingest that wrote pages. */
    private readonly undo?: () => void,
  ) {
    this.saved = write ? new QueueStore(write.store) : null;
  }

  /** Ingests one note; resolves when it is done and reported (after any ingests ahead of it). */
  ingestFile(file: TFile, options: IngestOptions = {}): Promise<void> {
    return this.ingestPath(file.path, options);
  }

  ingestPath(notePath: string, options: IngestOptions = {}): Promise<void> {
    return this.track(this.runNote(notePath, options.force === true));
  }

  /**
   * Plans a note's ingest without writing it, for lint's "re-ingest" fix (lint writes the pages
   * with its other fixes, in one run). Throws when the ingest cannot run or fails.
   */
  async planReingest(notePath: string, signal?: AbortSignal): Promise<DeferredIngest | null> {
    const settings = this.store.settings;
    const logger = new MemoryRunLogger(settings.logContent);
    const env = await this.environment.build(settings, logger);
    const id = settings.operations.ingest;
    const provider = this.factory ? this.factory(id, env) : await providerServices.createProvider(id, env);
    const { planIngest } = await import("../wiki/ingest-note");
    const vault = new ObsidianVault(this.app);
    const indexed = await this.index?.forIngest();
    const { report, plan } = await planIngest(
      this.ingestDeps(vault, provider, settings, indexed),
      { notePath, log: logger, ...(signal ? { signal } : {}) },
    );
    if (report.error) throw rephrased(report.error, (m) => `Re-ingesting ${notePath} failed: ${m}`);
    return plan;
  }

  /**
   * What accepting an agent's proposal writes through, as an ingest here would: the vault through
   * Obsidian, the settings in force, the write path and the search index (no provider: the
   * proposal brings the model's pages).
   */
  async acceptDeps(): Promise<Omit<IngestDeps, "provider">> {
    return this.writeDeps(new ObsidianVault(this.app), this.store.settings, await this.index?.forIngest());
  }

  /** Queues every ingestible note under a folder; one notice and one result modal for the batch. */
  ingestFolder(folder: TFolder): Promise<void> {
    const { notes, skipped } = ingestibleNotes(folder, this.store.settings);
    const where = folder.isRoot() ? "the vault" : `"${folder.path}"`;
    const skippedText = skipped > 0 ? ` (${skipped} skipped: in the wiki folder or an excluded folder)` : "";
    if (notes.length === 0) {
      new Notice(`No notes to ingest in ${where}${skippedText}.`);
      return Promise.resolve();
    }
    new Notice(`Queued ${plural(notes.length, "note")} from ${where}${skippedText}.`);
    const queued = notes.map((notePath) => ({ notePath, force: false }));
    return this.track(this.runBatch(queued, { folder: folder.isRoot() ? "" : folder.path, title: `Ingested from ${where}` }));
  }

  /**
   * Picks up what queue.json says was still queued when Obsidian last closed (call once the layout
   * is ready and any interrupted run is recovered). Returns once those notes are queued; `settled()`
   * waits for them to finish.
   */
  async resume(): Promise<void> {
    if (!this.saved) return;
    const warning = await this.saved.load();
    if (warning) new Notice(`Synapse: ${warning}`, 15000);
    const left = this.saved.pending.filter((n) => !this.queue.has(n.notePath));
    if (left.length === 0) return;
    new Notice(`Synapse is resuming ${plural(left.length, "queued ingest")} left when Obsidian last closed.`);
    void this.track(this.runBatch(left, { folder: "", label: "resumed ingests", title: "Resumed ingests" }));
  }

  /** Queues every failed note again in one batch. */
  async retryFailed(): Promise<void> {
    const failed = this.saved ? await this.saved.takeFailed() : [];
    if (failed.length === 0) {
      new Notice("No failed ingests to retry.");
      return;
    }
    new Notice(`Retrying ${plural(failed.length, "failed ingest")}.`);
    const notes = failed.map((f) => ({ notePath: f.notePath, force: false }));
    await this.track(this.runBatch(notes, { folder: "", label: "retried ingests", title: "Retried ingests" }));
  }

  /** Notes whose last ingest failed, with the reason, oldest first. */
  get failed(): readonly FailedNote[] {
    return this.saved?.failed ?? [];
  }

  /** Resolves once every ingest started so far has finished and been reported (and queue.json written). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
    await this.saved?.settled();
  }

  private track(work: Promise<void>): Promise<void> {
    const tracked = work.finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
    return tracked;
  }

  private async runNote(notePath: string, force: boolean): Promise<void> {
    if (this.queue.has(notePath)) {
      new Notice(`"${noteName(notePath)}" is already being ingested.`);
      return;
    }
    void this.saved?.add([{ notePath, force }]);
    const outcome = await this.queue.enqueue(this.job(notePath, notePath, force));
    if (this.disposed) return;
    void this.saved?.finish(notePath, this.failureOf(notePath, outcome));
    this.reportOne(notePath, outcome);
  }

  /** Runs notes as one batch (a folder, a resume, a retry): one notice and one result modal at the end. */
  private async runBatch(notes: readonly QueuedNote[], names: { folder: string; label?: string; title: string }): Promise<void> {
    this.batches += 1;
    const group = `batch-${this.batches}`;
    const fresh = notes.filter((n) => !this.queue.has(n.notePath));
    void this.saved?.add(fresh);
    const outcomes = await Promise.all(
      fresh.map(async (n) => {
        const outcome = await this.queue.enqueue(this.job(n.notePath, group, n.force));
        if (!this.disposed) void this.saved?.finish(n.notePath, this.failureOf(n.notePath, outcome));
        return outcome;
      }),
    );
    if (this.disposed) return;
    const done: IngestedNote[] = [];
    let dropped = 0;
    outcomes.forEach((outcome, i) => {
      if (outcome.status === "done") done.push(outcome.result);
      else if (outcome.status === "cancelled") dropped += 1;
      else done.push({ notePath: fresh[i]?.notePath ?? "", report: setupFailure(this.store.settings.operations.ingest, outcome.error) });
    });
    const summary = batchNotice(names.folder, done, dropped, names.label);
    const failed = done.filter((n) => !n.report.converged && n.report.stopReason !== "cancelled").length;
    new Notice(failed > 0 ? this.withRetry(summary.text) : summary.text, summary.ok ? 8000 : 15000);
    if (done.length > 0) new ResultModal(this.app, buildResultListing(done, names.title)).open();
  }

  /** What queue.json keeps of a finished note: null when it is done with, else why it failed. */
  private failureOf(notePath: string, outcome: JobOutcome<IngestedNote>): string | null {
    if (outcome.status === "cancelled") return null;
    const report = outcome.status === "done" ? outcome.result.report : setupFailure(this.store.settings.operations.ingest, outcome.error);
    // A run the user cancelled is not a failure to retry.
    if (report.converged || report.stopReason === "cancelled") return null;
    return outcomeNotice(notePath, report).text;
  }

  /** Shows the plan before writing when the review setting asks for it (read per plan); a cancel closes it. */
  /** What an ingest in the plugin runs on: the vault through Obsidian, the write path, the search index when it is open. */
  private ingestDeps(vault: ObsidianVault, provider: InferenceProvider, settings: Settings, indexed: IngestIndex | null | undefined): IngestDeps {
    return { ...this.writeDeps(vault, settings, indexed), provider };
  }

  private writeDeps(vault: ObsidianVault, settings: Settings, indexed: IngestIndex | null | undefined): Omit<IngestDeps, "provider"> {
    return {
      vault,
      settings,
      ...(this.write ? { write: this.write } : {}),
      linkExists: (name) => vault.linkExists(name),
      ...(indexed ? { retriever: indexed.retriever, catalog: indexed.catalog } : {}),
    };
  }

  private reviewFor(signal: AbortSignal): ReviewHook {
    return reviewWhenNeeded(() => this.store.settings.reviewMode, modalReviewHook(this.app, signal));
  }

  /** Stops the running ingest (and the rest of its folder batch). */
  cancel(): boolean {
    return this.queue.cancelRunning();
  }

  dispose(): void {
    this.disposed = true;
    this.queue.cancelAll();
  }

  private job(notePath: string, group: string, force: boolean): QueueJob<IngestedNote> {
    return {
      key: notePath,
      group,
      run: async (signal, progress) => {
        const settings = this.store.settings;
        const logger = new MemoryRunLogger(settings.logContent);
        const id = settings.operations.ingest;
        let provider: InferenceProvider;
        try {
          const env = await this.environment.build(settings, logger);
          provider = this.factory ? this.factory(id, env) : await providerServices.createProvider(id, env);
        } catch (error) {
          return { notePath, report: setupFailure(id, error) };
        }
        const { ingestNote } = await import("../wiki/ingest-note");
        const vault = new ObsidianVault(this.app);
        // Waits for the first indexing of the vault; without an index, the ingest lists the wiki instead.
        const indexed = await this.index?.forIngest();
        const report = await ingestNote(
          this.ingestDeps(vault, provider, settings, indexed),
          { notePath, force, signal, progress, log: logger, review: this.reviewFor(signal) },
        );
        return { notePath, report, calls: logger.events, contexts: logger.contexts };
      },
    };
  }

  private reportOne(notePath: string, outcome: JobOutcome<IngestedNote>): void {
    const name = noteName(notePath);
    if (outcome.status === "cancelled") {
      new Notice(`Ingest of "${name}" cancelled before it started.`);
      return;
    }
    const note: IngestedNote =
      outcome.status === "done" ? outcome.result : { notePath, report: setupFailure(this.store.settings.operations.ingest, outcome.error) };
    if (outcome.status === "failed") console.error("Synapse: the ingest threw", outcome.error);
    const text = outcomeNotice(notePath, note.report);
    const listing = buildResultListing([note], `Ingested "${name}"`);
    if (note.report.upToDate) {
      new Notice(actionNotice(text.text, [{ label: "Re-ingest anyway", run: () => void this.ingestPath(notePath, { force: true }) }]), 10000);
      return;
    }
    if (text.ok) {
      // The pages written are one click away on the notice, not a window that opens by itself over it.
      const wrote = note.report.pages.some((p) => p.action !== "unchanged");
      const undo = this.undo;
      const actions = wrote
        ? [{ label: "Show details", run: () => new ResultModal(this.app, listing).open() }, ...(undo ? [{ label: "Undo", run: undo }] : [])]
        : [];
      new Notice(actions.length > 0 ? actionNotice(text.text, actions) : text.text, wrote ? 10000 : 8000);
      return;
    }
    if (note.report.stopReason === "cancelled") {
      new Notice(text.text, 6000);
      return;
    }
    // A failure: the notice stays until dismissed, links to the details when there are any, and
    // offers to try again (the note is also listed under "Show failed ingests").
    const hasDetails = listing.calls.length > 0 || note.report.issues.length > 0;
    const actions = [
      ...(hasDetails ? [{ label: "Show details", run: () => new ResultModal(this.app, listing).open() }] : []),
      { label: "Retry", run: () => void this.ingestPath(notePath) },
    ];
    new Notice(actionNotice(text.text, actions), 15000);
  }

  private withRetry(text: string): DocumentFragment {
    return actionNotice(text, [
      { label: "Show failed", run: () => this.showFailed() },
      { label: "Retry failed", run: () => void this.retryFailed() },
    ]);
  }

  /** Opens the list of failed ingests, each with its reason and its own actions, and a button that retries them all. */
  showFailed(): void {
    if (this.failed.length === 0) {
      new Notice("No failed ingests.");
      return;
    }
    new FailedIngestsModal(this.app, this.failed, {
      retryAll: () => void this.retryFailed(),
      retry: (notePath) => void this.ingestPath(notePath),
      open: (notePath, newLeaf) => void this.app.workspace.openLinkText(notePath, "", newLeaf),
      dismiss: (notePath) => void this.saved?.dismiss(notePath),
    }).open();
  }
}

/** A notice with buttons after its text. */
export function actionNotice(text: string, actions: readonly { label: string; run: () => void }[]): DocumentFragment {
  return createFragment((f) => {
    f.appendText(text);
    const row = f.createDiv({ cls: "synapse-notice-actions" });
    for (const action of actions) {
      row.createEl("button", { text: action.label }).addEventListener("click", (event) => {
        event.preventDefault();
        action.run();
      });
    }
  });
}
