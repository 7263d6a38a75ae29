/**
 * A lint fix as a proposal: proposing finds the fix by its id among the findings of the checks run
 * now and plans it without writing; accepting runs the checks again, finds it again and applies it
 * through lint's own fix run (`runFixes`), reviewed, as one undoable lint run. Fixes that need a
 * model (re-ingest) or a person's choice between sides (contradictions), and the undo of another
 * device's run, are not proposed: they are the user's to start.
 */
import { SynapseError } from "../core/errors";
import { findFix } from "../lint/fix-id";
import type { ChosenFix } from "../lint/fixes";
import { runFixes } from "../lint/fix-run";
import { checkWiki, type LintDeps } from "../lint/run-lint";
import type { WikiSnapshot } from "../lint/snapshot";
import { previewChanges, selectReviewed, type ReviewChange, type ReviewHook } from "../wiki/review";
import type { AcceptDeps, AcceptOutcome } from "./accept";
import { proposedChanges } from "./preview";
import type { Proposal } from "./proposal";
import { newProposalId, type ProposalStore } from "./proposal-store";
import type { ProposalMeta } from "./propose";

type LintFixPayload = Extract<Proposal["payload"], { kind: "lint-fix" }>;

const NOT_PROPOSED: Readonly<Record<string, string>> = {
  reingest: "A re-ingest calls the model: propose an ingest of the note instead (action ingest, with force).",
  "resolve-contradiction": "Which side of a contradiction is right is the user's choice; it is settled in Synapse, not proposed.",
  "dismiss-contradiction": "Whether a contradiction is a real one is the user's choice; it is settled in Synapse, not proposed.",
  "undo-interrupted-run": "Undoing a run another device left half-written is the user's to do, from lint in Synapse.",
};

async function found(deps: LintDeps, fixId: string, signal?: AbortSignal): Promise<{ snapshot: WikiSnapshot; chosen: ChosenFix | null }> {
  const { snapshot, findings } = await checkWiki(deps, signal);
  return { snapshot, chosen: findFix(findings, fixId) };
}

export async function proposeLintFix(deps: LintDeps, proposals: ProposalStore, fixId: string, meta: ProposalMeta & { signal?: AbortSignal }): Promise<Proposal> {
  const { snapshot, chosen } = await found(deps, fixId, meta.signal);
  if (!chosen) throw new SynapseError("input", `Lint finds no fix "${fixId}" in the wiki now (it was fixed, or the wiki changed): run lint again for the current fixes and their ids.`);
  const { finding, fix } = chosen;
  const refused = NOT_PROPOSED[fix.kind];
  if (refused) throw new SynapseError("input", refused);
  const run = await runFixes(deps, snapshot, [chosen], { dryRun: true });
  if (run.planned.length === 0) throw new SynapseError("input", `The fix cannot be applied: ${run.skipped[0]?.reason ?? "it plans no change."}`);
  const changes = proposedChanges(await previewChanges(deps.vault, run.changes));
  if (changes.length === 0) throw new SynapseError("input", "The fix would change nothing in the wiki; nothing was proposed.");
  const proposal: Proposal = {
    version: 1,
    id: newProposalId(meta.now),
    title: `Lint fix: ${fix.label} (${finding.page})`,
    createdAt: new Date(meta.now).toISOString(),
    proposedBy: meta.proposedBy,
    payload: { kind: "lint-fix", fixId, check: finding.check, page: finding.page, message: finding.message, fixKind: fix.kind, label: fix.label },
    changes,
  };
  await proposals.save(proposal);
  return proposal;
}

/** Applies a lint-fix proposal as lint applies one fix: found again, reviewed, one run. */
export async function acceptLintFix(deps: AcceptDeps, payload: LintFixPayload, title: string, review: ReviewHook): Promise<AcceptOutcome> {
  const store = deps.write?.store ?? deps.state;
  if (!store) throw new SynapseError("config", "Applying a lint fix needs Synapse's state folder; none was given.");
  const lintDeps: LintDeps = { vault: deps.vault, settings: deps.settings, store, ...(deps.write ? { write: deps.write } : {}), ...(deps.now ? { now: deps.now } : {}) };
  const { snapshot, chosen } = await found(lintDeps, payload.fixId);
  if (!chosen) throw new SynapseError("input", `Lint no longer finds this fix (${payload.label}): the page was fixed or changed since it was proposed. Refuse the proposal.`);
  let kept: ReviewChange[] = [];
  const run = await runFixes(lintDeps, snapshot, [chosen], {
    review: async (changes) => {
      const previews = (await previewChanges(deps.vault, changes)).filter((c) => c.action !== "unchanged");
      if (previews.length === 0) return [];
      const selection = await review({ notePath: "", sourceTitle: payload.label, title, dryRun: false, changes: previews });
      kept = previews.filter((c) => selection.includes(c.path));
      return selectReviewed(changes, previews, selection);
    },
  });
  if (run.planned.length === 0 && run.skipped.length > 0) throw new SynapseError("input", `The fix cannot be applied now: ${run.skipped[0]?.reason ?? "it plans no change."}`);
  if (run.written === 0) return { status: "unchanged", changes: [], runId: null };
  return { status: "applied", changes: kept.map((c) => ({ path: c.path, action: c.action })), runId: run.runId };
}
