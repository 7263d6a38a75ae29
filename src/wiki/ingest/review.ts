/**
 * The fifth stage: the request's review hook sees the plan and keeps what it chooses (without a
 * hook, all of it). What it left out is remembered: the reasons given, and that two subjects a
 * match put together are kept apart at the next ingest.
 */
import { SynapseError } from "../../core/errors";
import type { Rejection } from "./rejections";
import { reviewRejections } from "./refusals";
import type { PageChange } from "../ingest-types";
import type { PlannedPage } from "./plan-pages";
import { previewChanges, selectReviewed } from "../review";
import { pageAction } from "./page-action";
import { saveVerdicts, type PlannedIngest } from "./plan";
import type { IngestRun } from "./run";

export interface ReviewedPlan {
  /** The changes to apply. */
  readonly chosen: PlannedPage[];
  /** Changes the review left out. */
  readonly declined: PageChange[];
  /** What to remember of them (the reasons given). */
  readonly rejected: Rejection[];
}

export async function reviewPlan(ingest: IngestRun, plan: PlannedIngest): Promise<ReviewedPlan> {
  const { request, run, now } = ingest;
  const review = request.review;
  if (!review) return { chosen: plan.planned, declined: [], rejected: [] };
  const { vault } = ingest.deps;
  const reasons = new Map<string, string>();
  const previews = await previewChanges(vault, plan.planned);
  const changes = previews.filter((c) => c.action !== "unchanged");
  const selection = await review({ notePath: plan.note.notePath, sourceTitle: plan.sourceTitle, dryRun: request.dryRun === true, changes, onReason: (path, reason) => reasons.set(path, reason) });
  // The user may take their time: only a cancel stops the run now, not the model's deadline.
  if (run.signal.aborted) throw new SynapseError("cancelled", "The run was cancelled.");
  const chosen = selectReviewed(plan.planned, previews, selection);
  const kept = new Set(chosen.map((c) => c.path));
  const left = changes.filter((c) => !kept.has(c.path));
  const declined = left.map((c) => ({ path: c.path, type: c.type, title: c.title, action: pageAction(c.action) }));
  const rejected = reviewRejections(left, reasons, new Date(now()).toISOString());
  // A match left out keeps the two subjects apart at the next ingest.
  for (const change of left) if (change.match) plan.verdicts.refuse(change.match);
  await saveVerdicts(ingest, plan.verdicts);
  return { chosen, declined, rejected };
}
