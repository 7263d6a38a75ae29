/**
 * The ingest loop. Routes on declared capabilities only: an agentic provider gets a delegated run,
 * every other provider the orchestrated loop (analyse once, generate ⇄ validate up to maxIter).
 * Every loop is bounded by attempts, a token budget, the run's deadline and its abort signal;
 * running out is a reported outcome, and a run that did not converge returns no pages to write.
 */
import { checkAnalysis } from "./analysis-check";
import { SynapseError, toSynapseError } from "./errors";
import { excerptTokens, noteExcerpt } from "./note-excerpt";
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
  const analysis = checkAnalysis(await provider.analyze(source.text, options.vaultContext, run), provider.capabilities().model);
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
  const note = noteForGeneration(provider, analysis, source, options);
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    throwIfStopped(run);
    if (overBudget(options, run)) return { stopReason: "budget", pages: [] };
    run.progress?.({ type: "phase", phase: "generating", attempt, maxAttempts });
    state.generateCalls += 1;
    let pages: WikiPage[];
    let refusedSources: (readonly RefusedSource[])[] | undefined;
    try {
      // One shape whichever provider wrote them: clean one-line titles, one spelling per source,
      // valid tags, text made inert. The sources are checked as the model wrote them (`..` and all).
      // The feedback travels apart from the wiki's context: the prompts put what repeats first (prompts.ts).
      const generated = await provider.generate({ analysis, note, related: options.retrievalContext, ...(feedback ? { feedback } : {}) }, run);
      pages = generated.map(normalisePage);
      const check = options.checkSources;
      if (check) refusedSources = await Promise.all(generated.map((page) => check(page.frontmatter.sources)));
    } catch (thrown) {
      const error = toSynapseError(thrown);
      // A well-formed reply that fails the schema is a generation defect: feed it back and retry.
      if (error.kind !== "schema") throw error;
      // A SynapseError's message is already a sentence for the user.
      state.issues = [{ pageIndex: -1, field: "batch", message: error.message, forUser: error.message }];
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

/** Room for the note when the backend does not say its window: about 24,000 characters. */
const NOTE_TOKENS_UNKNOWN_WINDOW = 8_000;
/** The page-writing instructions and the schema, with room to spare. */
const INSTRUCTION_TOKENS = 1_024;
/** A retry's validation feedback. */
const FEEDBACK_TOKENS = 512;

/**
 * The note as generation gets it: the prompt may fill half the declared window (the other half is
 * the pages it writes), less the instructions, the analysis and the related wiki text. Packed once,
 * so every attempt sees the same note.
 */
function noteForGeneration(provider: InferenceProvider, analysis: Analysis, source: SourceNote, options: OrchestratorOptions): string {
  // An agent reads the note itself from the vault; its seed carries no copy.
  if (provider.capabilities().supportsAgenticLoop) return "";
  const window = provider.capabilities().maxContext;
  if (window <= 0) return noteExcerpt(source.text, analysis, NOTE_TOKENS_UNKNOWN_WINDOW);
  const taken = INSTRUCTION_TOKENS + FEEDBACK_TOKENS + excerptTokens(JSON.stringify(analysis, null, 2)) + excerptTokens(options.retrievalContext);
  return noteExcerpt(source.text, analysis, Math.floor(window / 2) - taken);
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
