/** The batch commands' output: one line per note as its pass ends, a summary per batch, the JSON report. */
import type { RemoteStatus } from "../batch/batch-api";
import type { BatchNote, BatchRecord } from "../batch/record";
import { countsText, summarise } from "../batch/summary";

export function noteLine(note: BatchNote): string {
  return `  ${note.state.replace(/_/g, " ")}: ${note.path}${note.message ? ` — ${note.message}` : ""}\n`;
}

/** What the user reads after a step: where the batch is and what to do next. */
export function stepText(record: BatchRecord, submitted: number, waiting: RemoteStatus | null): string {
  const summary = summarise(record);
  const head = `Batch ${record.id} (${record.provider}, ${record.model}): ${countsText(summary)}.`;
  if (waiting) {
    const done = waiting.total > 0 ? ` (${waiting.done} of ${waiting.total} requests done)` : "";
    return `${head}\nRound ${summary.rounds} is still ${waiting.status.replace(/_/g, " ")} at the provider${done}; run synapse batch collect again later.\n`;
  }
  const next = submitted > 0 ? `\nRound ${summary.rounds} sent: ${submitted} request${submitted === 1 ? "" : "s"}. Closing the terminal loses nothing; run synapse batch collect later (results within hours).` : "";
  const failed = summary.notes.failed > 0 ? `\n${summary.notes.failed} note${summary.notes.failed === 1 ? "" : "s"} failed: synapse batch collect ${record.id} --retry-failed ingests them interactively.` : "";
  return `${head}${next}${failed}\n`;
}

export function jsonStep(record: BatchRecord, submitted: number, waiting: RemoteStatus | null): Record<string, unknown> {
  return {
    ...summarise(record),
    submitted,
    waiting,
    notesDetail: record.notes.map((n) => ({ path: n.path, state: n.state, message: n.message })),
  };
}
