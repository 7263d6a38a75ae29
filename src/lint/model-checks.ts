/**
 * The model checks: contradictions and likely duplicates among targeted pairs of pages (see
 * pair-candidates.ts), one small prompt per pair, with the lint backend behind the perimeter.
 * Bounded: pairs are planned strongest first while the estimated tokens fit the token budget and
 * their estimated cost fits the lint cost limit; the run stops when the tokens spent reach the
 * budget, before a request whose estimate would take the cost past the limit, when it is cancelled,
 * or at its deadline. Every request's reply is capped at the output the estimate reserves
 * (`REPLY_TOKENS`, as the run's `maxOutputTokens`), so only the input estimate can be off. Verdicts
 * are cached by both pages' content hashes, so a second lint asks only about pairs that changed;
 * only a verdict the model really gave is cached: an unreadable reply, one that names
 * contradictions none of whose quotes are on the pages (unverified), and a pair whose prompt the
 * server did not read whole (too long), is asked again next time. Every pair to check ends in one
 * of checked, unreadable, unverified, too long or not reached, and the counts add up.
 * Each pair is its own structured request (`provider.ask`), not a question to the chat path.
 * Contradictions go into the contradictions record (lint lists them from there, with their
 * lifecycle) as a run of the write path — journaled, in the history, undone like any run; likely
 * duplicates become `duplicate` findings.
 */
import { backendName } from "../core/backend-name";
import { SynapseError, rephrased, summariseError, toSynapseError, type ErrorSummary } from "../core/errors";
import { isExcluded, isShareablePage, Perimeter } from "../core/perimeter";
import { estimateCost, runCost } from "../core/pricing";
import type { InferenceProvider } from "../core/provider";
import { createRunContext, throwIfStopped, type RunContext } from "../core/run-context";
import type { Message } from "../core/schemas";
import { estimateTokens } from "../core/tokens";
import type { Settings } from "../settings/schema";
import type { StateStore } from "../vault/state-store";
import type { VaultPort } from "../vault/vault-port";
import { applyPlan, type WriteContext } from "../write/apply";
import { contradictionsFoundChange, type Contradiction } from "../wiki/contradictions";
import { basenameOf, effectiveWikiFolder } from "../wiki/page-paths";
import { costLimitFor } from "./cost-limit";
import { boundedPairs, type PagePair } from "./pair-candidates";
import { distinctSubjects } from "./similar-pages";
import { PairCache, pairKey, pairPaths, type PairVerdict } from "./pair-cache";
import { onPage, pageTokensFor, pairMessages, pairRequest, readPairReply, REPLY_TOKENS, type ReadReply } from "./pair-prompt";
import { pageNamer, type PageNamer } from "./page-names";
import type { WikiSnapshot } from "./snapshot";
import type { Finding } from "./types";

export interface ModelCheckEstimate {
  readonly model: string | null;
  /** The backend runs on this computer: without a price its calls are free, not of unknown cost. */
  readonly isLocal: boolean;
  /** Candidate pairs in the wiki. */
  readonly pairs: number;
  /** Pairs whose verdict is cached (no call). */
  readonly cached: number;
  /** Pairs that will be sent, one call each (more if a reply must be asked again). */
  readonly toCheck: number;
  /** Pairs left out because the token budget would not cover them. */
  readonly overBudget: number;
  /** Pairs left out because their estimated cost would take the run past the cost limit. */
  readonly overCost: number;
  /** The lint cost limit in USD the plan was held to; 0 for none. */
  readonly costLimitUsd: number;
  /**
   * A limit is set but no price is known for the model, on an API server on this machine (which
   * may be a proxy to a paid model): its requests were counted as free, so the limit did not hold them.
   */
  readonly treatedAsFree: boolean;
  /** The first pairs left out by the budget or the limit ("a.md ↔ b.md"), weakest last, for the report. */
  readonly leftOut: readonly string[];
  /** Pairs beyond the cap on planned pairs (the weakest), never sent. */
  readonly beyondLimit: number;
  /** Groups too large to pair (a note or entity shared by more than GROUP_LIMIT pages). */
  readonly broadGroups: readonly string[];
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** null when the model has no known price (a local model costs nothing but is not priced). */
  readonly costUsd: number | null;
}

