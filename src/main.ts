/**
 * The Obsidian composition root: it wires settings, the vault adapter, the transports and the
 * ingest service into commands, a ribbon button, a status-bar item and a settings tab, and does
 * nothing heavy. The provider SDKs, the ingest pipeline and the desktop streaming transport are
 * loaded on first use, so `onload` only registers and returns.
 */
import { Notice, Platform, Plugin, type App, type PluginManifest } from "obsidian";
import { ingestFolderOrBatch, registerBatches, showBatchesInStatusBar } from "./obsidian/batch-commands";
import type { BatchService } from "./obsidian/batch-service";
import { registerCommands } from "./obsidian/commands";
import { PluginEnvironment } from "./obsidian/environment";
import { IngestService, providerServices, type ProviderFactory } from "./obsidian/ingest-service";
import { IndexService } from "./obsidian/index-service";
import { webIndexWorker, type IndexWorkerFactory } from "./obsidian/index-worker";
import { INDEX_WORKER_GZIP_BASE64 } from "./obsidian/index-worker-script";
import { NoteMoves } from "./obsidian/note-moves";
import type { ProviderEnvironment } from "./providers/environment";
import { PageFollower } from "./obsidian/page-follow";
import { registerProposals } from "./obsidian/proposal-commands";
import type { ProposalReviewService } from "./obsidian/proposal-service";
import { RetractService } from "./obsidian/retract-service";
import { GoneSourceSuggestModal } from "./ui/source-suggest";
import type { Schedule } from "./obsidian/index-embedding-pass";
import { SettingsStore } from "./obsidian/settings-store";
import { StatusBar } from "./obsidian/status-bar";
import { ConfirmModal } from "./ui/confirm-modal";
import { cancelIngestQuestion } from "./ui/confirm-questions";
import { ObsidianVault } from "./obsidian/obsidian-vault";
import { QueryService } from "./obsidian/query-service";
import { confirmWithModal, undoLastChange } from "./obsidian/undo-service";
import { pluginWriteContext } from "./obsidian/write-context";
import type { WriteContext } from "./write/apply";
import { effectiveWikiFolder } from "./wiki/page-paths";
import { describeRecovery, recoverInterruptedRun } from "./write/recover";
import { DEFAULT_SETTINGS, type Operation, type Settings } from "./settings/schema";
import { SynapseSettingTab } from "./ui/settings-tab";
import { QUERY_VIEW_TYPE, QueryView } from "./ui/query-view";
import { LINT_VIEW_TYPE, LintView } from "./ui/lint-view";
import { modalReviewHook } from "./ui/review-modal";
import { LintService } from "./obsidian/lint-service";
import { reviewWhenNeeded, type ReviewHook } from "./wiki/review";

/**
 * The operations that get a provider picker in the settings. Lint's picker ("Lint with") chooses
 * the backend of the model checks, which `synapse lint --model-checks` reads from these settings.
 */
const OPERATIONS: readonly Operation[] = ["ingest", "query", "lint"];

export interface PluginSeams {
  /** Replaces the provider factory, so a test can ingest with a provider of its own. */
  readonly createProvider?: ProviderFactory;
  /** Decides which planned changes of a "save as page" or a lint fix are written (a test approves or declines). */
  readonly review?: ReviewHook;
  /** Whether answers stream into the view; by default only where Node's streaming transport exists. */
  readonly streaming?: boolean;
  /** Schedules the index's retries of a failed embedding server (default `window.setTimeout`; a test fires them itself). */
  readonly schedule?: Schedule;
  /** Changes the environment batch ingests reach their batch API with (a test's transport and keys). */
  readonly batchEnvironment?: (env: ProviderEnvironment) => ProviderEnvironment;
  /** Starts the search index's worker (default: the Web Worker main.js carries; a test serves the index over a MessageChannel). */
  readonly indexWorker?: IndexWorkerFactory;
}


