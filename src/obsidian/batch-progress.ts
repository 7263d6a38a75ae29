/**
 * What the status bar shows while batch ingests are out: a snapshot of the recorded batches that
 * are not finished, and the words for it — a short text in the bar ("Synapse: batch · 12 notes"),
 * the detail (each batch's status line, what a click does) in its tooltip. A batch runs for hours
 * at the provider, so without this nothing on screen says one is under way. Plain functions, so
 * the wording is tested without a DOM.
 */
import { plural } from "../core/plural";

export interface BatchSnapshot {
  /** Notes still running across the unfinished batches (waiting at the provider or for a collect). */
  readonly notes: number;
  /** The unfinished batches, one "Show batch ingest status" line each. */
  readonly lines: readonly string[];
  /** Batches a collect would carry on now (results in, or a round to send). */
  readonly ready: number;
  /** A collect is under way. */
  readonly collecting: boolean;
}

export const NO_BATCHES: BatchSnapshot = { notes: 0, lines: [], ready: 0, collecting: false };

/** At most 32 characters, like the ingest's status text; empty (the item hidden) when no batch is out. */
export function batchStatusText(snapshot: BatchSnapshot): string {
  if (snapshot.lines.length === 0) return "";
  if (snapshot.collecting) return "Synapse: collecting batch";
  if (snapshot.ready > 0) return "Synapse: batch results in";
  // How many batches is in the tooltip, one line each: the bar has room for the notes only.
  return `Synapse: ${snapshot.lines.length === 1 ? "batch" : "batches"} · ${plural(snapshot.notes, "note")}`;
}

/** The tooltip: each batch's line, then what a click does. */
export function batchStatusTooltip(snapshot: BatchSnapshot): string {
  if (snapshot.lines.length === 0) return "";
  const click = snapshot.collecting ? "" : snapshot.ready > 0 ? "Click to collect the results" : "Click to ask the provider for the latest status";
  return [...snapshot.lines, ...(click ? [click] : [])].join("\n");
}
