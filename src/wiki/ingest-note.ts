/**
 * One ingest, end to end: perimeter → read → wiki context → orchestrate → plan → apply.
 * Expected failures come back in the report, never as exceptions, and a run that did not converge,
 * was cancelled or failed writes nothing.
 */
import { costText, type CostBackend } from "../core/cost-text";
import { SynapseError, summariseError, toSynapseError } from "../core/errors";
import { orchestrate, type RunResult } from "../core/orchestrator";
import { Perimeter } from "../core/perimeter";
import { usageCost } from "../core/pricing";
import { fixedWikiLanguage } from "../core/wiki-language";
import { createRunContext, throwIfStopped } from "../core/run-context";
import { sourceChecker } from "../core/source-check";
import { nameKey } from "../core/unicode";
import type { UsageAccumulator, UsageSummary } from "../core/usage";
import { contextEvent } from "./context-pack";
import { DEFAULT_ANSWER_TOKENS, buildIngestContext, contextBudget, promptTokensFor, type IngestContext } from "./ingest-context";
import { buildWikiContext } from "./related-pages";
import { MemoryStateStore } from "../vault/memory-state-store";
import { applyPlan, type WriteContext } from "../write/apply";
import { indexPath, logPath } from "./index-log";
import { contradictionsFoundChange, readContradictions, type Contradiction } from "./contradictions";
import type { IngestDeps, IngestReport, IngestRequest, IngestStopReason, LockedPage, PageAction, PageChange } from "./ingest-types";
import type { ChangeAction, PlannedChange, PlannedStateChange } from "../write/planned-change";
import { basenameOf, effectiveWikiFolder } from "./page-paths";
import type { StateStore } from "../vault/state-store";
import type { VaultPort } from "../vault/vault-port";
import { planPages, type PlannedPage } from "./plan";
import { isInFolder, isUnreadableNote, normaliseNotePath, readNote } from "./read-note";
import { previewChanges, selectReviewed } from "./review";
import { readHistory, undoneIds } from "../write/run-history";
import { shareablePages } from "./shareable-pages";
import { planInputs, recordMove } from "./moved-note";
import { existsApart } from "./spelling-twins";
import { markedSources } from "./provenance";
import { MatchVerdicts } from "./match-verdicts";
import { modelConfirm } from "./model-confirm";
import { userNotes, type LinkedNote } from "./canon-notes";
import { noteFingerprint, SourceRegistry, type UpToDate } from "./source-registry";
import { leaveOutDeleted, NOT_WRITTEN_AGAIN, refusalsChange, reviewRejections, withRejections } from "./ingest-refusals";
import { readRejections } from "./rejections";

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Whether the contradictions record can be read (and so added to); a damaged one becomes a warning. */
async function readableRecord(store: StateStore, warnings: string[]): Promise<boolean> {
  try {
    await readContradictions(store);
    return true;
  } catch (cause) {
    warnings.push(cause instanceof Error ? cause.message : String(cause));
    return false;
  }
}

/** Without a write context from the root (tests), runs are journaled in memory only. */
function defaultWriteContext(store: StateStore = new MemoryStateStore()): WriteContext {
  return { store, writer: { kind: "cli", pid: null, host: null } };
}

/** The log.md lines after the pages: what was ingested, with what, at what cost. */
function logDetails(notePath: string, sourceTitle: string, provider: string, backend: CostBackend, usage: UsageAccumulator, cost: number | null): string[] {
  const t = usage.totals();
  return [
    `source: [[${notePath.replace(/\.md$/i, "")}|${sourceTitle.replace(/[[\]|]/g, " ")}]]`,
    `provider: ${provider}`,
    `tokens: ${t.inputTokens.toLocaleString("en-US")} in, ${t.outputTokens.toLocaleString("en-US")} out`,
    // log.md is a ledger a reader may add up: a price stays exact to the hundredth of a cent, not "~".
    `cost: ${cost !== null && cost > 0 ? `$${cost.toFixed(4)}` : costText(cost, backend)}`,
  ];
}