export default class SynapsePlugin extends Plugin {
  /** Set by onload; the ingest queue and its reporting. */
  ingest: IngestService | null = null;
  /** Set by onload; what the "Ask the wiki" view asks. */
  query: QueryService | null = null;
  /** Set by onload; the vault's search index (opened once the layout is ready). */
  index: IndexService | null = null;
  /** Set by onload; what the "Check wiki health" view runs. */
  lint: LintService | null = null;
  /** Set by onload; records the moves of ingested notes as Obsidian reports them. */
  moves: NoteMoves | null = null;
  /** Set by onload; keeps index.md in step with the pages the user renames or deletes. */
  pages: PageFollower | null = null;
  /** Set by onload; "Retract a deleted source". */
  retract: RetractService | null = null;
  /** Set by onload; "Review proposals from agents". */
  proposals: ProposalReviewService | null = null;
  /** Set by onload; batch ingests: sent from a folder ingest, announced and collected. */
  batches: BatchService | null = null;
  private store: SettingsStore | null = null;
  /**
   * Settles once the start-up recovery of an interrupted run is done (tests wait on it). Set when
   * the layout is ready, before the index starts: the index opens only after it, so neither the
   * index nor a question reads a half-written run. (A command run while Obsidian still starts opens
   * the index at once; its ingest's write rolls such a run back before it writes.)
   */
  recovered: Promise<void> = Promise.resolve();
  /** Settles once the ingests left in queue.json are queued again (tests wait on it). */
  resumed: Promise<void> = Promise.resolve();

  constructor(
    app: App,
    manifest: PluginManifest,
    private readonly seams: PluginSeams = {},
  ) {
    super(app, manifest);
  }

