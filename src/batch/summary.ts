/** Where a batch ingest stands, in counts, for `synapse batch status` and the plugin's notice. */
import { openRound, type BatchRecord, type NoteState } from "./record";

export interface BatchSummary {
  readonly id: string;
  readonly provider: string;
  readonly model: string;
  readonly folder: string;
  readonly createdAt: string;
  /** Rounds submitted so far. */
  readonly rounds: number;
  /** The round at the provider, if one is. */
  readonly open: { readonly round: number; readonly remoteId: string | null; readonly requests: number; readonly canceled: boolean } | null;
  readonly notes: Readonly<Record<NoteState, number>>;
  /** Notes that need the user: failed (retry) or changed (skipped). */
  readonly attention: readonly { readonly path: string; readonly state: NoteState; readonly message: string | null }[];
}

export function summarise(record: BatchRecord): BatchSummary {
  const notes: Record<NoteState, number> = { running: 0, applied: 0, up_to_date: 0, failed: 0, changed: 0 };
  for (const note of record.notes) notes[note.state] += 1;
  const open = openRound(record);
  return {
    id: record.id,
    provider: record.provider,
    model: record.model,
    folder: record.folder,
    createdAt: record.createdAt,
    rounds: record.rounds.length,
    open: open ? { round: open.round, remoteId: open.remoteId, requests: open.requests, canceled: open.canceled } : null,
    notes,
    attention: record.notes.filter((n) => n.state === "failed" || n.state === "changed").map((n) => ({ path: n.path, state: n.state, message: n.message })),
  };
}

/** "12 applied, 3 running, 1 failed". */
export function countsText(summary: BatchSummary): string {
  const parts = Object.entries(summary.notes)
    .filter(([, n]) => n > 0)
    .map(([state, n]) => `${n} ${state.replace(/_/g, " ")}`);
  return parts.join(", ") || "no notes";
}