export interface ModelCheckSummary extends ModelCheckEstimate {
  /** Pairs the model answered this run. */
  readonly checked: number;
  /** Pairs whose replies could not be read even when asked again; not cached, asked next time. */
  readonly unreadable: number;
  /**
   * Pairs whose replies named contradictions but quoted nothing that is on the pages, even when
   * asked again: the verdict cannot be told from a made-up one, so it is not one (not cached,
   * asked next time) — never "checked, nothing found".
   */
  readonly unverified: number;
  /**
   * Pairs whose prompt the server did not read whole (cut, or refused for its size) even packed
   * again by what it counted: skipped, not cached, asked next time; the run goes on with the others
   * (each is sized by the count learned). `tooLongReason` says why, with what to change.
   */
  readonly tooLong: number;
  /** Why the first pair counted in `tooLong` was skipped (the backend's own advice); null when none was. */
  readonly tooLongReason: string | null;
  /** Planned pairs not sent: the budget or the cost limit was reached, or the run stopped. */
  readonly unchecked: number;
  /**
   * The id of the run that added the contradictions found to the record (undone with `synapse undo` like
   * any run); null when nothing new was recorded.
   */
  readonly recordedRun: string | null;
}

/** The label of the run that records what the model checks found, in the history and log.md. */
export const RECORD_LABEL = "contradictions found by the model checks";

export interface ModelCheckDeps {
  readonly settings: Settings;
  readonly store: StateStore;
  /** The lint backend, as the factory built it. */
  readonly provider: InferenceProvider;
  /** Pairs of page paths whose words are alike (see similar-pages.ts): candidate pairs too. */
  readonly alike?: readonly (readonly [string, string])[];
  /** The wiki: the run that records found contradictions writes its log.md entry there. */
  readonly vault: VaultPort;
  /** The write path: found contradictions are added to the record as a run of it. */
  readonly write: WriteContext;
  readonly now?: () => number;
}

export interface ModelCheckOptions {
  readonly signal?: AbortSignal;
  /** Shown the estimate before any call; answering false stops there (nothing is sent). */
  readonly confirm?: (estimate: ModelCheckEstimate) => boolean | Promise<boolean>;
  /** Told after each pair, for a progress bar. */
  readonly progress?: (done: number, total: number) => void;
}

export interface ModelCheckResult {
  readonly summary: ModelCheckSummary;
  readonly findings: readonly Finding[];
  readonly usage: { readonly inputTokens: number; readonly outputTokens: number; readonly costUsd: number | null };
  readonly error: ErrorSummary | null;
}

interface Planned {
  readonly pair: PagePair;
  readonly key: string;
  readonly verdict: PairVerdict | undefined;
  /** Checked before, and a page changed since. */
  readonly changed: boolean;
}

interface ToCheck extends Planned {
  /** Estimated input tokens of its prompt. */
  readonly inputTokens: number;
}

const LEFT_OUT_SHOWN = 20;

async function chatText(provider: InferenceProvider, messages: Message[], run: RunContext): Promise<string> {
  let text = "";
  for await (const piece of provider.chat(messages, "", run)) {
    throwIfStopped(run);
    text += piece;
  }
  throwIfStopped(run);
  return text;
}

/**
 * Asks about one pair: a structured request where the backend has one (the server holds the reply
 * to the schema, the adapter parses it strictly), else the chat path with the same one system
 * message, read as strictly. A reply that does not follow the schema is `ok: false`, with why.
 */
async function askPair(provider: InferenceProvider, pair: PagePair, note: string | undefined, run: RunContext): Promise<ReadReply> {
  // Read at each request: a local server's window is learned with the first.
  const pageTokens = pageTokensFor(provider.capabilities().maxContext);
  if (!provider.ask) return readPairReply(await chatText(provider, pairMessages(pair.a, pair.b, note, pageTokens), run));
  try {
    const reply = await provider.ask(pairRequest(pair.a, pair.b, note, pageTokens), run);
    throwIfStopped(run);
    return { ok: true, reply };
  } catch (thrown) {
    const error = toSynapseError(thrown);
    if (error.kind === "schema") return { ok: false, problem: error.message };
    throw error;
  }
}