  override async onload(): Promise<void> {
    const store = await SettingsStore.open({ load: () => this.loadData(), save: (data) => this.saveData(data) });
    this.store = store;
    const environment = new PluginEnvironment(this.app);
    const write = await pluginWriteContext(this.app, this.manifest);
    // The index's progress line sits after the ingest's status item (created below).
    let indexStatus: HTMLElement | null = null;
    const index = new IndexService({
      app: this.app,
      store: write.store,
      worker: this.seams.indexWorker ?? webIndexWorker(INDEX_WORKER_GZIP_BASE64),
      settings: () => store.settings,
      status: (text) => {
        indexStatus?.setText(text);
        indexStatus?.toggleClass("synapse-status-idle", text === "");
      },
      onError: (error) => console.error("Synapse: the search index", error),
      // Vector search, when the settings choose an embedding model: its client is loaded on first use.
      embedder: async (settings) => {
        const { createEmbedder } = await import("./providers/embedder");
        return createEmbedder(environment.forRequests(settings));
      },
      notify: (message) => new Notice(`Synapse: ${message}`, 10000),
      ...(this.seams.schedule ? { schedule: this.seams.schedule } : {}),
      recovered: () => this.recovered,
    });
    this.index = index;
    // A change of wiki folder, excluded folders or embedding model reopens the index at once.
    this.register(store.onChange(() => index.settingsChanged()));
    this.register(() => void index.dispose());
    const undo = () => void undoLastChange(this.app, write, store.settings.wikiFolder, confirmWithModal(this.app));
    const ingest = new IngestService(this.app, store, environment, this.seams.createProvider, write, index, undo);
    this.ingest = ingest;
    const moves = new NoteMoves(this.app, write, () => this.recovered);
    this.moves = moves;
    const pages = new PageFollower(this.app, write, () => effectiveWikiFolder(store.settings.wikiFolder), () => this.recovered);
    this.pages = pages;
    this.register(() => ingest.dispose());

    const batches = registerBatches(this, {
      write,
      ingest,
      settings: store,
      environment,
      ...(this.seams.batchEnvironment ? { adjustEnvironment: this.seams.batchEnvironment } : {}),
    });
    this.batches = batches;
    registerCommands(this, ingest, (folder) => ingestFolderOrBatch(this.app, ingest, batches, store, folder));
    this.addCommand({
      id: "undo-last-change",
      // "Undo last ingest" first, so the palette finds it by the words people use.
      name: "Undo last ingest or other change",
      callback: undo,
    });
    const retract = new RetractService({
      app: this.app,
      vault: new ObsidianVault(this.app),
      settings: store,
      write,
      // A retract removes text: shown as diffs first, whatever the ingest review setting says.
      review: this.seams.review ?? modalReviewHook(this.app),
      pick: (sources, chosen) => new GoneSourceSuggestModal(this.app, sources, chosen).open(),
    });
    this.retract = retract;
    this.addCommand({ id: "retract-deleted-source", name: "Retract a deleted source", callback: () => void retract.choose() });
    // An agent's change is shown as diffs first, whatever the ingest review setting says.
    const proposals = registerProposals(this, { write, ingest, review: this.seams.review ?? modalReviewHook(this.app), undo });
    this.proposals = proposals;
    this.registerQuery(store, environment, write, index);
    this.registerLint(store, environment, write, ingest);
    const status = new StatusBar(this.addStatusBarItem());
    indexStatus = this.addStatusBarItem();
    indexStatus.addClasses(["synapse-index-status", "synapse-status-idle"]);
    showBatchesInStatusBar(this, batches);
    this.register(ingest.queue.subscribe((snapshot) => status.show(snapshot)));
    // One click only asks: a stray click on the status bar must not throw away a long run.
    this.registerDomEvent(status.element, "click", () => {
      const { running, queued } = ingest.queue.snapshot();
      if (running === null) return;
      new ConfirmModal(this.app, cancelIngestQuestion(running.label, queued), (cancel) => {
        if (cancel && ingest.cancel()) new Notice("Cancelling the ingest…");
      }).open();
    });

    this.addSettingTab(
      new SynapseSettingTab(this.app, this, {
        store,
        operations: OPERATIONS,
        checkReadiness: async (id) => providerServices.checkReadiness(id, await environment.build(store.settings)),
      }),
    );

    this.app.workspace.onLayoutReady(() => {
      // Registered once the vault is loaded, so start-up's flood of "create" events is not indexed one by one.
      this.registerEvent(this.app.vault.on("create", (file) => index.changed(file)));
      this.registerEvent(this.app.vault.on("modify", (file) => index.changed(file)));
      this.registerEvent(
        this.app.vault.on("delete", (file) => {
          index.deleted(file);
          pages.deleted(file);
        }),
      );
      this.registerEvent(
        this.app.vault.on("rename", (file, oldPath) => {
          index.renamed(file, oldPath);
          moves.renamed(file, oldPath);
          pages.renamed(file, oldPath);
        }),
      );
      this.registerEvent(this.app.metadataCache.on("changed", (file, _data, cache) => index.changed(file, cache)));
      // A run a crash (or a killed CLI) interrupted is rolled back before anything else reads the
      // wiki: the index waits for it (see `recovered`), and so does every question and ingest.
      // It does not wait for a writer that holds the lock (a CLI ingesting): that run is its own to
      // finish, and the rolled-back files of a dead one reach the index as vault events later.
      this.recovered = recoverInterruptedRun(new ObsidianVault(this.app), { ...write, lock: { ...write.lock, waitMs: 0 }, wikiFolder: effectiveWikiFolder(store.settings.wikiFolder) })
        .then((report) => {
          const text = describeRecovery(report);
          if (text) new Notice(text, 15000);
        })
        .catch((error: unknown) => {
          new Notice(`Synapse could not check for an interrupted run: ${error instanceof Error ? error.message : String(error)}`);
        });
      index.start();
      // Proposals agents left while Obsidian was closed, once the wiki is whole again.
      void this.recovered.then(() => proposals.check());
      // Batches that ended while Obsidian was closed, likewise.
      void this.recovered.then(() => batches.check());
      // Ingests still queued when Obsidian closed resume once the wiki is whole again.
      this.resumed = this.recovered
        .then(() => ingest.resume())
        .catch((error: unknown) => {
          new Notice(`Synapse could not resume the queued ingests: ${error instanceof Error ? error.message : String(error)}`);
        });
      if (store.loadWarnings.length > 0) {
        new Notice(`Synapse reset some settings to their defaults: ${store.loadWarnings.join(" ")}`, 15000);
      }
    });
  }