/** The prompt cache's reads and writes, only when there were some (reports before caching had neither). */
function cacheParts(usage: UsageAccumulator): { cacheReadTokens?: number; cacheWriteTokens?: number } {
  const { cacheReadTokens, cacheWriteTokens } = usage.cache();
  return { ...(cacheReadTokens > 0 ? { cacheReadTokens } : {}), ...(cacheWriteTokens > 0 ? { cacheWriteTokens } : {}) };
}

/** Cost the providers reported (agent runs), else an estimate from the price table. */
function runCost(usage: UsageAccumulator, model: string | null, prices: IngestDeps["settings"]["prices"]): number | null {
  const reported = usage.entries.filter((e) => e.costUsd !== undefined);
  if (reported.length > 0) return reported.reduce((sum, e) => sum + (e.costUsd ?? 0), 0);
  // No model, no cost. A model without a price has no cost to tell, even for a run that failed
  // before spending anything: "$0" would read as "priced, and free".
  if (model === null) return 0;
  return usageCost(usage.entries, model, prices);
}

/** Without a link resolver (outside Obsidian), the vault listing tells which notes exist. */
function namesIn(paths: readonly string[]): (basename: string) => boolean {
  const names = new Set(paths.map((p) => nameKey(basenameOf(p))));
  return (basename) => names.has(nameKey(basename));
}

/** One listing of the vault (or of the wiki folder alone) serves both the wiki's pages and, outside Obsidian, the note names. */
async function listWiki(vault: VaultPort, wikiFolder: string, special: ReadonlySet<string>, everyNote: boolean): Promise<{ pages: string[]; everything: string[] }> {
  const everything = everyNote ? await vault.list("") : [];
  const listed = everyNote ? everything.filter((p) => isInFolder(p, wikiFolder)) : await vault.list(wikiFolder);
  return { pages: listed.filter((p) => !special.has(p)), everything };
}

/** Notes in the run log what the context holds and what did not fit. */
async function logged(request: IngestRequest, building: Promise<IngestContext>): Promise<IngestContext> {
  const context = await building;
  request.log?.context?.(contextEvent(context.packed));
  return context;
}

/** An ingest never removes a page; a change it planned as a removal is reported as it stands. */
function pageAction(action: ChangeAction): PageAction {
  return action === "removed" ? "unchanged" : action;
}

function stopReasonOf(result: RunResult | null, error: SynapseError | null, upToDate: UpToDate | null): IngestStopReason {
  if (upToDate && !error) return "up_to_date";
  if (!error) return result?.stopReason ?? "error";
  if (error.kind === "cancelled") return "cancelled";
  if (isUnreadableNote(error)) return "unreadable";
  // A failure after convergence (while writing) is an error, whatever the loop said.
  return result && result.stopReason !== "converged" ? result.stopReason : "error";
}

/**
 * An ingest planned in full but not written: its file changes and the records that go with them,
 * for a caller that writes them in its own run (lint's "re-ingest" fix, so that the whole lint run
 * is one run, undone in one step).
 */
export interface DeferredIngest {
  readonly notePath: string;
  readonly sourceTitle: string;
  /** The pages as planned (review them with the caller's own changes). */
  readonly changes: readonly PlannedChange[];
  /** The note's registry entry and the contradictions found, as part of the caller's run. */
  readonly state: readonly PlannedStateChange[];
  /** The same, for a run whose review left out the changes of these pages (the note is then partly applied). */
  readonly stateLeavingOut: (leftOut: readonly string[]) => Promise<readonly PlannedStateChange[]>;
  /** Lines for the caller's log.md entry: the source, provider, tokens, cost. */
  readonly logDetails: readonly string[];
  /** What planning it spent (the model calls are made by then), for the caller's report. */
  readonly usage: UsageSummary;
}

export async function ingestNote(deps: IngestDeps, request: IngestRequest): Promise<IngestReport> {
  return (await runIngest(deps, request, false)).report;
}

/**
 * Everything an ingest does up to the write — perimeter, read, context, analyse, generate, plan —
 * and returns the plan instead of writing it (no review: the caller reviews). `plan` is null when
 * the ingest stopped (see the report) or the note is already up to date.
 */
