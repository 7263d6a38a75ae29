/**
 * Proposals from agents, reviewed in Obsidian: the proposals `synapse mcp` staged in the vault's
 * state folder (read through the plugin's state store, where the CLI writes them too), listed for
 * the user to pick one, accepted through `acceptProposal` with the review window every ingest uses,
 * or refused (nothing written). New proposals are announced once each. The UI — the picker, the
 * question, the notices — comes in as functions, so this runs (and is tested) without it.
 */
import { messageOn, toSynapseError } from "../core/errors";
import { plural } from "../core/plural";
import { acceptProposal, refuseProposal, type AcceptDeps, type AcceptOutcome } from "../proposals/accept";
import { PROPOSALS_PREFIX, type Proposal } from "../proposals/proposal";
import { ProposalStore } from "../proposals/proposal-store";
import type { StateStore } from "../vault/state-store";
import type { IngestReport } from "../wiki/ingest-types";
import type { ReviewHook } from "../wiki/review";
import { outcomeNotice } from "./outcome";

export interface NoticeAction {
  readonly label: string;
  readonly run: () => void;
}

export interface ProposalReviewDeps {
  /** The plugin's state store: `proposals/` in it is where agents' proposals wait. */
  readonly store: StateStore;
  /** What accepting writes through: the vault, the settings in force, the write path, the index. */
  readonly acceptDeps: () => Promise<AcceptDeps>;
  /** The review window (always shown: an agent's change is never written unseen). */
  readonly review: ReviewHook;
  /** Lists the waiting proposals; resolves with the one chosen, or null when the list was closed. */
  readonly pick: (proposals: readonly Proposal[]) => Promise<Proposal | null>;
  /** Asked when the review kept none of a proposal's changes: refuse it (true) or keep it waiting. */
  readonly confirmRefuse: (proposal: Proposal) => Promise<boolean>;
  readonly notify: (text: string, actions: readonly NoticeAction[], timeoutMs: number) => void;
  /** The result window of an accepted ingest ("Show details" on its notice). */
  readonly details?: (notePath: string, report: IngestReport) => void;
  /** "Undo last ingest or other change", offered on the notice once a proposal is applied. */
  readonly undo?: () => void;
}

/** "Ingest notes/Ada.md", or with who asked: "Ingest notes/Ada.md (from claude-code 2.0)". */
export function proposalLine(p: Proposal): string {
  return p.proposedBy ? `${p.title} (from ${p.proposedBy})` : p.title;
}

/** The notice for proposals seen for the first time: at load (`waiting`), or left while Obsidian is open. */
export function newProposalsText(fresh: readonly Proposal[], waiting: boolean): string {
  const [first] = fresh;
  if (waiting) return `Synapse: ${plural(fresh.length, "proposal")} from agents ${fresh.length === 1 ? "is" : "are"} waiting for your review.`;
  if (fresh.length === 1 && first) return `Synapse: an agent proposed a change to the wiki: ${proposalLine(first)}.`;
  return `Synapse: agents left ${plural(fresh.length, "new proposal")} for your review.`;
}

/** The notice once a proposal is applied: an ingest's is the one a single-note ingest ends with. */
export function acceptedText(proposal: Proposal, outcome: AcceptOutcome): string {
  const { payload } = proposal;
  if (payload.kind === "ingest" && outcome.report) return outcomeNotice(payload.notePath, outcome.report).text;
  return `Synapse applied "${proposal.title}": ${plural(outcome.changes.length, "file")} changed.`;
}

export class ProposalReviewService {
  readonly proposals: ProposalStore;
  /** The ids announced so far; null until the first look (at load), which names what waits. */
  private seen: Set<string> | null = null;
  private checking: Promise<void> | null = null;
  private reviewing = false;

  constructor(private readonly deps: ProposalReviewDeps) {
    this.proposals = new ProposalStore(deps.store);
  }

  /**
   * Looks for proposals not announced yet and announces them in one notice (called at load and
   * on a light interval). A look already under way is joined, so a slow disk never doubles a notice.
   */
  check(): Promise<void> {
    this.checking ??= this.look().finally(() => (this.checking = null));
    return this.checking;
  }

