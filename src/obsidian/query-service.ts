/**
 * Runs "Ask the wiki" for the plugin: builds the provider chosen for the "query" operation, hands
 * the question to the core's `askWiki` with the vault's index, keeps the conversation per vault,
 * and files answers back through the write path. The view only displays what this returns.
 */
import { summariseError, toSynapseError } from "../core/errors";
import { MemoryRunLogger } from "../core/log";
import type { Retriever } from "../retrieval";
import { askWiki, type AskReport } from "../query/ask";
import { QueryHistory, type Turn } from "../query/history";
import { planAnswerPage, saveReviewTitle } from "../query/save";
import type { QueryController } from "../ui/query-view";
import type { StateStore } from "../vault/state-store";
import { applyPlan, type WriteContext } from "../write/apply";
import { previewChanges, selectReviewed, type ReviewHook } from "../wiki/review";
import { effectiveWikiFolder } from "../wiki/page-paths";
import type { PluginEnvironment } from "./environment";
import type { ProviderFactory } from "./ingest-service";
import { providerServices } from "./ingest-service";
import type { ObsidianVault } from "./obsidian-vault";
import type { SettingsStore } from "./settings-store";

export interface QueryServiceDeps {
  readonly vault: ObsidianVault;
  readonly settings: SettingsStore;
  readonly environment: PluginEnvironment;
  readonly store: StateStore;
  readonly write: () => WriteContext;
  /** The vault's search index (built and kept up to date in the background). */
  readonly retriever: () => Promise<Retriever>;
  /** Shows the planned page and says whether to write it (the review step every write takes). */
  readonly review: ReviewHook;
  /** False where replies cannot stream (mobile): the view then receives the answer whole. */
  readonly streaming: boolean;
  readonly open: (path: string, newLeaf: boolean) => void;
  readonly factory?: ProviderFactory;
  readonly now?: () => number;
}

export class QueryService implements QueryController {
  private readonly conversation: QueryHistory;
  private turnsCache: Turn[] | null = null;

  constructor(private readonly deps: QueryServiceDeps) {
    this.conversation = new QueryHistory(deps.store);
  }

  async ask(question: string, options: { general: boolean; signal: AbortSignal; onText: (text: string) => void }): Promise<AskReport> {
    const settings = this.deps.settings.settings;
    const id = settings.operations.query;
    const logger = new MemoryRunLogger(settings.logContent);
    const turns = await this.turns();
    let report: AskReport;
    try {
      const env = await this.deps.environment.build(settings, logger);
      const provider = this.deps.factory ? this.deps.factory(id, env) : await providerServices.createProvider(id, env);
      report = await askWiki(
        { vault: this.deps.vault, provider, retriever: await this.deps.retriever(), settings, ...(this.deps.now ? { now: this.deps.now } : {}) },
        {
          question,
          history: QueryHistory.messages(turns.slice(-6)),
          general: options.general,
          signal: options.signal,
          log: logger,
          ...(this.deps.streaming ? { onText: options.onText } : {}),
        },
      );
    } catch (error) {
      const e = toSynapseError(error, "config");
      report = {
        question,
        answer: "",
        grounding: "none",
        citations: [],
        unverifiedWarning: null,
        passages: [],
        consulted: [],
        leftOut: 0,
        usage: { inputTokens: 0, outputTokens: 0, costUsd: null },
        provider: { name: id, mode: "offline", isLocal: false, model: null },
        error: summariseError(e),
        durationMs: 0,
      };
    }
    if (!report.error) {
      const turn: Turn = { question, answer: report.answer, at: new Date((this.deps.now ?? Date.now)()).toISOString(), citations: report.citations.map((c) => ({ page: c.page, path: c.path, verified: c.verified })) };
      this.turnsCache = [...turns, turn];
      await this.conversation.add(turn);
    }
    return report;
  }

  async save(report: AskReport, withConversation: boolean): Promise<string | null> {
    const settings = this.deps.settings.settings;
    const wikiFolder = effectiveWikiFolder(settings.wikiFolder);
    const now = this.deps.now ?? (() => Date.now());
    const conversation = withConversation ? (await this.turns()).filter((t) => t.question !== report.question) : [];
    const change = await planAnswerPage(this.deps.vault, wikiFolder, report, conversation, new Date(now()).toISOString().slice(0, 10));
    const previews = await previewChanges(this.deps.vault, [change]);
    const selection = await this.deps.review({ notePath: "", sourceTitle: report.question, title: saveReviewTitle(report.question), dryRun: false, changes: previews });
    const chosen = selectReviewed([change], previews, selection);
    if (chosen.length === 0) return null;
    await applyPlan(this.deps.vault, chosen, { ...this.deps.write(), operation: "query", label: report.question, wikiFolder, now });
    return change.path;
  }

  history(): Promise<Turn[]> {
    return this.turns();
  }

  async clear(): Promise<void> {
    this.turnsCache = [];
    await this.conversation.clear();
  }

  open(path: string, newLeaf: boolean): void {
    this.deps.open(path, newLeaf);
  }

  private async turns(): Promise<Turn[]> {
    this.turnsCache ??= await this.conversation.turns();
    return this.turnsCache;
  }
}
