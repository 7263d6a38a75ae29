/**
 * One lint run: snapshot the wiki once, run the exact checks (and, when asked, the model checks),
 * and report. Excluded folders are
 * neither read nor reported. Expected failures come back in the report, never as exceptions.
 */
import { SynapseError, summariseError, toSynapseError, type ErrorSummary } from "../core/errors";
import { addUsage, type UsageSummary } from "../core/usage";
import type { InferenceProvider } from "../core/provider";
import { isExcluded } from "../core/perimeter";
import type { Settings } from "../settings/schema";
import type { StateStore } from "../vault/state-store";
import type { VaultPort } from "../vault/vault-port";
import { noteFingerprint, SourceRegistry } from "../wiki/source-registry";
import type { WriteContext } from "../write/apply";
import type { DeferredIngest } from "../wiki/ingest-note";
import type { PlannedChange } from "../write/planned-change";
import { CONTRADICTIONS_KEY, readContradictions } from "../wiki/contradictions";
import { undoForeignRun } from "../write/foreign-run-undo";
import { effectiveWikiFolder } from "../wiki/page-paths";
import { contradictionFindings } from "./contradictions";
import { interruptedRunFindings } from "./interrupted-runs";
import { exactChecksSliced } from "./exact-checks";
import { sliceCheckpoint, type PassOptions } from "./slices";
import { similarPages } from "./similar-pages";
import { runModelChecks, type ModelCheckOptions, type ModelCheckResult, type ModelCheckSummary } from "./model-checks";
import { chooseFixes, chosenOfKind, type ChosenFix } from "./fixes";
import { runFixes } from "./fix-run";
import { loadSnapshot, readOrNull, Resolver, type WikiSnapshot } from "./snapshot";
import { CHECKS, type Check, type Finding, type FixOf } from "./types";

export interface LintDeps {
  readonly vault: VaultPort;
  readonly settings: Settings;
  readonly store: StateStore;
  /** Needed to apply fixes: the write path's lock, journal and history. */
  readonly write?: WriteContext;
  /**
   * Plans the re-ingest of a stale source note (the "re-ingest" fix) without writing it: its pages
   * join the lint run's other fixes, in one run. Throws when the ingest fails; null when there is
   * nothing to write. Without it that fix is only listed.
   */
  readonly reingest?: (notePath: string, signal?: AbortSignal) => Promise<DeferredIngest | null>;
  /** The lint backend, for the model checks; without it `modelChecks` is refused. */
  readonly provider?: InferenceProvider;
  /**
   * Lets the host breathe during the long pass that compares every page's words (Obsidian's main
   * thread: a timer); without it the pass only lets pending promises run between slices.
   */
  readonly yieldNow?: () => Promise<void>;
  readonly now?: () => number;
}

export interface LintRequest {
  /** Apply the first safe fix of each finding, or the first fix of each. */
  readonly fix?: "safe" | "all";
  /** Plan the fixes and report them without writing anything. */
  readonly dryRun?: boolean;
  /** Chooses which planned changes are written (the review step); all of them without it. */
  readonly review?: (changes: readonly PlannedChange[]) => Promise<readonly PlannedChange[]>;
  /** Run the model checks too (the lint backend, bounded by the token budget, cached by page hashes). */
  readonly modelChecks?: boolean;
  /** Shown the model checks' estimate before any call; false stops there (the exact checks still report). */
  readonly confirmModelChecks?: ModelCheckOptions["confirm"];
  readonly progress?: ModelCheckOptions["progress"];
  readonly signal?: AbortSignal;
}

export interface FixedItem {
  readonly check: Check;
  readonly page: string;
  readonly fix: string;
}

export interface LintReport {
  /** What remains after the fixes (everything found, without fixes or with --dry-run). */
  readonly findings: readonly Finding[];
  /** The fixes applied (or, with dryRun, planned). */
  readonly fixed: readonly FixedItem[];
  /** The planned file changes of the fixes, for review and --diff. */
  readonly changes: readonly PlannedChange[];
  readonly counts: Readonly<Partial<Record<Check, number>>>;
  readonly pages: number;
  /** What the run spent: the model checks' calls and the re-ingest fixes' ingests. */
  readonly usage: UsageSummary;
  readonly error: ErrorSummary | null;
  readonly durationMs: number;
  /** What the model checks planned and did, when they were asked for. */
  readonly modelChecks: ModelCheckSummary | null;
}