/** Keeps only passages really on the pages (either order), as the pages word them. */
function verified(pair: PagePair, contradictions: readonly { first: string; second: string }[]): [string, string][] {
  const out: [string, string][] = [];
  for (const c of contradictions) {
    const straight = [onPage(c.first, pair.a), onPage(c.second, pair.b)] as const;
    const swapped = [onPage(c.second, pair.a), onPage(c.first, pair.b)] as const;
    const [x, y] = straight[0] && straight[1] ? straight : swapped;
    if (x && y && x !== y && !out.some(([p, q]) => p === x && q === y)) out.push([x, y]);
  }
  return out;
}

/** What one pair's questioning came to: a verdict to cache, or why there is none. */
type PairOutcome = { readonly verdict: PairVerdict } | { readonly verdict: null; readonly why: "unreadable" | "unverified" } | { readonly verdict: null; readonly why: "tooLong"; readonly reason: string };

/**
 * One pair: ask, read; a reply that cannot be read is asked again once with what was wrong, if
 * `mayAsk` (the cost limit) still allows another request. Some quotes verified is a verdict (the
 * made-up ones dropped); none is not one, and is not asked again in this run: a model that made up
 * every quote once is not made more truthful by paying for a second reply.
 */
async function checkPair(pair: PagePair, send: (note: string | undefined) => Promise<ReadReply>, mayAsk: () => boolean): Promise<PairOutcome> {
  let note: string | undefined;
  for (let attempt = 0; attempt < 2; attempt++) {
    if (attempt > 0 && !mayAsk()) break;
    let read: ReadReply;
    try {
      read = await send(note);
    } catch (thrown) {
      const error = toSynapseError(thrown);
      if (error.kind === "schema" || error.kind === "refusal") break;
      // The pages did not fit the window the server runs, even packed again by its count (the
      // backend never re-sends one unchanged): this pair is skipped, with why, and the next pairs
      // are sized by what was learned.
      if (error.kind === "context") return { verdict: null, why: "tooLong", reason: error.message };
      throw error;
    }
    if (!read.ok) {
      note = read.problem;
      continue;
    }
    const quoted = verified(pair, read.reply.contradictions);
    if (read.reply.contradictions.length > 0 && quoted.length === 0) return { verdict: null, why: "unverified" };
    return { verdict: { contradictions: quoted, duplicate: read.reply.duplicate, reason: (read.reply.reason ?? "").trim() } };
  }
  return { verdict: null, why: "unreadable" };
}

function duplicateFinding(pair: PagePair, reason: string, name: PageNamer): Finding {
  // The plainer name stays, as for the exact duplicates.
  const la = basenameOf(pair.a.path).length;
  const lb = basenameOf(pair.b.path).length;
  const [keep, remove] = la <= lb ? [pair.a, pair.b] : [pair.b, pair.a];
  return {
    check: "duplicate",
    severity: "warning",
    page: keep.path,
    message: `${name(keep.path)} and ${name(remove.path)} look like the same subject (model check)${reason ? `: ${reason}` : "."}`,
    fixes: [{ kind: "merge-duplicates", label: `Merge ${name(remove.path)} into this page`, safe: false, params: { keep: keep.path, remove: remove.path } }],
  };
}

