/** The questions asked through the one confirm modal, each naming what would be lost. */
import type { IngestEstimate } from "../batch/estimate";
import { plural } from "../core/plural";
import { formatUsd } from "../core/cost-text";
import type { ConfirmQuestion } from "./confirm-modal";

export const CLEAR_CONVERSATION: ConfirmQuestion = {
  title: "Clear the conversation?",
  text: "Every question and answer here is removed. Answers you saved as pages stay in the wiki.",
  confirm: "Clear",
  keep: "Keep",
};

/** Before an undo would discard edits the user made after the run: it lists the files, never decides alone. */
export function undoEditsQuestion(what: string, files: readonly string[]): ConfirmQuestion {
  return {
    title: "Undo and lose your edits?",
    text: `You edited these files after ${what}. Undoing restores them as they were before it, and your edits to them are lost:`,
    list: files,
    confirm: "Undo anyway",
    keep: "Keep everything",
  };
}

/** Before the status bar's click stops the running ingest, so one stray click loses no run. */
export function cancelIngestQuestion(label: string, queued: number): ConfirmQuestion {
  const waiting = queued === 0 ? "" : ` The ${queued === 1 ? "note" : `${queued} notes`} waiting after it will not be ingested.`;
  return { title: "Cancel the ingest?", text: `Synapse stops ingesting "${label}".${waiting}`, confirm: "Cancel ingest", keep: "Keep going" };
}

/**
 * Before a folder ingest whose backend has a batch API: now (pages as each note is done) or as a
 * batch (half the price, results within hours), with the estimate both ways; closing starts neither.
 */
export function batchChoiceQuestion(notes: number, where: string, estimate: IngestEstimate, model: string): ConfirmQuestion {
  const tokens = `about ${count(estimate.inputTokens)} tokens in and ${count(estimate.outputTokens)} out with ${model}`;
  const price = (usd: number | null) => (usd === null ? "no price is known for the model" : `about ${formatUsd(usd)}`);
  return {
    title: `Ingest ${plural(notes, "note")} now or as a batch?`,
    text: `${plural(notes, "note")} from ${where}: ${tokens}.`,
    list: [
      `Ingest now: ${price(estimate.interactiveUsd)}; pages as each note is done.`,
      `Send as a batch: ${price(estimate.batchUsd)}; results within hours. Closing Obsidian loses nothing, and Synapse tells you when they are in.`,
    ],
    confirm: "Send as a batch",
    alternative: "Ingest now",
    keep: "Cancel",
    tone: "choice",
  };
}

const count = (n: number) => n.toLocaleString("en-US");
