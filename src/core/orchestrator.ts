/**
 * The ingest loop. Routes on declared capabilities only: an agentic provider gets a delegated run,
 * every other provider the orchestrated loop (analyse once, generate ⇄ validate up to maxIter).
 * Every loop is bounded by attempts, a token budget, the run's deadline and its abort signal;
 * running out is a reported outcome, and a run that did not converge returns no pages to write.
 */
import { SynapseError, toSynapseError } from "./errors";
import { normalisePage } from "./page-normalise";
import type { InferenceProvider } from "./provider";
import { remainingMs, throwIfStopped, type RunContext } from "./run-context";
import type { Analysis, SourceNote, WikiPage } from "./schemas";
import type { RefusedSource } from "./source-check";
import type { UsageTotals } from "./usage";
import { describeIssuesForModel, validatePages, type DanglingLink, type ValidationIssue } from "./validator";

export interface OrchestratorOptions {
  /** Generation attempts (analyse always runs once). */
  readonly maxIter: number;
  /** Tokens (in + out) the run may spend; 0 for no limit. */
  readonly tokenBudget: number;
  /** Related wiki pages, index excerpts: what the model should know of the existing wiki. */
  readonly retrievalContext: string;
  /** A summary of the vault for analysis (wiki folder, existing page titles). */
  readonly vaultContext: string;
  /** Does a page with this name exist? Only used to record dangling links. */
  readonly linkExists?: (basename: string) => boolean;
  /**
   * The cited sources the vault refuses (source-check.ts); a page citing any is invalid. Without
   * it, sources are checked only for the ingested note.
   */
  readonly checkSources?: (sources: readonly string[]) => Promise<readonly RefusedSource[]>;
  /** Repair rounds after a delegated (agentic) run returns invalid pages. */
  readonly agentRepairRounds?: number;
}

export type StopReason = "converged" | "max_iter" | "budget" | "deadline" | "cancelled" | "error";

export interface RunResult {
  readonly converged: boolean;
  readonly stopReason: StopReason;
  readonly delegated: boolean;
  readonly attempts: { readonly analyze: number; readonly generate: number };
  readonly analysis: Analysis | null;
  /** The validated pages; empty unless converged. */
  readonly pages: readonly WikiPage[];
  /** The last attempt's validation issues. */
  readonly issues: readonly ValidationIssue[];
  readonly dangling: readonly DanglingLink[];
  readonly error: SynapseError | null;
  readonly usage: UsageTotals;
}

interface LoopState {
  analyzeCalls: number;
  generateCalls: number;
  analysis: Analysis | null;
  issues: readonly ValidationIssue[];
  dangling: readonly DanglingLink[];
}

/** The run's source note; an ingest without one is a programming error. */
function requireSource(run: RunContext): SourceNote {
  if (!run.source) throw new SynapseError("config", "An ingest run needs its source note.");
  return run.source;
}

export async function orchestrate(provider: InferenceProvider, options: OrchestratorOptions, run: RunContext): Promise<RunResult> {
  const state: LoopState = { analyzeCalls: 0, generateCalls: 0, analysis: null, issues: [], dangling: [] };
  // Routing reads declared capabilities and nothing else (DESIGN.md invariant 1).
  const delegated = provider.capabilities().supportsAgenticLoop;
  try {
    const source = requireSource(run);
    const outcome = delegated
      ? await delegatedRun(provider, source, options, run, state)
      : await orchestratedLoop(provider, source, options, run, state);
    return finish(state, delegated, run, outcome.stopReason, outcome.pages, null);
  } catch (thrown) {
    const error = toSynapseError(thrown);
    return finish(state, delegated, run, stopReasonFor(error, run), [], error);
  }
}

function stopReasonFor(error: SynapseError, run: RunContext): StopReason {
  if (error.kind === "cancelled") return "cancelled";
  if (error.kind === "timeout" && remainingMs(run) <= 0) return "deadline";
  return "error";
}