export async function runModelChecks(snapshot: WikiSnapshot, deps: ModelCheckDeps, options: ModelCheckOptions = {}): Promise<ModelCheckResult> {
  const { settings, provider } = deps;
  const now = deps.now ?? (() => Date.now());
  const caps = provider.capabilities();
  // Retries of a request inside the provider's policy are counted, since each may be billed.
  let retries = 0;
  const run = createRunContext({
    ...(options.signal ? { signal: options.signal } : {}),
    timeoutMs: settings.runTimeoutSeconds * 1000,
    now,
    maxOutputTokens: REPLY_TOKENS,
    progress: (event) => {
      if (event.type === "retry") retries++;
    },
  });
  const budget = settings.tokenBudget;
  let summary: ModelCheckSummary = { model: caps.model, isLocal: caps.isLocal, pairs: 0, cached: 0, toCheck: 0, overBudget: 0, overCost: 0, costLimitUsd: settings.lintCostLimitUsd, treatedAsFree: false, leftOut: [], beyondLimit: 0, broadGroups: [], inputTokens: 0, outputTokens: 0, costUsd: 0, checked: 0, unreadable: 0, unverified: 0, tooLong: 0, tooLongReason: null, unchecked: 0, recordedRun: null };
  const findings: Finding[] = [];
  const usage = () => ({ inputTokens: run.usage.totals().inputTokens, outputTokens: run.usage.totals().outputTokens, costUsd: runCost(run.usage, caps.model, settings.prices), ...(caps.isLocal ? { local: true } : {}) });
  let cache: PairCache | null = null;
  let planned: Planned[] = [];
  try {
    if (caps.model === null) {
      throw new SynapseError("capability", `The ${backendName(caps.name)} backend has no language model; choose one under "Lint with" (or --provider) for the model checks.`, {
        pluginMessage: `The ${backendName(caps.name)} backend has no language model; choose one under "Lint with" in the settings for the model checks.`,
      });
    }
    const perimeter = new Perimeter({ localOnly: settings.localOnly, excludedFolders: settings.excludedFolders });
    perimeter.admitProvider(provider);
    const guarded = perimeter.guard(provider);
    const limit = costLimitFor(caps, settings);
    // A page in an excluded folder, or drawn from a note in one, is never sent.
    const shareable = new Set(snapshot.pages.filter((p) => !isExcluded(p.path, settings.excludedFolders) && isShareablePage(p.sources, settings.excludedFolders)).map((p) => p.path));
    cache = await PairCache.load(deps.store);
    const model = caps.model;
    const candidates = boundedPairs(snapshot, shareable, deps.alike ?? []);
    const known = cache.knownPairs();
    planned = candidates.pairs.map((pair) => {
      const key = pairKey(pair, model);
      const verdict = cache?.get(key);
      return { pair, key, verdict, changed: !verdict && known.has(pairPaths(pair, model)) };
    });

    // Pairs where a page changed since they were checked go first, then new ones, each strongest first.
    const uncached = [...planned.filter((p) => !p.verdict && p.changed), ...planned.filter((p) => !p.verdict && !p.changed)];
    const toCheck: ToCheck[] = [];
    const leftOut: string[] = [];
    let inputTokens = 0;
    let overBudget = 0;
    let overCost = 0;
    let plannedUsd = 0;
    const leave = (p: Planned) => {
      if (leftOut.length < LEFT_OUT_SHOWN) leftOut.push(`${p.pair.a.path} ↔ ${p.pair.b.path}`);
    };
    for (const p of uncached) {
      const tokens = estimateTokens(pairMessages(p.pair.a, p.pair.b, undefined, pageTokensFor(caps.maxContext)).map((m) => m.content).join("\n")) + 50;
      if (budget > 0 && inputTokens + tokens + (toCheck.length + 1) * REPLY_TOKENS > budget) {
        overBudget++;
        leave(p);
        continue;
      }
      const usd = limit.cost(tokens, REPLY_TOKENS);
      if (limit.limitUsd > 0 && plannedUsd + usd > limit.limitUsd) {
        overCost++;
        leave(p);
        continue;
      }
      inputTokens += tokens;
      plannedUsd += usd;
      toCheck.push({ ...p, inputTokens: tokens });
    }
    const outputTokens = toCheck.length * REPLY_TOKENS;
    const estimate: ModelCheckEstimate = {
      model,
      isLocal: caps.isLocal,
      pairs: planned.length,
      cached: planned.length - toCheck.length - overBudget - overCost,
      toCheck: toCheck.length,
      overBudget,
      overCost,
      costLimitUsd: limit.limitUsd,
      treatedAsFree: limit.treatedAsFree,
      leftOut,
      beyondLimit: candidates.beyondLimit,
      broadGroups: candidates.broadGroups,
      inputTokens,
      outputTokens,
      costUsd: estimateCost(model, inputTokens, outputTokens, settings.prices),
    };
    summary = { ...estimate, checked: 0, unreadable: 0, unverified: 0, tooLong: 0, tooLongReason: null, unchecked: toCheck.length, recordedRun: null };
    if (options.confirm && !(await options.confirm(estimate))) return { summary, findings, usage: usage(), error: null };

    // What was really spent, plus what the next request is expected to cost, must stay within the
    // limit: replies longer or prompts larger than estimated stop the run early, never late.
    // A request whose usage never arrived (a stream cut before its last event, a retried attempt)
    // counts as its whole reservation: it may have been billed, and nothing says for how much.
    let unreportedUsd = 0;
    const spentUsd = () => (runCost(run.usage, model, settings.prices) ?? 0) + unreportedUsd;
    const affordable = (p: ToCheck) => limit.limitUsd <= 0 || spentUsd() + limit.cost(p.inputTokens, REPLY_TOKENS) <= limit.limitUsd;
    const sendCounted = async (p: ToCheck, note: string | undefined): Promise<ReadReply> => {
      const reports = run.usage.entries.length;
      const retried = retries;
      try {
        return await askPair(guarded, p.pair, note, run);
      } finally {
        const unreported = 1 + (retries - retried) - (run.usage.entries.length - reports);
        if (unreported > 0) unreportedUsd += unreported * limit.cost(p.inputTokens, REPLY_TOKENS);
      }
    };
    let done = 0;
    for (const p of toCheck) {
      throwIfStopped(run);
      if (budget > 0 && run.usage.totalTokens() >= budget) break;
      if (!affordable(p)) break;
      const outcome = await checkPair(p.pair, (note) => sendCounted(p, note), () => affordable(p));
      done++;
      if (outcome.verdict) {
        cache.set(p.key, outcome.verdict);
        summary = { ...summary, checked: summary.checked + 1, unchecked: summary.unchecked - 1 };
      } else if (outcome.why === "tooLong") {
        summary = { ...summary, tooLong: summary.tooLong + 1, tooLongReason: summary.tooLongReason ?? outcome.reason, unchecked: summary.unchecked - 1 };
      } else {
        summary = { ...summary, [outcome.why]: summary[outcome.why] + 1, unchecked: summary.unchecked - 1 };
      }
      options.progress?.(done, toCheck.length);
    }
  } catch (thrown) {
    const error = toSynapseError(thrown);
    await finish().catch(() => undefined);
    return { summary, findings, usage: usage(), error: summariseError(error) };
  }
  try {
    await finish();
  } catch (thrown) {
    // The verdicts are cached; the record can take them next time.
    const error = toSynapseError(thrown);
    return { summary, findings, usage: usage(), error: summariseError(rephrased(error, (m) => `The contradictions found were not recorded: ${m}`)) };
  }
  return { summary, findings, usage: usage(), error: null };

  /** Saves what was learnt and turns every known verdict (cached or new) into findings. */
  async function finish(): Promise<void> {
    if (!cache) return;
    await cache.save(new Set(planned.map((p) => p.key)));
    const found: Contradiction[] = [];
    for (const p of planned) {
      const verdict = cache.get(p.key);
      if (!verdict) continue;
      if (verdict.duplicate && !distinctSubjects(p.pair.a, p.pair.b)) findings.push(duplicateFinding(p.pair, verdict.reason, pageNamer(snapshot)));
      for (const [x, y] of verdict.contradictions) {
        const sources: [string, string] = [p.pair.a.sources[0] ?? "", p.pair.b.sources[0] ?? ""];
        found.push({ page: p.pair.a.path, sources, passages: [x, y] as const }, { page: p.pair.b.path, sources, passages: [x, y] as const });
      }
    }
    if (found.length === 0) return;
    // A run of its own (state only, one log.md entry), so undo takes it back like any other. The
    // record is read and added to under the write lock, so that an ingest or a resolution running
    // meanwhile (in the plugin, or another command) cannot lose its change to ours; a record
    // already holding everything found makes no run.
    const applied = await applyPlan(deps.vault, [], {
      ...deps.write,
      operation: "lint",
      label: RECORD_LABEL,
      wikiFolder: effectiveWikiFolder(settings.wikiFolder),
      maintainIndex: false,
      state: [contradictionsFoundChange(found, new Date(now()).toISOString().slice(0, 10))],
      now,
    });
    if (applied.runId) summary = { ...summary, recordedRun: applied.runId };
  }
}
