/**
 * Runs ingests for the plugin: builds the provider for the "ingest" operation, hands the note to
 * the core's `ingestNote` through the Obsidian vault adapter, one at a time through the queue,
 * and tells the user how it went (a notice, and the result modal with links to the pages).
 */
import { effectiveWikiFolder } from "../wiki/page-paths";
import { Notice, TFile, TFolder, type App } from "obsidian";
import { toSynapseError } from "../core/errors";
import { MemoryRunLogger } from "../core/log";
import type { InferenceProvider } from "../core/provider";
import type { ReadinessReport } from "../core/readiness";
import type { ProviderEnvironment } from "../providers/environment";
import type { ProviderId, Settings } from "../settings/schema";
import { isExcluded } from "../core/perimeter";
import { ResultModal } from "../ui/result-modal";
import { modalReviewHook } from "../ui/review-modal";
import type { WriteContext } from "../wiki/apply";
import type { IngestReport } from "../wiki/ingest-types";
import { reviewWhenNeeded, type ReviewHook } from "../wiki/review";
import type { PluginEnvironment } from "./environment";
import { IngestQueue, type JobOutcome, type QueueJob } from "./ingest-queue";
import { ObsidianVault } from "./obsidian-vault";
import { batchNotice, buildResultListing, outcomeNotice, type IngestedNote } from "./outcome";
import type { SettingsStore } from "./settings-store";

export type ProviderFactory = (id: ProviderId, env: ProviderEnvironment) => InferenceProvider;

/** The provider factory and readiness check, loaded on first use (they bring the SDKs along). */
export const providerServices = {
  async createProvider(id: ProviderId, env: ProviderEnvironment): Promise<InferenceProvider> {
    const { createProvider } = await import("../providers/factory");
    return createProvider(id, env);
  },
  async checkReadiness(id: ProviderId, env: ProviderEnvironment): Promise<ReadinessReport> {
    const { checkReadiness } = await import("../providers/factory");
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
    error: { kind: e.kind, message: e.message },
    issues: [],
    dangling: [],
    contradictions: [],
    locked: [],
    durationMs: 0,
  };
}

/** Markdown notes under a folder that an ingest may take: not in the wiki, not excluded. */
export function ingestibleNotes(folder: TFolder, settings: Settings): { notes: string[]; skipped: number } {
  const wiki = effectiveWikiFolder(settings.wikiFolder);
  const notes: string[] = [];
  let skipped = 0;
  const walk = (node: TFolder) => {
    for (const child of node.children) {
      if (child instanceof TFolder) walk(child);
      else if (child instanceof TFile && child.extension.toLowerCase() === "md") {
        const inWiki = wiki !== "" && (child.path === wiki || child.path.startsWith(`${wiki}/`));
        if (inWiki || isExcluded(child.path, settings.excludedFolders)) skipped += 1;
        else notes.push(child.path);
      }
    }
  };
  walk(folder);
  return { notes: notes.sort(), skipped };
}

export class IngestService {
  readonly queue = new IngestQueue<IngestedNote>();
  private batches = 0;
  /** Ingests started from a command and not yet reported to the user. */
  private readonly pending = new Set<Promise<void>>();
  /** Shows the plan before writing when the review setting asks for it (read per run). */
  private readonly review: ReviewHook;

  constructor(
    private readonly app: App,
    private readonly store: SettingsStore,
    private readonly environment: PluginEnvironment,
    private readonly factory?: ProviderFactory,
    /** Where runs are journaled and recorded for undo (the plugin's state folder). */
    private readonly write?: WriteContext,
  ) {
    this.review = reviewWhenNeeded(() => this.store.settings.reviewMode, modalReviewHook(app));
  }

  /** Ingests one note; resolves when it is done and reported (after any ingests ahead of it). */
  ingestFile(file: TFile): Promise<void> {
    return this.track(this.runFile(file));
  }

  /** Queues every ingestible note under a folder; one notice and one result modal for the batch. */
  ingestFolder(folder: TFolder): Promise<void> {
    return this.track(this.runFolder(folder));
  }

