/**
 * A retract as one run of the write path: planned (`planRetract`), shown for review through the
 * same hook ingest uses, applied with index.md kept in step, journaled and undone in one step.
 */
import type { VaultPort } from "../vault/vault-port";
import { applyPlan, type WriteContext } from "../write/apply";
import { previewChanges, selectReviewed, type ReviewHook } from "./review";
import { planRetract, type RetractPlan, type RetractRequest, type RetractedPage } from "./retract-note";

export interface RetractRunRequest extends RetractRequest {
  /** Chooses which changes are written; all of them without it. */
  readonly review?: ReviewHook;
  /** Plan and report, write nothing. */
  readonly dryRun?: boolean;
  readonly now?: () => number;
}

export interface RetractOutcome {
  readonly plan: RetractPlan;
  /** The changes written (all planned ones for a dry run), as the plan describes them. */
  readonly applied: readonly RetractedPage[];
  /** The run's id in the history, or null when nothing was written. */
  readonly runId: string | null;
}

export async function retractNote(vault: VaultPort, write: WriteContext, request: RetractRunRequest): Promise<RetractOutcome> {
  const plan = await planRetract(vault, write.store, request);
  let changes = plan.changes;
  if (request.review && changes.length > 0) {
    const previews = await previewChanges(vault, changes);
    const dryRun = request.dryRun === true;
    const selection = await request.review({ notePath: plan.notePath, sourceTitle: plan.notePath, title: `Retract ${plan.notePath}`, dryRun, changes: previews });
    changes = selectReviewed(changes, previews, selection);
  }
  if (request.dryRun) return { plan, applied: plan.pages, runId: null };
  // Declined in review: nothing is written and the note stays known, so the retract can be run again.
  if (changes.length === 0 && plan.changes.length > 0) return { plan, applied: [], runId: null };
  const existingPages = await vault.list(request.wikiFolder);
  const result = await applyPlan(vault, changes, {
    ...write,
    operation: "retract",
    label: plan.notePath,
    wikiFolder: request.wikiFolder,
    existingPages,
    // A review that kept some of the pages leaves the note's part on the others: still known, to retract again.
    state: changes.length === plan.changes.length ? plan.state : [],
    ...(request.now ? { now: request.now } : {}),
  });
  const written = new Set(result.changes.filter((c) => c.action !== "unchanged").map((c) => c.path));
  return { plan, applied: plan.pages.filter((p) => written.has(p.path)), runId: result.runId };
}