/** The source notes whose text changed since they were last ingested (by content hash). */
async function changedSources(snapshot: WikiSnapshot, vault: VaultPort, store: StateStore, checkpoint: () => Promise<void>): Promise<Set<string>> {
  const resolver = await Resolver.ofSliced(snapshot, checkpoint);
  // A note in an excluded folder is never read, so whether it changed is not known.
  const notes = new Set<string>();
  for (const page of snapshot.pages) {
    await checkpoint();
    for (const source of page.sources) {
      const note = resolver.resolve(source);
      if (note !== null && !resolver.isExcluded(note)) notes.add(note);
    }
  }
  await checkpoint();
  // Only the registry's shards holding these notes are read, each once.
  const recorded = await new SourceRegistry(store).entries(notes);
  const changed = new Set<string>();
  for (const note of notes) {
    await checkpoint();
    const entry = recorded.get(note.normalize("NFC"));
    if (!entry) continue;
    const text = await readOrNull(vault, note);
    if (text !== null && (await noteFingerprint(text)) !== entry.hash) changed.add(note);
  }
  return changed;
}

/** The open contradictions of the record; a damaged record is itself a finding, never a failed lint. */
async function recordedContradictions(store: StateStore, snapshot: WikiSnapshot): Promise<Finding[]> {
  try {
    return contradictionFindings(await readContradictions(store), snapshot);
  } catch (thrown) {
    const message = thrown instanceof Error ? thrown.message : String(thrown);
    return [{ check: "contradiction", severity: "error", page: CONTRADICTIONS_KEY, message, fixes: [] }];
  }
}

/** Undoes each chosen run interrupted on another device through the write path; returns the fixes made. */
export async function undoInterruptedRuns(deps: LintDeps, chosen: readonly ChosenFix<FixOf<"undo-interrupted-run">>[]): Promise<ChosenFix[]> {
  if (chosen.length === 0) return [];
  if (!deps.write) throw new SynapseError("config", "Undoing an interrupted run needs the write path; none was given.");
  const wikiFolder = effectiveWikiFolder(deps.settings.wikiFolder);
  for (const c of chosen) await undoForeignRun(deps.vault, { ...deps.write, wikiFolder, ...(deps.now ? { now: deps.now } : {}) }, c.fix.params.journal);
  return [...chosen];
}

export function countByCheck(findings: readonly Finding[]): Partial<Record<Check, number>> {
  const counts: Partial<Record<Check, number>> = {};
  for (const check of CHECKS) {
    const n = findings.filter((f) => f.check === check).length;
    if (n > 0) counts[check] = n;
  }
  return counts;
}

function fixedItems(chosen: readonly ChosenFix[]): FixedItem[] {
  return chosen.map((c) => ({ check: c.finding.check, page: c.finding.page, fix: c.fix.label }));
}

/** The pairs a duplicate finding names (one per merge it offers), each in either order. */
function duplicatePairs(f: Finding): string[] {
  if (f.check !== "duplicate") return [];
  return f.fixes.flatMap((fix) => (fix.kind === "merge-duplicates" ? [[fix.params.keep, fix.params.remove].sort().join("\n")] : []));
}

interface Checked {
  snapshot: WikiSnapshot;
  findings: Finding[];
  model: ModelCheckResult | null;
}

/**
 * One pass: the exact checks, then (when asked) the model checks, then the open contradictions of
 * the record — which by then holds what the model found. `modelDuplicates` carries the model's
 * duplicates of an earlier pass into a re-check after fixes, without asking the model again.
 */
