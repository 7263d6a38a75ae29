/**
 * The last stage: how the ingest ended, as the `IngestReport` its callers show. Every way an ingest
 * ends is an outcome here; a failure is one of them, never an exception.
 */
import { summariseError, type SynapseError } from "../../core/errors";
import type { RunResult } from "../../core/orchestrator";
import { isUnreadableNote } from "../read-note";
import type { UpToDate } from "../source-registry";
import type { Contradiction, IngestReport, IngestStopReason, LockedPage, PageChange } from "../ingest-types";
import type { LinkedNote } from "./canon-notes";
import { NOT_WRITTEN_AGAIN } from "./refusals";
import type { AppliedIngest } from "./apply";
import { pageAction } from "./page-action";
import type { PlannedIngest } from "./plan";
import type { ReviewedPlan } from "./review";
import type { IngestRun } from "./run";
import { cacheParts, ingestCost } from "./spending";

/** What a converged ingest planned (and, unless deferred, wrote). */
export interface IngestPages {
  readonly pages: readonly PageChange[];
  readonly declined: readonly PageChange[];
  readonly contradictions: readonly Contradiction[];
  readonly locked: readonly LockedPage[];
  readonly linkedNotes: readonly LinkedNote[];
}

export type IngestOutcome =
  /** The note had not changed: nothing was sent, nothing written. */
  | { readonly kind: "up_to_date"; readonly upToDate: UpToDate }
  /** The loop stopped without pages that pass (iterations, budget, deadline): nothing written. */
  | { readonly kind: "not_converged"; readonly result: RunResult }
  /** Something failed; `result` is the loop's when it had run. */
  | { readonly kind: "failed"; readonly result: RunResult | null; readonly error: SynapseError }
  | ({ readonly kind: "converged"; readonly result: RunResult } & IngestPages);

/** A deferred plan's pages, as planned (nothing reviewed or written yet). */
export function plannedPages(plan: PlannedIngest): IngestPages {
  return {
    pages: plan.planned.filter((p) => p.locked === undefined).map((p) => ({ path: p.path, type: p.type, title: p.title, action: pageAction(p.action) })),
    declined: [],
    contradictions: plan.planned.flatMap((p) => p.contradictions ?? []),
    locked: [],
    linkedNotes: plan.linkedNotes,
  };
}

/** The pages as the run wrote them, with those the user deleted before and the plan left out. */
export function appliedPages(plan: PlannedIngest, reviewed: ReviewedPlan, applied: AppliedIngest): IngestPages {
  return {
    pages: reviewed.chosen
      .filter((p) => p.locked === undefined)
      .map((p) => ({ path: p.path, type: p.type, title: p.title, action: pageAction(applied.actions.get(p.path) ?? p.action), ...(p.detail ? { detail: p.detail } : {}) }))
      .concat(plan.deleted.notWritten.map((p) => ({ path: p.path, type: p.type, title: p.title, action: "unchanged" as const, ...NOT_WRITTEN_AGAIN }))),
    declined: reviewed.declined,
    contradictions: applied.contradictions,
    locked: plan.planned.flatMap((p) => (p.locked !== undefined ? [{ path: p.path, title: p.title, wouldAdd: p.locked }] : [])),
    linkedNotes: plan.linkedNotes,
  };
}

function stopReasonOf(outcome: IngestOutcome): IngestStopReason {
  switch (outcome.kind) {
    case "up_to_date":
      return "up_to_date";
    case "not_converged":
    case "converged":
      return outcome.result.stopReason;
    case "failed": {
      const { result, error } = outcome;
      if (error.kind === "cancelled") return "cancelled";
      if (isUnreadableNote(error)) return "unreadable";
      // A failure after convergence (while writing) is an error, whatever the loop said.
      return result && result.stopReason !== "converged" ? result.stopReason : "error";
    }
  }
}

export function reportOf(ingest: IngestRun, outcome: IngestOutcome): IngestReport {
  const { caps, run, request } = ingest;
  const usage = run.usage.totals();
  const result = outcome.kind === "up_to_date" ? null : outcome.result;
  const done = outcome.kind === "converged" ? outcome : null;
  const error = outcome.kind === "failed" ? outcome.error : null;
  return {
    converged: outcome.kind === "up_to_date" || done !== null,
    stopReason: stopReasonOf(outcome),
    dryRun: request.dryRun === true,
    attempts: result?.attempts ?? { analyze: 0, generate: 0 },
    pages: done?.pages ?? [],
    upToDate: outcome.kind === "up_to_date" ? { since: outcome.upToDate.entry.ingestedAt, movedFrom: outcome.upToDate.movedFrom } : null,
    declined: done?.declined ?? [],
    usage: { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, costUsd: ingestCost(ingest), estimatedCalls: usage.estimatedCalls, ...cacheParts(run.usage) },
    provider: { name: caps.name, mode: caps.mode, isLocal: caps.isLocal, model: caps.model },
    error: error ? summariseError(error) : null,
    issues: [...(result?.issues ?? []).map((i) => i.forUser), ...ingest.warnings],
    dangling: result?.dangling ?? [],
    contradictions: done?.contradictions ?? [],
    locked: done?.locked ?? [],
    linkedNotes: done?.linkedNotes ?? [],
    durationMs: ingest.now() - ingest.started,
  };
}
