/**
 * Batch ingest in Obsidian: a folder sent as a batch, the batches recorded in the state folder
 * looked at now and then (a notice when results are in), and "Collect batch results". It runs the
 * same code as `synapse ingest --batch` and `synapse batch collect` (`src/batch/`), over the vault
 * through Obsidian, keys from Obsidian's secret storage and its transports; each note that is
 * complete goes through the plugin's review and the journal as one run. No Obsidian import: the
 * notices come in as a function, so this runs (and is tested) without them.
 */
import { messageOn, SynapseError, toSynapseError } from "../core/errors";
import { MemoryRunLogger } from "../core/log";
import { plural } from "../core/plural";
import type { InferenceProvider } from "../core/provider";
import type { BatchApi, RemoteStatus } from "../batch/batch-api";
import { collectBatch, startBatch, type StepOutcome } from "../batch/batch-ingest";
import { BatchStore } from "../batch/batch-store";
import { estimateIngest, type IngestEstimate } from "../batch/estimate";
import { BatchProviderSchema, isSettled, openRound, type BatchProvider, type BatchRecord } from "../batch/record";
import { recordSettings } from "../batch/record-settings";
import type { BatchDeps } from "../batch/rounds";
import { countsText, summarise } from "../batch/summary";
import type { FetchLike, ProviderEnvironment } from "../providers/environment";
import type { ProviderId, Settings } from "../settings/schema";
import type { WriteContext } from "../write/apply";
import type { IngestDeps } from "../wiki/ingest-types";
import type { ReviewHook } from "../wiki/review";
import { NO_BATCHES, type BatchSnapshot } from "./batch-progress";
import type { NoticeAction } from "./proposal-service";

/** How often the recorded batches are looked at: one status request per running batch. */
export const BATCH_CHECK_MS = 5 * 60_000;

const PROVIDER_NAMES: Readonly<Record<BatchProvider, string>> = { anthropic: "Anthropic", openai: "OpenAI" };

/** The SDK-backed pieces, loaded on first use (they bring the SDKs along). */
export interface BatchClients {
  batchApi(provider: BatchProvider, env: ProviderEnvironment, transport: FetchLike): BatchApi;
  createProvider(id: ProviderId, env: ProviderEnvironment): InferenceProvider;
}

export interface BatchServiceDeps {
  /** The plugin's write context: its state folder holds the batch records and their locks. */
  readonly write: WriteContext;
  readonly settings: () => Settings;
  /** The providers' environment for these settings: secret storage, requestUrl, the streaming transport. */
  readonly environment: (settings: Settings) => Promise<ProviderEnvironment>;
  /** What an ingest here writes through (the vault, the write path, the search index). */
  readonly ingestDeps: () => Promise<Omit<IngestDeps, "provider">>;
  /** The review as the plugin's ingest has it: the "Review before writing" setting, the review window. */
  readonly review: (signal: AbortSignal) => ReviewHook;
  readonly notify: (text: string, actions: readonly NoticeAction[], timeoutMs: number) => void;
  readonly clients?: () => Promise<BatchClients>;
}

async function loadClients(): Promise<BatchClients> {
  const [{ batchApi }, { createProvider }] = await Promise.all([import("../batch/batch-clients"), import("../providers/factory")]);
  return { batchApi, createProvider };
}

/** The plugin's two transports; its environment always has both (requestUrl, and Node's stream on desktop). */
function transportsOf(env: ProviderEnvironment): { fetch: FetchLike; streaming: FetchLike } {
  const { fetch, streamingFetch } = env;
  if (!fetch) throw new SynapseError("config", "Synapse has no transport for the batch API here.");
  return { fetch, streaming: streamingFetch ?? fetch };
}

/** The batch API the ingest provider has, if it has one (Anthropic, OpenAI). */
export function batchProviderOf(settings: Settings): BatchProvider | null {
  const parsed = BatchProviderSchema.safeParse(settings.operations.ingest);
  return parsed.success ? parsed.data : null;
}

/** "the vault" or "“Projects/Bees”". */
export function folderName(folder: string): string {
  return folder === "" ? "the vault" : `"${folder}"`;
}

/** Notes waiting for the next collect: results in, or a round to send again. */
function runningNotes(record: BatchRecord): number {
  return record.notes.filter((n) => n.state === "running").length;
}

