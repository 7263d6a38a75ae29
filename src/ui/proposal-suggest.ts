/** Picking one of the agents' proposals, for "Review proposals from agents": what, from whom, when. */
import { SuggestModal, type App } from "obsidian";
import { plural } from "../core/plural";
import type { Proposal } from "../proposals/proposal";
import { localTime } from "./failed-ingests-modal";

export class ProposalSuggestModal extends SuggestModal<Proposal> {
  private chosen = false;

  constructor(
    app: App,
    private readonly proposals: readonly Proposal[],
    private readonly onDone: (proposal: Proposal | null) => void,
  ) {
    super(app);
    this.setPlaceholder("Choose a proposal to review");
  }

  getSuggestions(query: string): Proposal[] {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    return this.proposals.filter((p) => words.every((w) => `${p.title} ${p.proposedBy ?? ""}`.toLowerCase().includes(w)));
  }

  renderSuggestion(p: Proposal, el: HTMLElement): void {
    el.createDiv({ text: p.title });
    const from = p.proposedBy ? `from ${p.proposedBy}` : "from an agent";
    el.createEl("small", { text: `${from} · ${localTime(p.createdAt)} · ${plural(p.changes.length, "file")}` });
  }

  onChooseSuggestion(p: Proposal): void {
    this.chosen = true;
    this.onDone(p);
  }

  override onClose(): void {
    super.onClose();
    // Obsidian closes the list before it reports the choice: wait a turn before saying "none".
    window.setTimeout(() => {
      if (!this.chosen) this.onDone(null);
    }, 0);
  }
}
