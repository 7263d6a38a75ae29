/**
 * What `synapse ingest <folder>` says: one outcome per note, the progress line for each, the JSON
 * report of the whole folder, and the exit code (the worst outcome's).
 */
import type { ErrorKind } from "../core/errors";
import type { IngestReport } from "../wiki/ingest-types";
import { EXIT } from "./io";
import { exitCodeFor, jsonReportObject } from "./report";

export const NOTE_OUTCOMES = ["ingested", "planned", "up_to_date", "not_converged", "unreadable", "failed", "cancelled", "not_started"] as const;
export type NoteOutcome = (typeof NOTE_OUTCOMES)[number];

export interface FolderNote {
  readonly path: string;
  readonly outcome: NoteOutcome;
  /** The note's own report; null when it was never started. */
  readonly report: IngestReport | null;
  readonly diffs?: ReadonlyMap<string, string>;
}

export function outcomeOf(report: IngestReport): NoteOutcome {
  if (report.upToDate) return "up_to_date";
  if (report.converged) return report.dryRun ? "planned" : "ingested";
  if (report.stopReason === "cancelled") return "cancelled";
  if (report.stopReason === "unreadable") return "unreadable";
  if (["max_iter", "budget", "deadline"].includes(report.stopReason)) return "not_converged";
  return "failed";
}

/** Failures of the provider itself, not of the note: every later note would fail the same way. */
export function stopsTheFolder(report: IngestReport): boolean {
  const kinds: readonly ErrorKind[] = ["config", "capability", "transport", "unavailable"];
  return report.error !== null && kinds.includes(report.error.kind);
}

/** Most severe first: an interrupt, a vault that could not be written, the provider, the loop, the note. */
const SEVERITY: readonly number[] = [EXIT.cancelled, EXIT.failure, EXIT.provider, EXIT.notConverged, EXIT.usage, EXIT.ok];

export function folderExitCode(notes: readonly FolderNote[]): number {
  const codes = new Set(notes.map((n) => (n.report ? exitCodeFor(n.report) : EXIT.ok)));
  return SEVERITY.find((code) => codes.has(code)) ?? EXIT.ok;
}

export function countOutcomes(notes: readonly FolderNote[]): Record<NoteOutcome, number> {
  const counts = Object.fromEntries(NOTE_OUTCOMES.map((o) => [o, 0])) as Record<NoteOutcome, number>;
  for (const note of notes) counts[note.outcome] += 1;
  return counts;
}

/** What follows the note's path in its progress line: "3 created, 1 updated", "already up to date"… */
export function outcomeText(note: FolderNote): string {
  const report = note.report;
  if (!report) return "not started";
  switch (note.outcome) {
    case "up_to_date":
      return "already up to date";
    case "ingested":
    case "planned": {
      const counts = new Map<string, number>();
      for (const p of report.pages) counts.set(p.action, (counts.get(p.action) ?? 0) + 1);
      const text = [...counts.entries()].map(([action, n]) => `${action} ${n}`).join(", ") || "no pages";
      return note.outcome === "planned" ? `planned: ${text}` : text;
    }
    case "not_converged":
      return `not converged (${report.stopReason})`;
    case "cancelled":
      return "cancelled, nothing written";
    case "unreadable":
      return report.error?.message ?? "could not read the note.";
    default:
      return `error (${report.error?.kind ?? "unknown"}): ${report.error?.message ?? "the ingest failed."}`;
  }
}

export function jsonFolderReport(folder: string, notes: readonly FolderNote[], skipped: number, error: { kind: ErrorKind; message: string } | null = null): string {
  return JSON.stringify({
    folder,
    notes: notes.map((n) => ({ path: n.path, outcome: n.outcome, report: n.report ? jsonReportObject(n.report, n.diffs) : null })),
    counts: countOutcomes(notes),
    skipped,
    error,
  });
}

/** The folder report when the provider could not even be built. */
export function jsonFolderProviderFailure(folder: string, kind: ErrorKind, message: string): string {
  return jsonFolderReport(folder, [], 0, { kind, message });
}
