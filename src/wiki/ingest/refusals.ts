/**
 * An ingest's side of what the user refused (rejections.ts): the model is told of the changes the
 * user rejected with a reason and of the pages they deleted, a deleted page is not written again
 * unless the user asks (`force`), and the refusals of this review are remembered for next time.
 */
import type { PlannedPage } from "./plan-pages";
import { rejectionNotes, rejectionsChange, type Rejection } from "./rejections";
import type { PlannedStateChange } from "../../write/planned-change";
import type { ReviewChange } from "../review";
import type { WriterIdentity } from "../../write/write-records";

/** The related context handed to generate, with the user's refusals after it. */
export function withRejections(related: string, rejections: readonly Rejection[]): string {
  const notes = rejectionNotes(rejections);
  return notes ? (related.trim() ? `${related}\n\n${notes}` : notes) : related;
}

export interface DeletedPages {
  /** The plan without the pages the user deleted (all of it when `force`). */
  readonly planned: PlannedPage[];
  /** Pages the plan would have made again, left out. */
  readonly notWritten: readonly PlannedPage[];
  /** The deletions to remember (pages an earlier ingest of the note wrote, gone now). */
  readonly remember: readonly Rejection[];
  /** Deleted pages written again on request (`force`): no longer remembered as deleted. */
  readonly forget: readonly string[];
}

/**
 * A page this note's earlier ingest wrote (`previousPages`, from its registry entry) or that was
 * remembered as deleted, which the plan would create: the user deleted it.
 */
export function leaveOutDeleted(planned: readonly PlannedPage[], previousPages: readonly string[], rejections: readonly Rejection[], force: boolean, at: string): DeletedPages {
  const deleted = new Set([...previousPages, ...rejections.filter((r) => r.kind === "deleted").map((r) => r.page)]);
  const again = planned.filter((p) => p.action === "created" && deleted.has(p.path));
  if (force) return { planned: [...planned], notWritten: [], remember: [], forget: again.map((p) => p.path) };
  const left = new Set(again);
  return {
    planned: planned.filter((p) => !left.has(p)),
    notWritten: again,
    remember: again.map((p) => ({ page: p.path, title: p.title, kind: "deleted", reason: "", at })),
    forget: [],
  };
}

/** The changes unchecked at review with a reason, as rejections to remember. */
export function reviewRejections(declined: readonly ReviewChange[], reasons: ReadonlyMap<string, string>, at: string): Rejection[] {
  return declined.flatMap((c) => {
    const reason = reasons.get(c.path)?.trim() ?? "";
    return reason ? [{ page: c.path, title: c.title, kind: "rejected" as const, reason, at }] : [];
  });
}

/** The state change recording them, or none when there is nothing to record. */
export function refusalsChange(writer: WriterIdentity, notePath: string, add: readonly Rejection[], forget: readonly string[]): PlannedStateChange[] {
  return add.length + forget.length === 0 ? [] : [rejectionsChange(writer, notePath, add, forget)];
}

/** The sentence for a page left out because the user deleted it, as a terminal and as Obsidian say it. */
export const NOT_WRITTEN_AGAIN = {
  detail: "You deleted this page, so it was not written again; re-ingest anyway (synapse ingest --force) to bring it back.",
  pluginDetail: 'You deleted this page, so it was not written again; run "Re-ingest active note anyway" on the note to bring it back.',
} as const;
