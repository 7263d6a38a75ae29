/**
 * "Review proposals from agents" in Obsidian: the service over the plugin's state folder, its
 * command (no default hotkey), the notice when agents leave proposals (at load, then on a light
 * interval: the state folder lives in the config folder, which sends no vault events), and the
 * windows it asks through — the list, the review window ingest uses, a yes-or-no to refuse.
 */
import { Notice, type Plugin } from "obsidian";
import { ConfirmModal } from "../ui/confirm-modal";
import { ProposalSuggestModal } from "../ui/proposal-suggest";
import { ResultModal } from "../ui/result-modal";
import type { WriteContext } from "../write/apply";
import type { ReviewHook } from "../wiki/review";
import type { IngestService } from "./ingest-service";
import { actionNotice } from "./ingest-service";
import { buildResultListing, noteName } from "./outcome";
import { ProposalReviewService } from "./proposal-service";

/** How often the state folder is looked at for new proposals: one small folder listing. */
export const PROPOSAL_CHECK_MS = 30_000;

export interface ProposalWiring {
  readonly write: WriteContext;
  readonly ingest: IngestService;
  readonly review: ReviewHook;
  readonly undo: () => void;
}

export function registerProposals(plugin: Plugin, wiring: ProposalWiring): ProposalReviewService {
  const { app } = plugin;
  const service = new ProposalReviewService({
    store: wiring.write.store,
    acceptDeps: () => wiring.ingest.acceptDeps(),
    review: wiring.review,
    pick: (proposals) => new Promise((resolve) => new ProposalSuggestModal(app, proposals, resolve).open()),
    confirmRefuse: (proposal) =>
      new Promise((resolve) =>
        new ConfirmModal(app, { title: "Refuse the proposal?", text: `You applied none of "${proposal.title}". Refuse it (nothing is written), or keep it waiting to review later.`, confirm: "Refuse", keep: "Keep it waiting" }, resolve).open(),
      ),
    notify: (text, actions, timeoutMs) => new Notice(actions.length > 0 ? actionNotice(text, actions) : text, timeoutMs),
    details: (notePath, report) => new ResultModal(app, buildResultListing([{ notePath, report }], `Ingested "${noteName(notePath)}"`)).open(),
    undo: wiring.undo,
  });
  plugin.addCommand({ id: "review-proposals", name: "Review proposals from agents", callback: () => void service.review() });
  plugin.registerInterval(window.setInterval(() => void service.check(), PROPOSAL_CHECK_MS));
  return service;
}