async function check(deps: LintDeps, request: LintRequest, modelDuplicates: readonly Finding[] = []): Promise<Checked> {
  const excluded = (path: string) => isExcluded(path, deps.settings.excludedFolders);
  // Every pass over the wiki runs in time slices (Obsidian's main thread stays free) and stops at a
  // cancel; cancelling any of them cancels the lint.
  const pass: PassOptions = {
    ...(request.signal ? { signal: request.signal } : {}),
    ...(deps.yieldNow ? { yieldNow: deps.yieldNow } : {}),
    ...(deps.now ? { now: deps.now } : {}),
  };
  const checkpoint = sliceCheckpoint(pass);
  const snapshot = await loadSnapshot(deps.vault, deps.settings.wikiFolder, excluded, checkpoint);
  const changed = await changedSources(snapshot, deps.vault, deps.store, checkpoint);
  const findings = await exactChecksSliced({ snapshot, sourceChanged: (note) => changed.has(note) }, checkpoint);
  // Every pair of pages alike in their words (part of the exact checks), compared before the model
  // checks so that cancelling those leaves these found.
  const similar = await similarPages(snapshot, { ...(request.modelChecks ? { alike: true } : {}), ...pass, checkpoint });
  let model: ModelCheckResult | null = null;
  if (request.modelChecks) {
    if (!deps.provider) throw new SynapseError("config", "The model checks need a lint backend; none was given.");
    if (!deps.write) throw new SynapseError("config", "The model checks need the write path; none was given.");
    model = await runModelChecks(snapshot, { settings: deps.settings, store: deps.store, vault: deps.vault, provider: deps.provider, alike: similar.alike, write: deps.write, ...(deps.now ? { now: deps.now } : {}) }, {
      ...(request.signal ? { signal: request.signal } : {}),
      ...(request.confirmModelChecks ? { confirm: request.confirmModelChecks } : {}),
      ...(request.progress ? { progress: request.progress } : {}),
    });
  }
  const exactPairs = new Set(findings.flatMap(duplicatePairs));
  const pages = new Set(snapshot.pages.map((p) => p.path));
  // The model's verdict (with its reason) first, where both found the same pair.
  for (const f of [...(model?.findings ?? []), ...modelDuplicates, ...similar.duplicates]) {
    const [pair] = duplicatePairs(f);
    if (pair && !exactPairs.has(pair) && pair.split("\n").every((p) => pages.has(p))) {
      exactPairs.add(pair);
      findings.push(f);
    }
  }
  findings.push(...(await recordedContradictions(deps.store, snapshot)));
  if (deps.write) findings.push(...(await interruptedRunFindings(deps.write)));
  return { snapshot, findings, model };
}

/** The exact checks' findings (and the recorded ones) with the snapshot they were found in: what a fix is planned against. */
export async function checkWiki(deps: LintDeps, signal?: AbortSignal): Promise<{ readonly snapshot: WikiSnapshot; readonly findings: readonly Finding[] }> {
  const { snapshot, findings } = await check(deps, signal ? { signal } : {});
  return { snapshot, findings };
}

export async function runLint(deps: LintDeps, request: LintRequest = {}): Promise<LintReport> {
  const now = deps.now ?? (() => Date.now());
  const started = now();
  let usage: LintReport["usage"] = { inputTokens: 0, outputTokens: 0, costUsd: 0 };
  let fixed: FixedItem[] = [];
  let changes: readonly PlannedChange[] = [];
  let modelChecks: ModelCheckSummary | null = null;
  try {
    const first = await check(deps, request);
    let { snapshot, findings } = first;
    const model = first.model;
    if (model) {
      usage = model.usage;
      modelChecks = model.summary;
      // A provider failure ends the model checks, not the lint: what was found is still reported.
      if (model.error) return { findings, fixed, changes, counts: countByCheck(findings), pages: snapshot.pages.length, usage, error: model.error, durationMs: now() - started, modelChecks };
    }
    if (request.fix && findings.length > 0) {
      const all = chooseFixes(findings, request.fix).filter((c) => c.fix.kind !== "reingest" || deps.reingest);
      // A run interrupted on another device is undone as a run of its own, before the page fixes.
      const undoing = all.filter(chosenOfKind("undo-interrupted-run"));
      const chosen = all.filter((c) => c.fix.kind !== "undo-interrupted-run");
      const undone = request.dryRun ? undoing : await undoInterruptedRuns(deps, undoing);
      // With --dry-run a re-ingest is listed, not planned: planning it would call the ingest backend.
      const run = await runFixes(deps, snapshot, request.dryRun ? chosen.filter((c) => c.fix.kind !== "reingest") : chosen, {
        ...(request.dryRun ? { dryRun: true } : {}),
        ...(request.review ? { review: request.review } : {}),
        ...(request.signal ? { signal: request.signal } : {}),
      });
      changes = run.changes;
      // The re-ingests' model calls are this run's spending too.
      usage = addUsage(usage, run.usage);
      fixed = fixedItems([...undone, ...(request.dryRun ? [...run.planned, ...chosen.filter((c) => c.fix.kind === "reingest")] : run.planned)]);
      if (!request.dryRun) {
        const modelDuplicates = (model?.findings ?? []).filter((f) => f.check === "duplicate");
        ({ snapshot, findings } = await check(deps, {}, modelDuplicates));
      }
    }
    return { findings, fixed, changes, counts: countByCheck(findings), pages: snapshot.pages.length, usage, error: null, durationMs: now() - started, modelChecks };
  } catch (thrown) {
    const error = toSynapseError(thrown);
    return { findings: [], fixed, changes, counts: {}, pages: 0, usage, error: summariseError(error), durationMs: now() - started, modelChecks };
  }
}