export async function planIngest(deps: IngestDeps, request: Omit<IngestRequest, "review" | "dryRun">): Promise<{ report: IngestReport; plan: DeferredIngest | null }> {
  return runIngest(deps, request, true);
}

async function runIngest(deps: IngestDeps, request: IngestRequest, defer: boolean): Promise<{ report: IngestReport; plan: DeferredIngest | null }> {
  let deferred: DeferredIngest | null = null;
  const now = deps.now ?? (() => Date.now());
  const started = now();
  const { settings, vault, provider } = deps;
  const caps = provider.capabilities();
  const wikiFolder = effectiveWikiFolder(settings.wikiFolder);
  const wikiLanguage = fixedWikiLanguage(settings.wikiLanguage);
  const perimeter = new Perimeter({ localOnly: settings.localOnly, excludedFolders: settings.excludedFolders });
  const run = createRunContext({
    ...(request.signal ? { signal: request.signal } : {}),
    timeoutMs: settings.runTimeoutSeconds * 1000,
    ...(request.progress ? { progress: request.progress } : {}),
    ...(request.log ? { log: request.log } : {}),
    ...(wikiLanguage ? { wikiLanguage } : {}),
    now,
  });
  let result: RunResult | null = null;
  let pages: PageChange[] = [];
  let contradictions: Contradiction[] = [];
  let locked: LockedPage[] = [];
  const warnings: string[] = [];
  const linkedNotes: LinkedNote[] = [];
  let declined: PageChange[] = [];
  let upToDate: UpToDate | null = null;
  let error: SynapseError | null = null;
  // The registry is written by runs, so it lives where runs are journaled.
  const write = deps.write ?? defaultWriteContext(deps.state);
  const registry = deps.write || deps.state ? new SourceRegistry(write.store) : null;

  try {
    const notePath = normaliseNotePath(request.notePath);
    // The perimeter speaks before the note is even read.
    perimeter.admitNote(notePath);
    perimeter.admitProvider(provider);
    // A link into an excluded folder is still that folder.
    const realPath = vault.realPath
      ? await vault.realPath(notePath).catch((cause: unknown) => {
          throw new SynapseError("input", toSynapseError(cause).message, { cause });
        })
      : notePath;
    if (realPath !== notePath) perimeter.admitNote(realPath);
    request.progress?.({ type: "phase", phase: "reading" });
    const text = await readNote(vault, notePath, settings.maxNoteBytes, wikiFolder);
    const fingerprint = registry ? await noteFingerprint(text) : null;
    if (registry && fingerprint && !request.force) {
      const markedIn = async (page: string) => ((await vault.stat(page)) ? markedSources(await vault.read(page)) : []);
      const found = await registry.match(notePath, fingerprint, wikiFolder, (p) => existsApart(vault, p, notePath), markedIn);
      // A moved note keeps its record under its new path (under the write lock, journaled, no run
      // of its own), also when it is not up to date (its ingest left changes out, or lost pages):
      // that ingest then revises its sections as the same source. In a dry run nothing is
      // recorded. Failing to only costs finding the move again.
      if (found?.movedFrom && !request.dryRun) {
        await recordMove(vault, write, { from: found.movedFrom, to: notePath, proven: true, now }).catch((cause: unknown) => {
          warnings.push(`The note's new path was not recorded: ${toSynapseError(cause).message}`);
        });
      }
      upToDate = found?.complete ? { entry: found.entry, movedFrom: found.movedFrom } : null;
      // An undo of the run that recorded it took its pages back: the note must be ingested again.
      if (upToDate?.entry.runId && undoneIds((await readHistory(write.store)).runs).has(upToDate.entry.runId)) upToDate = null;
    }
    if (upToDate) return finish();
    const special = new Set([indexPath(wikiFolder), logPath(wikiFolder)]);
    // With the index's catalogue, nothing lists the vault: names and the page count are lookups.
    const catalog = deps.retriever ? deps.catalog : undefined;
    const wiki = catalog ? null : await listWiki(vault, wikiFolder, special, deps.linkExists === undefined);
    const pagePaths = wiki?.pages ?? [];
    const wikiNamed = (name: string) => (catalog ? catalog.pathsNamed(name).filter((p) => isInFolder(p, wikiFolder) && !special.has(p)) : []);
    // Pages in excluded folders (even inside the wiki), or drawn from notes there, are neither
    // quoted nor named to the model. With retrieval, only the pages it returns are checked.
    const isShareable = async (path: string) => !special.has(path) && (await shareablePages(vault, [path], settings.excludedFolders)).length === 1;
    const fused = deps.retriever
      ? await logged(request, buildIngestContext({
          retriever: deps.retriever,
          noteText: text,
          notePath,
          wikiFolder,
          budgetTokens: contextBudget({
            maxContext: caps.maxContext,
            answerTokens: deps.answerTokens ?? DEFAULT_ANSWER_TOKENS,
            promptTokens: promptTokensFor(text),
            runTokenBudget: settings.tokenBudget,
          }),
          shareable: isShareable,
          pageCount: catalog ? catalog.pageCount() : pagePaths.length,
          ...(request.signal ? { signal: request.signal } : {}),
        }))
      : null;
    const context = fused ?? (await buildWikiContext(vault, wikiFolder, await shareablePages(vault, pagePaths, settings.excludedFolders), text));
    const shortlist = fused?.candidates ?? [];
    const known = new Set(pagePaths.map((p) => nameKey(basenameOf(p))));
    const noteExists = deps.linkExists ?? (catalog ? (name: string) => catalog.linkExists?.(name) ?? catalog.pathsNamed(name).length > 0 : namesIn(wiki?.everything ?? []));
    const ingestRun = { ...run, source: { path: notePath, text } };
    // What the user refused of this note's pages before: the model is told, deleted pages stay deleted.
    const refused = registry ? await readRejections(write.store, notePath).catch(() => []) : [];
    const guarded = perimeter.guard(provider);

    result = await orchestrate(
      guarded,
      {
        maxIter: settings.maxIter,
        tokenBudget: settings.tokenBudget,
        retrievalContext: withRejections(context.retrievalContext, refused),
        vaultContext: context.vaultContext,
        linkExists: (name) => known.has(nameKey(name)) || wikiNamed(name).length > 0 || noteExists(name),
        checkSources: sourceChecker({
          excludedFolders: settings.excludedFolders,
          bookkeeping: special,
          admitted: [notePath],
          exists: async (path) => (await vault.stat(path)) !== null,
          ...(vault.realPath ? { realPath: (path: string) => vault.realPath?.(path) ?? Promise.resolve(path) } : {}),
        }),
      },
      ingestRun,
    );
    if (result.error) throw result.error;
    if (result.converged) {
      request.progress?.({ type: "phase", phase: "writing" });
      const sourceTitle = result.analysis?.title || basenameOf(notePath);
      const date = isoDay(now());
      // With the catalogue, the duplicate check looks at retrieval's shortlist and at the pages named
      // like the new ones, not at every page of the wiki. A moved note's pages are found under its former path.
      const inputs = await planInputs({ vault, registry, notePath, wikiFolder, yielded: result.pages, pagePaths, ...(catalog ? { index: { shortlist, wikiNamed } } : {}) });
      const { moved } = inputs;
      // Pairs of titles already judged (by the model, or kept apart by the user) are not asked again.
      const verdicts = await MatchVerdicts.load(write.store).catch(() => MatchVerdicts.inMemory());
      const plannedAll: PlannedPage[] = await planPages(result.pages, {
        vault,
        wikiFolder,
        existingPaths: pagePaths,
        ...(catalog ? { existingNamed: wikiNamed } : {}),
        registry: inputs.pages,
        formerSources: moved.formerPaths,
        sourceTitle,
        sourcePath: notePath,
        date,
        noteExists,
        verdicts,
        // With a model, a similar page is its page only if the model says so; without one, the threshold.
        ...(caps.model !== null ? { confirm: modelConfirm({ provider: guarded, run, verdicts }) } : {}),
        // An agent returns only the pages it wrote; any other backend returns all the note yields.
        retractUnyielded: !caps.supportsAgenticLoop,
        canon: { mode: settings.userNoteCanon, notes: userNotes(vault, { wikiFolder, excludedFolders: settings.excludedFolders, notePath, ...(catalog ? { named: (name: string) => catalog.pathsNamed(name) } : {}) }) },
        onLinkedNote: (link) => linkedNotes.push(link),
      });
      const previous = registry ? ((await registry.entry(notePath))?.pages ?? []) : [];
      const deleted = leaveOutDeleted(plannedAll, previous, refused, request.force === true, new Date(now()).toISOString());
      const planned = deleted.planned;
      // Last chance to cancel before the review: from here on the plan is applied whole or not at all.
      throwIfStopped(run);
      const saveVerdicts = async () => {
        if (!request.dryRun) await verdicts.save().catch((cause: unknown) => warnings.push(`What the model said about similar titles was not kept: ${toSynapseError(cause).message}`));
      };
      await saveVerdicts();
      if (defer) {
        const providerName = caps.model ? `${caps.name} (${caps.model})` : caps.name;
        const yielded = planned.filter((p) => p.locked === undefined && p.action !== "removed").map((p) => p.path);
        const found = planned.flatMap((p) => p.contradictions ?? []);
        const stateLeavingOut = async (leftOut: readonly string[]) => [
          ...(registry && fingerprint
            ? await registry.recordChange(notePath, { hash: fingerprint, ingestedAt: new Date(now()).toISOString(), wikiFolder, pages: yielded.filter((p) => !leftOut.includes(p)), leftOut }, moved.movedFrom)
            : []),
          ...(found.length > 0 ? [contradictionsFoundChange(found, date)] : []),
        ];
        const state = await stateLeavingOut([]);
        const cost = runCost(run.usage, caps.model, settings.prices);
        const spent = run.usage.totals();
        deferred = {
          notePath,
          sourceTitle,
          changes: planned,
          state,
          stateLeavingOut,
          logDetails: logDetails(notePath, sourceTitle, providerName, caps, run.usage, cost),
          usage: { inputTokens: spent.inputTokens, outputTokens: spent.outputTokens, costUsd: cost },
        };
        pages = planned.filter((p) => p.locked === undefined).map((p) => ({ path: p.path, type: p.type, title: p.title, action: pageAction(p.action) }));
        contradictions = found;
        return finish();
      }
      let chosen = planned;
      const reasons = new Map<string, string>();
      let rejected: ReturnType<typeof reviewRejections> = [];
      if (request.review) {
        const previews = await previewChanges(vault, planned);
        const changes = previews.filter((c) => c.action !== "unchanged");
        const selection = await request.review({ notePath, sourceTitle, dryRun: request.dryRun === true, changes, onReason: (path, reason) => reasons.set(path, reason) });
        // The user may take their time: only a cancel stops the run now, not the model's deadline.
        if (run.signal.aborted) throw new SynapseError("cancelled", "The run was cancelled.");
        chosen = selectReviewed(planned, previews, selection);
        const kept = new Set(chosen.map((c) => c.path));
        const left = changes.filter((c) => !kept.has(c.path));
        declined = left.map((c) => ({ path: c.path, type: c.type, title: c.title, action: pageAction(c.action) }));
        rejected = reviewRejections(left, reasons, new Date(now()).toISOString());
        // A match left out keeps the two subjects apart at the next ingest.
        for (const change of left) if (change.match) verdicts.refuse(change.match);
        await saveVerdicts();
      }
      const refusals = request.dryRun ? [] : refusalsChange(write.writer, notePath, [...deleted.remember, ...rejected], deleted.forget);
      // A review that kept no change writes nothing at all, not even a log entry.
      const writesSomething = declined.length === 0 || chosen.some((c) => c.action !== "unchanged");
      const providerName = caps.model ? `${caps.name} (${caps.model})` : caps.name;
      // The note's registry entry is written by the same run as its pages (undone with them).
      const yieldedPages = chosen.filter((p) => p.locked === undefined && p.action !== "removed").map((p) => p.path);
      // Sections still under a former path (on pages left out at review, or an agent did not return) keep it.
      const formerPaths = declined.length > 0 || caps.supportsAgenticLoop ? moved.formerPaths : [];
      const leftOut = declined.map((d) => d.path);
      const entry = { hash: fingerprint ?? "", ingestedAt: new Date(now()).toISOString(), wikiFolder, pages: yieldedPages, formerPaths, leftOut };
      const recorded = registry && fingerprint && !request.dryRun && writesSomething ? await registry.recordChange(notePath, entry, moved.movedFrom) : [];
      contradictions = chosen.flatMap((p) => p.contradictions ?? []);
      // The contradictions go into the record in the same run as the pages that show them, so an undo
      // of the ingest takes them out again. The pages show them either way: a record lint cannot
      // read is reported and left as it is, never a failed ingest.
      const recordable = contradictions.length > 0 && deps.write && !request.dryRun && writesSomething ? await readableRecord(write.store, warnings) : false;
      const written =
        request.dryRun || !writesSomething
          ? null
          : await applyPlan(vault, chosen, {
              ...write,
              operation: "ingest",
              label: sourceTitle,
              wikiFolder,
              now,
              ...(catalog ? {} : { existingPages: pagePaths }),
              logDetails: logDetails(notePath, sourceTitle, providerName, caps, run.usage, runCost(run.usage, caps.model, settings.prices)),
              state: [...recorded, ...(recordable ? [contradictionsFoundChange(contradictions, date)] : []), ...refusals],
            });
      // Everything declined: the reasons are still remembered (records alone, no run of their own).
      if (!written && !writesSomething && refusals.length > 0) await applyPlan(vault, [], { ...write, operation: "ingest", label: sourceTitle, wikiFolder, now, state: refusals });
      const applied = written?.changes ?? chosen;
      const actions = new Map(applied.map((a) => [a.path, a.action]));
      if (catalog && !request.dryRun) {
        // The next ingest retrieves what this one wrote; a failure here only delays that to the next sync.
        await catalog.refresh(applied.filter((a) => a.action !== "unchanged").map((a) => a.path)).catch((cause: unknown) => {
          warnings.push(`The search index was not updated: ${cause instanceof Error ? cause.message : String(cause)}`);
        });
      }
      pages = chosen
        .filter((p) => p.locked === undefined)
        .map((p) => ({ path: p.path, type: p.type, title: p.title, action: pageAction(actions.get(p.path) ?? p.action), ...(p.detail ? { detail: p.detail } : {}) }))
        .concat(deleted.notWritten.map((p) => ({ path: p.path, type: p.type, title: p.title, action: "unchanged" as const, ...NOT_WRITTEN_AGAIN })));
      locked = planned.flatMap((p) => (p.locked !== undefined ? [{ path: p.path, title: p.title, wouldAdd: p.locked }] : []));
    }
  } catch (thrown) {
    error = toSynapseError(thrown);
  }

  return finish();

  function finish(): { report: IngestReport; plan: DeferredIngest | null } {
    return { report: reportNow(), plan: error ? null : deferred };
  }

  function reportNow(): IngestReport {
    const usage = run.usage.totals();
    const converged = (result?.converged === true || upToDate !== null) && error === null;
    return {
      converged,
      stopReason: stopReasonOf(result, error, upToDate),
      dryRun: request.dryRun === true,
      attempts: result?.attempts ?? { analyze: 0, generate: 0 },
      pages: converged ? pages : [],
      upToDate: upToDate && !error ? { since: upToDate.entry.ingestedAt, movedFrom: upToDate.movedFrom } : null,
      declined: converged ? declined : [],
      usage: { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, costUsd: runCost(run.usage, caps.model, settings.prices), estimatedCalls: usage.estimatedCalls, ...cacheParts(run.usage) },
      provider: { name: caps.name, mode: caps.mode, isLocal: caps.isLocal, model: caps.model },
      error: error ? summariseError(error) : null,
      issues: [...(result?.issues ?? []).map((i) => i.forUser), ...warnings],
      dangling: result?.dangling ?? [],
      contradictions: converged ? contradictions : [],
      locked: converged ? locked : [],
      linkedNotes: converged ? linkedNotes : [],
      durationMs: now() - started,
    };
  }
}