  /** Resolves once every ingest started so far has finished and been reported. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  private track(work: Promise<void>): Promise<void> {
    const tracked = work.finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
    return tracked;
  }

  private async runFile(file: TFile): Promise<void> {
    if (this.queue.has(file.path)) {
      new Notice(`"${file.basename}" is already being ingested.`);
      return;
    }
    const outcome = await this.queue.enqueue(this.job(file.path, file.path));
    this.reportOne(file.path, outcome);
  }

  private async runFolder(folder: TFolder): Promise<void> {
    const { notes, skipped } = ingestibleNotes(folder, this.store.settings);
    const where = folder.isRoot() ? "the vault" : `"${folder.path}"`;
    const skippedText = skipped > 0 ? ` (${skipped} skipped: in the wiki folder or an excluded folder)` : "";
    if (notes.length === 0) {
      new Notice(`No notes to ingest in ${where}${skippedText}.`);
      return;
    }
    new Notice(`Queued ${notes.length} note${notes.length === 1 ? "" : "s"} from ${where}${skippedText}.`);
    this.batches += 1;
    const group = `batch-${this.batches}`;
    const fresh = notes.filter((path) => !this.queue.has(path));
    const outcomes = await Promise.all(fresh.map((path) => this.queue.enqueue(this.job(path, group))));
    const done: IngestedNote[] = [];
    let dropped = 0;
    outcomes.forEach((outcome, i) => {
      if (outcome.status === "done") done.push(outcome.result);
      else if (outcome.status === "cancelled") dropped += 1;
      else done.push({ notePath: fresh[i] as string, report: setupFailure(this.store.settings.operations.ingest, outcome.error) });
    });
    const summary = batchNotice(folder.isRoot() ? "" : folder.path, done, dropped);
    new Notice(summary.text, summary.ok ? 8000 : 15000);
    if (done.length > 0) new ResultModal(this.app, buildResultListing(done, `Ingested from ${where}`)).open();
  }

  /** Stops the running ingest (and the rest of its folder batch). */
  cancel(): boolean {
    return this.queue.cancelRunning();
  }

  dispose(): void {
    this.queue.cancelAll();
  }

  private job(notePath: string, group: string): QueueJob<IngestedNote> {
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
        const report = await ingestNote(
          { vault, provider, settings, ...(this.write ? { write: this.write } : {}), linkExists: (name) => vault.linkExists(name) },
          { notePath, signal, progress, log: logger, review: this.review },
        );
        return { notePath, report, calls: logger.events };
      },
    };
  }

  private reportOne(notePath: string, outcome: JobOutcome<IngestedNote>): void {
    const name = (notePath.split("/").pop() ?? notePath).replace(/\.md$/i, "");
    if (outcome.status === "cancelled") {
      new Notice(`Ingest of "${name}" cancelled before it started.`);
      return;
    }
    const note: IngestedNote =
      outcome.status === "done" ? outcome.result : { notePath, report: setupFailure(this.store.settings.operations.ingest, outcome.error) };
    if (outcome.status === "failed") console.error("Synapse: the ingest threw", outcome.error);
    const text = outcomeNotice(notePath, note.report);
    const listing = buildResultListing([note], `Ingested "${name}"`);
    if (text.ok) {
      new Notice(text.text, 8000);
      if (note.report.pages.some((p) => p.action !== "unchanged")) new ResultModal(this.app, listing).open();
      return;
    }
    // A failure: the notice stays until dismissed and links to the details when there are any.
    const hasDetails = listing.calls.length > 0 || note.report.issues.length > 0;
    if (!hasDetails || note.report.stopReason === "cancelled") {
      new Notice(text.text, note.report.stopReason === "cancelled" ? 6000 : 15000);
      return;
    }
    const fragment = createFragment((f) => {
      f.appendText(`${text.text} `);
      const link = f.createEl("a", { text: "Show details", href: "#" });
      link.addEventListener("click", (event) => {
        event.preventDefault();
        new ResultModal(this.app, listing).open();
      });
    });
    new Notice(fragment, 15000);
  }
}
