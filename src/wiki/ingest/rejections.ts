/**
 * What the user refused, remembered per note: a change unchecked at review with the reason they
 * gave, and a page of the note that they deleted. The next ingest of that note tells the model
 * what was rejected and why (`rejectionNotes`), and does not write a deleted page again unless the
 * user asks (`synapse ingest --force`, "Re-ingest anyway").
 *
 * Stored in the state folder, one file per device (`rejections/<device>.json`): sync that lets one
 * device's copy win never loses another device's refusals, and every device reads them all.
 * Written as part of the ingest's run (journaled, undone with it). A file that cannot be read is
 * "nothing known": the worst case is a page offered again.
 */
import * as z from "zod";
import { sourceKey } from "../../core/sources";
import type { StateStore } from "../../vault/state-store";
import type { PlannedStateChange } from "../../write/planned-change";
import type { WriterIdentity } from "../../write/write-records";
import { keyName } from "../../write/writer-device";

export const REJECTIONS_FOLDER = "rejections";

export const RejectionSchema = z.object({
  /** The page the change was for (vault path). */
  page: z.string(),
  title: z.string(),
  /** "rejected": unchecked at review with a reason; "deleted": the user deleted the page. */
  kind: z.enum(["rejected", "deleted"]),
  /** The user's words; empty for a deleted page. */
  reason: z.string(),
  /** ISO time it was recorded. */
  at: z.string(),
});
export type Rejection = z.infer<typeof RejectionSchema>;

const RejectionsFileSchema = z.object({
  version: z.literal(1),
  /** Note key (`sourceKey` of its path) → what the user refused of its pages. */
  notes: z.record(z.string(), z.array(RejectionSchema)),
});
type RejectionsFile = z.infer<typeof RejectionsFileSchema>;

/** This device's file (a writer without a device, from an earlier version, shares one). */
export function rejectionsKeyOf(writer: WriterIdentity): string {
  return `${REJECTIONS_FOLDER}/${writer.device ? keyName(writer.device.id) : "shared"}.json`;
}

function parse(text: string | null): RejectionsFile {
  if (text === null) return { version: 1, notes: {} };
  try {
    const parsed = RejectionsFileSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : { version: 1, notes: {} };
  } catch {
    return { version: 1, notes: {} };
  }
}

/** Every device's refusals of this note's pages, newest last. */
export async function readRejections(store: StateStore, notePath: string): Promise<Rejection[]> {
  const note = sourceKey(notePath);
  const out: Rejection[] = [];
  for (const key of await store.list(REJECTIONS_FOLDER)) {
    out.push(...(parse(await store.read(key).catch(() => null)).notes[note] ?? []));
  }
  return out.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

/**
 * The change to this device's file: `add` recorded (one entry per page and kind, the newest
 * kept), and the entries of the pages in `forget` dropped (a page the user asked for again).
 */
export function rejectionsChange(writer: WriterIdentity, notePath: string, add: readonly Rejection[], forget: readonly string[] = []): PlannedStateChange {
  const note = sourceKey(notePath);
  const dropped = new Set(forget);
  return {
    key: rejectionsKeyOf(writer),
    followsFiles: true,
    update: (current) => {
      const file = parse(current);
      const kept = (file.notes[note] ?? []).filter((r) => !dropped.has(r.page) && !add.some((a) => a.page === r.page && a.kind === r.kind));
      const next = [...kept, ...add];
      if (next.length > 0) file.notes[note] = next;
      else delete file.notes[note];
      return Object.keys(file.notes).length === 0 && current === null ? null : JSON.stringify(file);
    },
  };
}

/** What the generation prompt is told, or "" when the user refused nothing of this note. */
export function rejectionNotes(rejections: readonly Rejection[]): string {
  const lines = rejections.map((r) =>
    r.kind === "deleted"
      ? `- The user deleted the page "${r.title}" (${r.page}) made from this note: do not write it again.`
      : `- The user rejected the change to "${r.title}" (${r.page}) because: ${r.reason.replace(/\s+/g, " ").trim()}`,
  );
  return lines.length === 0 ? "" : `What the user rejected in earlier ingests of this note (respect it):\n${lines.join("\n")}`;
}