  /** "Ask the wiki": the service, its side view, the command and the ribbon button (no default hotkey). */
  private registerQuery(store: SettingsStore, environment: PluginEnvironment, write: WriteContext, index: IndexService): void {
    const vault = new ObsidianVault(this.app);
    const query = new QueryService({
      vault,
      settings: store,
      environment,
      store: write.store,
      write: () => write,
      retriever: () => index.retriever(),
      // "Save as page" is reviewed like an ingest, under the same "Review before writing" setting.
      review: this.seams.review ?? reviewWhenNeeded(() => store.settings.reviewMode, modalReviewHook(this.app)),
      open: (path, newLeaf) => void this.app.workspace.openLinkText(path, "", newLeaf),
      // Mobile has no Node streaming transport: its replies arrive whole, and so does the answer.
      streaming: this.seams.streaming ?? Platform.isDesktopApp,
      ...(this.seams.createProvider ? { factory: this.seams.createProvider } : {}),
    });
    this.query = query;
    this.registerView(QUERY_VIEW_TYPE, (leaf) => new QueryView(leaf, query));
    this.registerHoverLinkSource(QUERY_VIEW_TYPE, { display: "Synapse: ask the wiki", defaultMod: true });
    this.addCommand({ id: "ask-the-wiki", name: "Ask the wiki", callback: () => void this.openQueryView() });
    this.addRibbonIcon("message-circle-question", "Ask the wiki", () => void this.openQueryView());
  }

  /** "Check wiki health": the service, its view and the command (no default hotkey). */
  private registerLint(store: SettingsStore, environment: PluginEnvironment, write: WriteContext, ingest: IngestService): void {
    const lint = new LintService({
      vault: new ObsidianVault(this.app),
      settings: store,
      environment,
      store: write.store,
      write,
      // Every lint write is shown as diffs first, whatever the ingest review setting says.
      review: this.seams.review ?? modalReviewHook(this.app),
      reingest: (note, signal) => ingest.planReingest(note, signal),
      open: (path, newLeaf) => void this.app.workspace.openLinkText(path, "", newLeaf),
      exists: (path) => this.app.vault.getFileByPath(path) !== null,
      ...(this.seams.createProvider ? { factory: this.seams.createProvider } : {}),
    });
    this.lint = lint;
    this.registerView(LINT_VIEW_TYPE, (leaf) => new LintView(leaf, lint));
    // The findings' page links ask Page preview for a popover, as Obsidian's own lists do.
    this.registerHoverLinkSource(LINT_VIEW_TYPE, { display: "Synapse: wiki health", defaultMod: true });
    this.addCommand({ id: "check-wiki-health", name: "Check wiki health", callback: () => void this.openLintView() });
  }

  /** Opens (or reveals) the wiki health view and runs the exact checks. */
  async openLintView(): Promise<LintView | null> {
    const { workspace } = this.app;
    let leaf = workspace.getLeavesOfType(LINT_VIEW_TYPE)[0] ?? null;
    if (!leaf) {
      leaf = workspace.getLeaf("tab");
      await leaf.setViewState({ type: LINT_VIEW_TYPE, active: true });
    }
    await workspace.revealLeaf(leaf);
    const view = leaf.view instanceof LintView ? leaf.view : null;
    await view?.check();
    return view;
  }

  /** Reveals the "Ask the wiki" view, opening it in the right sidebar the first time. */
  async openQueryView(): Promise<void> {
    const { workspace } = this.app;
    let leaf = workspace.getLeavesOfType(QUERY_VIEW_TYPE)[0] ?? null;
    if (!leaf) {
      leaf = workspace.getRightLeaf(false);
      if (!leaf) return;
      await leaf.setViewState({ type: QUERY_VIEW_TYPE, active: true });
    }
    await workspace.revealLeaf(leaf);
  }

  /** The settings in force (defaults until onload has read data.json). */
  get currentSettings(): Settings {
    return this.store?.settings ?? DEFAULT_SETTINGS;
  }

  override async onExternalSettingsChange(): Promise<void> {
    await this.store?.reload();
  }
}