  private async look(): Promise<void> {
    const fresh: Proposal[] = [];
    const first = this.seen === null;
    try {
      // A listing of one small folder; only proposals not seen before are read.
      const seen = this.seen ?? new Set<string>();
      const ids = (await this.deps.store.list(PROPOSALS_PREFIX)).filter((k) => k.endsWith(".json")).map((k) => k.slice(PROPOSALS_PREFIX.length + 1, -".json".length));
      for (const id of ids.filter((i) => !seen.has(i)).sort()) {
        seen.add(id);
        // One that cannot be read is named by the review's list, not announced.
        const proposal = await this.proposals.get(id).catch(() => null);
        if (proposal) fresh.push(proposal);
      }
      this.seen = seen;
    } catch (error) {
      // The state folder being unreadable for a moment is no reason to interrupt the user.
      console.error("Synapse: could not list the proposals from agents", error);
      return;
    }
    if (fresh.length === 0) return;
    this.deps.notify(newProposalsText(fresh, first), [{ label: "Review", run: () => void this.review() }], 15000);
  }

  /** "Review proposals from agents": pick one, see its changes, accept what you keep or refuse it. */
  async review(): Promise<void> {
    if (this.reviewing) return;
    this.reviewing = true;
    try {
      const listing = await this.proposals.list();
      for (const p of listing.proposals) this.seen?.add(p.id);
      const unreadable = listing.unreadable.length > 0 ? ` (${plural(listing.unreadable.length, "file")} in the proposals folder could not be read and ${listing.unreadable.length === 1 ? "was" : "were"} left as ${listing.unreadable.length === 1 ? "it is" : "they are"})` : "";
      if (listing.proposals.length === 0) {
        this.deps.notify(`No proposals from agents are waiting${unreadable}.`, [], 6000);
        return;
      }
      const chosen = await this.deps.pick(listing.proposals);
      if (chosen) await this.decide(chosen);
    } catch (error) {
      this.deps.notify(`Synapse could not read the proposals from agents: ${messageOn(toSynapseError(error, "vault"), "plugin")}`, [], 10000);
    } finally {
      this.reviewing = false;
    }
  }

  /** Accepts what the review window keeps; a window that keeps nothing asks whether to refuse it. */
  async decide(proposal: Proposal): Promise<void> {
    let outcome: AcceptOutcome;
    try {
      outcome = await acceptProposal(await this.deps.acceptDeps(), this.proposals, proposal, this.deps.review);
    } catch (error) {
      const message = messageOn(toSynapseError(error, "vault"), "plugin");
      this.deps.notify(`Synapse could not apply "${proposal.title}": ${message} The proposal keeps waiting.`, [{ label: "Refuse it", run: () => void this.refuse(proposal) }], 15000);
      return;
    }
    if (outcome.status === "declined") {
      if (await this.deps.confirmRefuse(proposal)) await this.refuse(proposal);
      else this.deps.notify(`"${proposal.title}" keeps waiting for your review.`, [], 6000);
      return;
    }
    if (outcome.status === "unchanged") {
      this.deps.notify(`Nothing to change for "${proposal.title}": the wiki already holds it.`, [], 8000);
      return;
    }
    const { payload } = proposal;
    const report = outcome.report;
    const details = this.deps.details;
    const actions: NoticeAction[] = [
      ...(payload.kind === "ingest" && report && details ? [{ label: "Show details", run: () => details(payload.notePath, report) }] : []),
      ...(this.deps.undo ? [{ label: "Undo", run: this.deps.undo }] : []),
    ];
    this.deps.notify(acceptedText(proposal, outcome), actions, 10000);
  }

  async refuse(proposal: Proposal): Promise<void> {
    try {
      await refuseProposal(this.proposals, proposal.id);
      this.deps.notify(`Refused "${proposal.title}"; nothing was written.`, [], 6000);
    } catch (error) {
      this.deps.notify(`Synapse could not refuse "${proposal.title}": ${messageOn(toSynapseError(error, "vault"), "plugin")}`, [], 10000);
    }
  }
}
