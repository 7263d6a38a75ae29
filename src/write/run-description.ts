/** How undo names a run to the user, in the CLI and the plugin alike. */
import type { RunRecord } from "./write-records";
import { deviceName } from "./writer-device";

/**
 * "the ingest of “Note” (2026-12-02 01:00 UTC, on laptop)". Named with its device: undo takes back
 * this device's runs only (or an earlier version's), never one sync brought in.
 */
export function describeRunForUndo(run: Pick<RunRecord, "operation" | "label" | "at" | "writer">): string {
  return `the ${run.operation} of “${run.label}” (${new Date(run.at).toISOString().slice(0, 16).replace("T", " ")} UTC, on ${deviceName(run.writer)})`;
}
