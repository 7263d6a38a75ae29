/**
 * Accepting a proposal: the change is planned again from what the proposal holds, against the vault
 * as it is now, shown to the caller's review hook (a review window; the terminal and a
 * trusted agent take it whole), and applied through the one write path — locked, journaled, in the
 * history, undoable. Refusing one removes it and writes nothing.
 */
import { SynapseError } from "../core/errors";
import { planAnswerPage, saveReviewTitle } from "../query/save";
import { applyPlan } from "../write/apply";
import { ingestNote } from "../wiki/ingest-note";
import type { IngestDeps, IngestReport } from "../wiki/ingest-types";
import { effectiveWikiFolder } from "../wiki/page-paths";
import { everything, previewChanges, selectReviewed, type ReviewHook } from "../wiki/review";
import { acceptLintFix } from "./lint-fix-proposal";
import type { Proposal } from "./proposal";
import type { ProposalStore } from "./proposal-store";
import { replayProvider } from "./replay-provider";

/** What accepting needs: an ingest's dependencies without its provider (the proposal brings the pages). */
export type AcceptDeps = Omit<IngestDeps, "provider">;

export interface AcceptOutcome {
  /**
   * "applied": written as one run; "declined": the review kept none of the changes (nothing is
   * written, and the proposal keeps waiting); "unchanged": the vault already holds it (the proposal
   * is done with).
   */
  readonly status: "applied" | "declined" | "unchanged";
  /** The files written, with what happened to each. */
  readonly changes: readonly { readonly path: string; readonly action: string }[];
  /** The run's id in the history (undo takes it back), null when nothing was written. */
  readonly runId: string | null;
  /** An ingest's report, as a single-note ingest ends with it (its notice is the same). */
  readonly report?: IngestReport;
}

/**
 * Applies the proposal and then removes it. A failure (the vault changed in a way the plan cannot
 * take, the note is gone) throws a SynapseError and leaves the proposal waiting; so does a review
 * that kept none of its changes (the user closed the window: refusing is a choice of its own).
 */
export async function acceptProposal(deps: AcceptDeps, proposals: ProposalStore, proposal: Proposal, review: ReviewHook = (plan) => Promise.resolve(everything(plan))): Promise<AcceptOutcome> {
  let declined = false;
  const watched: ReviewHook = async (plan) => {
    const selection = await review(plan);
    if (plan.changes.length > 0 && selection.length === 0) declined = true;
    return selection;
  };
  const outcome = await apply(deps, proposal, watched);
  if (declined && outcome.status !== "applied") return { ...outcome, status: "declined" };
  await proposals.remove(proposal.id);
  return outcome;
}

export async function refuseProposal(proposals: ProposalStore, id: string): Promise<Proposal> {
  const proposal = await proposals.get(id);
  await proposals.remove(id);
  return proposal;
}

async function apply(deps: AcceptDeps, proposal: Proposal, review: ReviewHook): Promise<AcceptOutcome> {
  const payload = proposal.payload;
  if (payload.kind === "ingest") {
    const report = await ingestNote({ ...deps, provider: replayProvider(payload) }, { notePath: payload.notePath, force: true, review });
    if (report.error) throw new SynapseError(report.error.kind, report.error.message);
    if (!report.converged) throw new SynapseError("input", `The proposed pages no longer pass the checks (${report.issues[0] ?? report.stopReason}); refuse the proposal and propose the ingest again.`);
    const written = report.pages.filter((p) => p.action !== "unchanged");
    if (written.length === 0) return { status: "unchanged", changes: [], runId: null, report };
    return { status: "applied", changes: written.map((p) => ({ path: p.path, action: p.action })), runId: null, report };
  }
  if (payload.kind === "lint-fix") return acceptLintFix(deps, payload, proposal.title, review);
  const wikiFolder = effectiveWikiFolder(deps.settings.wikiFolder);
  const now = deps.now ?? (() => Date.now());
  const change = await planAnswerPage(deps.vault, wikiFolder, payload, [], new Date(now()).toISOString().slice(0, 10));
  const previews = await previewChanges(deps.vault, [change]);
  const changes = previews.filter((c) => c.action !== "unchanged");
  const selection = await review({ notePath: "", sourceTitle: payload.question, title: saveReviewTitle(payload.question), dryRun: false, changes });
  const chosen = selectReviewed([change], previews, selection);
  if (changes.length === 0 || selection.length === 0) return { status: "unchanged", changes: [], runId: null };
  if (!deps.write) throw new SynapseError("config", "Saving an answer needs the write path; none was given.");
  const result = await applyPlan(deps.vault, chosen, { ...deps.write, operation: "query", label: payload.question, wikiFolder, now });
  return { status: "applied", changes: result.changes.filter((c) => c.action !== "unchanged"), runId: result.runId };
}
