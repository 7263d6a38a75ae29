/**
 * One ingest, as composed stages (src/wiki/ingest/): admit → context → orchestrate → plan, then
 * review → apply → report. `planIngest` runs the stages up to the plan and hands it over;
 * `ingestNote` goes on to write it. Expected failures come back in the report, never as
 * exceptions, and a run that did not converge, was cancelled or failed writes nothing.
 */
import { toSynapseError } from "../core/errors";
import type { RunResult } from "../core/orchestrator";
import type { IngestDeps, IngestReport, IngestRequest } from "./ingest-types";
import { admitNote } from "./ingest/admit";
import { applyIngest } from "./ingest/apply";
import { gatherContext } from "./ingest/context";
import { deferIngest, type DeferredIngest } from "./ingest/defer";
import { orchestrateNote } from "./ingest/orchestrate";
import { planNotePages, type PlannedIngest } from "./ingest/plan";
import { appliedPages, plannedPages, reportOf, type IngestOutcome } from "./ingest/report";
import { reviewPlan } from "./ingest/review";
import { startIngest, type IngestRun } from "./ingest/run";

export type { DeferredIngest } from "./ingest/defer";

/** Where the stages up to the plan left the ingest: stopped (with how), or a converged run's plan. */
type Planning = { readonly stopped: IngestOutcome } | { readonly result: RunResult; readonly plan: PlannedIngest };

async function planStages(ingest: IngestRun): Promise<Planning> {
  // Kept outside the stages so a failure after the model calls still reports what the loop did.
  let result: RunResult | null = null;
  try {
    const admission = await admitNote(ingest);
    if (admission.verdict === "up_to_date") return { stopped: { kind: "up_to_date", upToDate: admission.upToDate } };
    const context = await gatherContext(ingest, admission.note);
    result = await orchestrateNote(ingest, admission.note, context);
    if (result.error) return { stopped: { kind: "failed", result, error: result.error } };
    if (!result.converged) return { stopped: { kind: "not_converged", result } };
    return { result, plan: await planNotePages(ingest, admission.note, context, result) };
  } catch (thrown) {
    return { stopped: { kind: "failed", result, error: toSynapseError(thrown) } };
  }
}

export async function ingestNote(deps: IngestDeps, request: IngestRequest): Promise<IngestReport> {
  const ingest = startIngest(deps, request);
  const planning = await planStages(ingest);
  if ("stopped" in planning) return reportOf(ingest, planning.stopped);
  const { result, plan } = planning;
  try {
    const reviewed = await reviewPlan(ingest, plan);
    const applied = await applyIngest(ingest, plan, reviewed);
    return reportOf(ingest, { kind: "converged", result, ...appliedPages(plan, reviewed, applied) });
  } catch (thrown) {
    return reportOf(ingest, { kind: "failed", result, error: toSynapseError(thrown) });
  }
}

/**
 * Everything an ingest does up to the write — perimeter, read, context, analyse, generate, plan —
 * and returns the plan instead of writing it (no review: the caller reviews). `plan` is null when
 * the ingest stopped (see the report) or the note is already up to date.
 */
export async function planIngest(deps: IngestDeps, request: Omit<IngestRequest, "review" | "dryRun">): Promise<{ report: IngestReport; plan: DeferredIngest | null }> {
  const ingest = startIngest(deps, request);
  const planning = await planStages(ingest);
  if ("stopped" in planning) return { report: reportOf(ingest, planning.stopped), plan: null };
  const { result, plan } = planning;
  try {
    const deferred = await deferIngest(ingest, plan);
    return { report: reportOf(ingest, { kind: "converged", result, ...plannedPages(plan) }), plan: deferred };
  } catch (thrown) {
    return { report: reportOf(ingest, { kind: "failed", result, error: toSynapseError(thrown) }), plan: null };
  }
}