/** What the user reads after a collect: where the batch is and what comes next. */
export function collectedText(outcome: StepOutcome): string {
  const { record, submitted, waiting } = outcome;
  const summary = summarise(record);
  const head = `Batch of ${plural(record.notes.length, "note")} from ${folderName(record.folder)}: ${countsText(summary)}.`;
  if (waiting) return `${head} Its requests are still ${waiting.status.replace(/_/g, " ")} at ${PROVIDER_NAMES[record.provider]}${waiting.total > 0 ? ` (${waiting.done} of ${waiting.total} done)` : ""}; Synapse tells you when the results are in.`;
  const next = submitted > 0 ? ` The next round went out (${plural(submitted, "request")}); Synapse tells you when its results are in.` : "";
  // The counts name how many failed; this says what to do about them.
  const failed = summary.notes.failed > 0 ? ` "Retry failed" ingests the failed ${summary.notes.failed === 1 ? "note" : "notes"} now, interactively, at the usual price.` : "";
  const changed = summary.notes.changed > 0 ? ` ${plural(summary.notes.changed, "note was", "notes were")} edited since ${summary.notes.changed === 1 ? "it was" : "they were"} sent and ${summary.notes.changed === 1 ? "was" : "were"} skipped; ingest ${summary.notes.changed === 1 ? "it" : "them"} again to take the edits in.` : "";
  return `${head}${next}${failed}${changed}`;
}

/** One line of "Show batch ingest status". */
export function statusLine(record: BatchRecord, remote: RemoteStatus | null): string {
  const summary = summarise(record);
  const where = `${folderName(record.folder)} with ${PROVIDER_NAMES[record.provider]} (${record.model})`;
  const round = summary.open
    ? remote
      ? remote.ended
        ? "results are in, waiting to be collected"
        : `${remote.status.replace(/_/g, " ")} at the provider${remote.total > 0 ? `, ${remote.done} of ${remote.total} requests done` : ""}`
      : summary.open.remoteId === null
        ? "a round waits to be sent again"
        : "at the provider"
    : isSettled(record)
      ? "finished"
      : "results taken in; the next collect sends the next round";
  return `${where}: ${countsText(summary)}; ${round}.`;
}

export class BatchService {
  readonly batches: BatchStore;
  /** Batch rounds already announced (`<id>#<round>`), so each "results are in" is said once. */
  private readonly announced = new Set<string>();
  /** The provider's last word on each batch's open round, for the status command. */
  private readonly remote = new Map<string, RemoteStatus>();
  private checking: Promise<void> | null = null;
  private readonly listeners = new Set<(snapshot: BatchSnapshot) => void>();
  private collecting: Promise<void> | null = null;
  /** Aborted when the plugin unloads: a collect stops between notes, writing nothing half. */
  private readonly stop = new AbortController();

  constructor(private readonly deps: BatchServiceDeps) {
    this.batches = new BatchStore(deps.write.store);
  }

