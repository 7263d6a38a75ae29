/**
 * Making a proposal: everything an operation does up to the write — for an ingest the model calls
 * and the plan, for an answer the page it would become — with nothing written to the vault. The
 * proposal is saved in the state folder for the user to accept or refuse.
 */
import { SynapseError } from "../core/errors";
import { planAnswerPage, saveReviewTitle, type SavableAnswer } from "../query/save";
import { ingestNote } from "../wiki/ingest-note";
import type { IngestDeps, IngestReport } from "../wiki/ingest-types";
import { effectiveWikiFolder } from "../wiki/page-paths";
import { previewChanges, type ReviewChange } from "../wiki/review";
import type { VaultPort } from "../vault/vault-port";
import { proposedChanges } from "./preview";
import type { Proposal } from "./proposal";
import { newProposalId, type ProposalStore } from "./proposal-store";
import { recordingProvider } from "./recording-provider";

export interface ProposalMeta {
  readonly proposedBy: string | null;
  readonly now: number;
}

export interface ProposedIngest {
  /** The ingest as it ran, nothing written (a dry run). */
  readonly report: IngestReport;
  /** Null when there is nothing to propose: the ingest failed, the note is up to date, or nothing would change. */
  readonly proposal: Proposal | null;
}

export async function proposeIngest(deps: IngestDeps, proposals: ProposalStore, notePath: string, meta: ProposalMeta & { force?: boolean; signal?: AbortSignal }): Promise<ProposedIngest> {
  const recording = recordingProvider(deps.provider);
  let previews: readonly ReviewChange[] = [];
  const report = await ingestNote(
    { ...deps, provider: recording.provider },
    {
      notePath,
      dryRun: true,
      ...(meta.force ? { force: true } : {}),
      ...(meta.signal ? { signal: meta.signal } : {}),
      review: (plan) => {
        previews = plan.changes;
        return Promise.resolve([]);
      },
    },
  );
  const { analysis, pages } = recording.recorded();
  const changes = proposedChanges(previews);
  if (!report.converged || report.upToDate || !pages || changes.length === 0) return { report, proposal: null };
  const caps = deps.provider.capabilities();
  const proposal: Proposal = {
    version: 1,
    id: newProposalId(meta.now),
    title: `Ingest ${notePath}`,
    createdAt: new Date(meta.now).toISOString(),
    proposedBy: meta.proposedBy,
    payload: { kind: "ingest", notePath, analysis, pages: [...pages], provider: { name: caps.name, model: caps.model, agentic: caps.supportsAgenticLoop } },
    changes,
  };
  await proposals.save(proposal);
  return { report, proposal };
}

/** Proposes to file an answer back as a synthesis page; an answer with nothing from the vault is refused. */
export async function proposeAnswer(vault: VaultPort, wikiFolder: string, proposals: ProposalStore, answer: SavableAnswer & { grounding: string }, meta: ProposalMeta): Promise<Proposal> {
  if (answer.grounding !== "vault") throw new SynapseError("input", "The wiki holds nothing on this question, so there is no answer to save as a page.");
  const change = await planAnswerPage(vault, effectiveWikiFolder(wikiFolder), answer, [], new Date(meta.now).toISOString().slice(0, 10));
  const proposal: Proposal = {
    version: 1,
    id: newProposalId(meta.now),
    title: saveReviewTitle(answer.question),
    createdAt: new Date(meta.now).toISOString(),
    proposedBy: meta.proposedBy,
    payload: {
      kind: "answer",
      question: answer.question,
      answer: answer.answer,
      citations: answer.citations.map((c) => ({ page: c.page, path: c.path, verified: c.verified, reason: c.reason, problem: c.problem })),
      passages: answer.passages.map((p) => ({ path: p.path, kind: p.kind })),
      consulted: answer.consulted.map((p) => ({ path: p.path, kind: p.kind })),
    },
    changes: proposedChanges(await previewChanges(vault, [change])),
  };
  await proposals.save(proposal);
  return proposal;
}