function finish(
  state: LoopState,
  delegated: boolean,
  run: RunContext,
  stopReason: StopReason,
  pages: readonly WikiPage[],
  error: SynapseError | null,
): RunResult {
  return {
    converged: stopReason === "converged",
    stopReason,
    delegated,
    attempts: { analyze: state.analyzeCalls, generate: state.generateCalls },
    analysis: state.analysis,
    pages: stopReason === "converged" ? pages : [],
    issues: state.issues,
    dangling: state.dangling,
    error,
    usage: run.usage.totals(),
  };
}

interface LoopOutcome {
  readonly stopReason: StopReason;
  readonly pages: readonly WikiPage[];
}

function overBudget(options: OrchestratorOptions, run: RunContext): boolean {
  return options.tokenBudget > 0 && run.usage.totalTokens() >= options.tokenBudget;
}

async function orchestratedLoop(
  provider: InferenceProvider,
  source: SourceNote,
  options: OrchestratorOptions,
  run: RunContext,
  state: LoopState,
): Promise<LoopOutcome> {
  throwIfStopped(run);
  run.progress?.({ type: "phase", phase: "analysing" });
  state.analyzeCalls += 1;
  const analysis = await provider.analyze(source.text, options.vaultContext, run);
  state.analysis = analysis;
  return generateUntilValid(provider, analysis, source, options.maxIter, options, run, state);
}

async function generateUntilValid(
  provider: InferenceProvider,
  analysis: Analysis,
  source: SourceNote,
  maxAttempts: number,
  options: OrchestratorOptions,
  run: RunContext,
  state: LoopState,
): Promise<LoopOutcome> {
  let feedback = "";
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    throwIfStopped(run);
    if (overBudget(options, run)) return { stopReason: "budget", pages: [] };
    run.progress?.({ type: "phase", phase: "generating", attempt, maxAttempts });
    state.generateCalls += 1;
    const context = feedback ? `${options.retrievalContext}\n\n${feedback}` : options.retrievalContext;
    let pages: WikiPage[];
    let refusedSources: (readonly RefusedSource[])[] | undefined;
    try {
      // One shape whichever provider wrote them: clean one-line titles, one spelling per source,
      // valid tags, text made inert. The sources are checked as the model wrote them (`..` and all).
      const generated = await provider.generate(analysis, context, run);
      pages = generated.map(normalisePage);
      const check = options.checkSources;
      if (check) refusedSources = await Promise.all(generated.map((page) => check(page.frontmatter.sources)));
    } catch (thrown) {
      const error = toSynapseError(thrown);
      // A well-formed reply that fails the schema is a generation defect: feed it back and retry.
      if (error.kind !== "schema") throw error;
      state.issues = [{ pageIndex: -1, field: "batch", message: error.message }];
      feedback = describeIssuesForModel(state.issues);
      continue;
    }
    run.progress?.({ type: "phase", phase: "validating", attempt, maxAttempts });
    const report = validatePages(pages, {
      sourcePath: source.path,
      ...(options.linkExists ? { linkExists: options.linkExists } : {}),
      ...(refusedSources ? { refusedSources } : {}),
    });
    state.issues = report.issues;
    state.dangling = report.dangling;
    if (report.valid) return { stopReason: "converged", pages };
    feedback = describeIssuesForModel(report.issues);
  }
  return { stopReason: "max_iter", pages: [] };
}

/** Title of a note from its first heading, else its file name. */
function noteTitle(source: SourceNote): string {
  const heading = /^#\s+(.+)$/m.exec(source.text);
  if (heading?.[1]) return heading[1].trim();
  const base = source.path.slice(source.path.lastIndexOf("/") + 1);
  return base.replace(/\.md$/i, "");
}

async function delegatedRun(
  provider: InferenceProvider,
  source: SourceNote,
  options: OrchestratorOptions,
  run: RunContext,
  state: LoopState,
): Promise<LoopOutcome> {
  throwIfStopped(run);
  run.progress?.({ type: "phase", phase: "delegating" });
  // The agent reads and analyses the note itself; it gets a seed, not a model-made analysis.
  const seed: Analysis = { title: noteTitle(source), language: "", summary: "", topics: [], entities: [], concepts: [] };
  const attempts = 1 + Math.max(0, options.agentRepairRounds ?? 1);
  return generateUntilValid(provider, seed, source, Math.min(attempts, Math.max(1, options.maxIter)), options, run, state);
}