  /** Called with where the batches stand whenever that may have changed (sent, looked at, collected); returns the unsubscribe. */
  subscribe(listener: (snapshot: BatchSnapshot) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Where the unfinished batches stand, from their records and the provider's last word on each
   * (no request is made: the status bar follows what the looks and collects learned).
   */
  async snapshot(): Promise<BatchSnapshot> {
    const { records } = await this.batches.list();
    const open = records.filter((r) => !isSettled(r));
    if (open.length === 0) return { ...NO_BATCHES, collecting: this.collecting !== null };
    const ready = open.filter((r) => {
      const round = openRound(r);
      return !round?.remoteId || this.remote.get(r.id)?.ended === true;
    });
    return {
      notes: open.reduce((n, r) => n + runningNotes(r), 0),
      lines: open.map((r) => statusLine(r, this.remote.get(r.id) ?? null)),
      ready: ready.length,
      collecting: this.collecting !== null,
    };
  }

  /** Tells the listeners; a state folder unreadable for a moment leaves the last picture up. */
  private async publish(): Promise<void> {
    if (this.listeners.size === 0) return;
    try {
      const snapshot = await this.snapshot();
      for (const listener of this.listeners) listener(snapshot);
    } catch (error) {
      console.error("Synapse: could not read the batch ingests for the status bar", error);
    }
  }

  /** The estimate both ways for these notes with the ingest provider's model, or null without a batch API. */
  async estimate(notePaths: readonly string[]): Promise<{ provider: BatchProvider; model: string; estimate: IngestEstimate } | null> {
    const settings = this.deps.settings();
    const provider = batchProviderOf(settings);
    if (!provider) return null;
    const { vault } = await this.deps.ingestDeps();
    const texts = await Promise.all(notePaths.map((p) => vault.read(p).catch(() => "")));
    const model = settings.profiles[provider].model.trim();
    return { provider, model, estimate: estimateIngest(texts, model || null, settings.prices) };
  }

  /** Sends the notes as a batch (round 1: every analysis); resolves once it is recorded and sent, or the failure said. */
  async start(folder: string, notePaths: readonly string[]): Promise<BatchRecord | null> {
    const settings = this.deps.settings();
    const provider = batchProviderOf(settings);
    if (!provider) {
      this.deps.notify("The ingest backend has no batch API: batches go through Anthropic or OpenAI.", [], 10000);
      return null;
    }
    try {
      const deps = await this.session(provider, settings);
      const model = settings.profiles[provider].model.trim();
      const outcome = await startBatch(deps, { folder, notePaths, provider, model, flags: { baseUrl: null, maxIter: null, lang: null } });
      const failed = outcome.record.notes.filter((n) => n.state === "failed").length;
      const unread = failed > 0 ? ` ${plural(failed, "note")} could not be read and ${failed === 1 ? "was" : "were"} left out.` : "";
      this.deps.notify(
        `Sent ${plural(outcome.submitted, "note")} from ${folderName(folder)} as a batch to ${PROVIDER_NAMES[provider]} (${model}): results within hours, at half the price.${unread} Closing Obsidian loses nothing; Synapse tells you when the results are in.`,
        [],
        15000,
      );
      await this.publish();
      return outcome.record;
    } catch (error) {
      this.deps.notify(`Synapse could not send the batch: ${messageOn(toSynapseError(error, "config"), "plugin")}`, [], 15000);
      return null;
    }
  }

  /**
   * Looks at the recorded batches and says, once per round, when results are in (at load, then on
   * an interval). A look already under way is joined, so a slow network never doubles a notice.
   */
  check(): Promise<void> {
    this.checking ??= this.look()
      .then(() => this.publish())
      .finally(() => (this.checking = null));
    return this.checking;
  }

  private async look(): Promise<void> {
    let ready: BatchRecord[];
    try {
      ready = await this.ready();
    } catch (error) {
      // The state folder or the network being unreadable for a moment is no reason to interrupt the user.
      console.error("Synapse: could not look at the batch ingests", error);
      return;
    }
    const fresh = ready.filter((r) => !this.announced.has(`${r.id}#${r.rounds.length}`));
    if (fresh.length === 0) return;
    for (const r of fresh) this.announced.add(`${r.id}#${r.rounds.length}`);
    const notes = fresh.reduce((n, r) => n + runningNotes(r), 0);
    this.deps.notify(`Batch results are in for ${plural(notes, "note")}.`, [{ label: "Collect", run: () => void this.collect() }], 0);
  }

  /** The batches a collect would carry on now: a round that ended at the provider, or one to send (again). */
  private async ready(): Promise<BatchRecord[]> {
    const { records } = await this.batches.list();
    const out: BatchRecord[] = [];
    for (const record of records.filter((r) => !isSettled(r))) {
      const round = openRound(record);
      if (!round?.remoteId) {
        out.push(record);
        continue;
      }
      const status = await this.statusOf(record, round.remoteId).catch((error: unknown) => {
        console.error(`Synapse: could not ask for the status of batch ${record.id}`, error);
        return null;
      });
      if (status?.ended) out.push(record);
    }
    return out;
  }

  private async statusOf(record: BatchRecord, remoteId: string): Promise<RemoteStatus> {
    const settings = recordSettings(this.deps.settings(), record);
    const env = await this.deps.environment(settings);
    const clients = await (this.deps.clients ?? loadClients)();
    const status = await clients.batchApi(record.provider, env, transportsOf(env).fetch).status(remoteId);
    this.remote.set(record.id, status);
    return status;
  }

  /** "Show batch ingest status": one line per batch that is not finished (or has notes to retry). */
  async status(): Promise<void> {
    try {
      const { records } = await this.batches.list();
      const shown = records.filter((r) => !isSettled(r) || r.notes.some((n) => n.state === "failed"));
      if (shown.length === 0) {
        this.deps.notify("No batch ingest is running.", [], 6000);
        return;
      }
      const lines: string[] = [];
      for (const record of shown) {
        const round = openRound(record);
        const remote = round?.remoteId ? await this.statusOf(record, round.remoteId).catch(() => this.remote.get(record.id) ?? null) : null;
        lines.push(statusLine(record, remote));
      }
      const failed = shown.some((r) => r.notes.some((n) => n.state === "failed"));
      await this.publish();
      this.deps.notify(`Batch ingests: ${lines.join(" ")}`, failed ? [{ label: "Retry failed", run: () => void this.collect({ retryFailed: true }) }] : [], 15000);
    } catch (error) {
      this.deps.notify(`Synapse could not read the batch ingests: ${messageOn(toSynapseError(error, "vault"), "plugin")}`, [], 10000);
    }
  }

  /**
   * "Collect batch results": every batch with something to do is carried on one step — results
   * taken in, complete notes reviewed and applied (one run each), the next round sent. With
   * `retryFailed`, failed notes are ingested interactively, reusing what the batch answered.
   */
  collect(options: { readonly retryFailed?: boolean } = {}): Promise<void> {
    if (this.collecting) {
      this.deps.notify("Synapse is already collecting batch results.", [], 6000);
      return this.collecting;
    }
    this.collecting = this.collectAll(options.retryFailed === true).finally(async () => {
      this.collecting = null;
      await this.publish();
    });
    void this.publish();
    return this.collecting;
  }

  /** Resolves once a collect under way (from the command or a notice) has finished. */
  settled(): Promise<void> {
    return this.collecting ?? Promise.resolve();
  }

  private async collectAll(retryFailed: boolean): Promise<void> {
    let records: readonly BatchRecord[];
    try {
      records = (await this.batches.list()).records.filter((r) => !isSettled(r) || (retryFailed && r.notes.some((n) => n.state === "failed")));
    } catch (error) {
      this.deps.notify(`Synapse could not read the batch ingests: ${messageOn(toSynapseError(error, "vault"), "plugin")}`, [], 10000);
      return;
    }
    if (records.length === 0) {
      this.deps.notify(retryFailed ? "No failed batch notes to retry." : "No batch ingest is waiting.", [], 6000);
      return;
    }
    for (const record of records) {
      if (this.stop.signal.aborted) return;
      try {
        const deps = await this.session(record.provider, recordSettings(this.deps.settings(), record));
        const outcome = await collectBatch(deps, record.id, { retryFailed });
        if (outcome.waiting) this.remote.set(record.id, outcome.waiting);
        else this.remote.delete(record.id);
        if (this.stop.signal.aborted) return;
        const failed = outcome.record.notes.some((n) => n.state === "failed");
        const actions: NoticeAction[] = failed ? [{ label: "Retry failed", run: () => void this.collect({ retryFailed: true }) }] : [];
        this.deps.notify(collectedText(outcome), actions, failed ? 0 : 10000);
      } catch (error) {
        this.deps.notify(`Synapse could not collect the batch from ${folderName(record.folder)}: ${messageOn(toSynapseError(error, "unavailable"), "plugin")}`, [], 15000);
      }
    }
  }

  /** What the batch steps run on for this provider: its batch API, the adapter over any transport, the plugin's ingest. */
  private async session(provider: BatchProvider, settings: Settings): Promise<BatchDeps> {
    const env = await this.deps.environment(settings);
    const clients = await (this.deps.clients ?? loadClients)();
    const transports = transportsOf(env);
    const api = clients.batchApi(provider, env, transports.fetch);
    // Built once here so a missing key is said before anything is read or sent.
    clients.createProvider(provider, env);
    const logger = new MemoryRunLogger(settings.logContent);
    return {
      vault: (await this.deps.ingestDeps()).vault,
      store: this.batches,
      write: this.deps.write,
      api,
      providerOver: (over) => clients.createProvider(provider, { ...env, fetch: over, streamingFetch: over }),
      // A retry's interactive requests go out as the plugin's ingests do (streamed where Node's transport is).
      fetch: transports.streaming,
      now: () => Date.now(),
      signal: this.stop.signal,
      ingest: async (notePath, passProvider, signal, beforeWrite) => {
        const { ingestNote } = await import("../wiki/ingest-note");
        const review = this.deps.review(signal);
        const base = await this.deps.ingestDeps();
        return ingestNote(
          { ...base, settings, provider: passProvider },
          { notePath, signal, log: logger, review: (plan) => (beforeWrite() ? review(plan) : Promise.resolve([])) },
        );
      },
    };
  }

  dispose(): void {
    this.stop.abort();
  }
}
