/**
 * Review before apply: the plan as a person reads it (every page created, updated or merged, with
 * its content before and after and a unified diff), and the hook through which a caller — the
 * plugin's review modal, the CLI's --diff, later query's "save as page" and lint's fixes — decides
 * which of those changes are written. The core never asks the user itself; it calls the hook.
 */
import { FILE_HEADERS_ONLY, createTwoFilesPatch } from "diff";
import type { ReviewMode } from "../settings/schema";
import type { VaultPort } from "../vault/vault-port";
import type { ChangeAction, PageMatch, PlannedChange } from "../write/planned-change";

export { REVIEW_MODES, type ReviewMode } from "../settings/schema";

export interface ReviewChange {
  readonly path: string;
  readonly type: string;
  readonly title: string;
  readonly action: ChangeAction;
  /** The file as it is now; null for a page this run creates. */
  readonly before: string | null;
  /** The file as the run would leave it; null for a file this run removes. */
  readonly after: string | null;
  /** Unified diff from before (or /dev/null) to after (or /dev/null). */
  readonly diff: string;
  /** Why a page the model titled otherwise is this existing page; leaving the change out keeps the two apart. */
  readonly match?: PageMatch;
}

export interface ReviewPlan {
  /** The note being ingested. */
  readonly notePath: string;
  readonly sourceTitle: string;
  /**
   * The review window's title, when the changes do not come from a note (a saved answer, a lint
   * fix); absent, the window names the note they come from.
   */
  readonly title?: string;
  /** True when nothing will be written whatever is selected (a dry run): the plan is for reading. */
  readonly dryRun: boolean;
  /** Only changes that would alter the vault; pages already up to date are not listed. */
  readonly changes: readonly ReviewChange[];
  /**
   * Told the reason the user gave for leaving a change out (by its path), before the hook returns:
   * an ingest remembers it and tells the model next time. Absent where reasons are not kept.
   */
  readonly onReason?: (path: string, reason: string) => void;
}

/** Paths of the changes to apply; every change not listed is left out (an empty list applies nothing). */
export type ReviewSelection = readonly string[];
export type ReviewHook = (plan: ReviewPlan) => Promise<ReviewSelection>;

export function unifiedDiff(path: string, before: string | null, after: string | null): string {
  const from = before === null ? "/dev/null" : `a/${path}`;
  const to = after === null ? "/dev/null" : `b/${path}`;
  return createTwoFilesPatch(from, to, before ?? "", after ?? "", undefined, undefined, { context: 3, headerOptions: FILE_HEADERS_ONLY });
}

/** Computes each planned page's content after the change, from the file as it is now. */
export async function previewChanges(vault: VaultPort, planned: readonly PlannedChange[]): Promise<ReviewChange[]> {
  const previews: ReviewChange[] = [];
  for (const change of planned) {
    let before: string | null = null;
    let after: string | null;
    let action = change.action;
    if (change.remove) {
      if (!(await vault.stat(change.path))) continue;
      before = await vault.read(change.path);
      after = null;
    } else if (change.create !== undefined) after = change.create;
    else if (change.update) {
      before = await vault.read(change.path);
      const next = change.update(before);
      after = next.content;
      action = next.action;
    } else continue;
    previews.push({ path: change.path, type: change.type, title: change.title, action, before, after, diff: unifiedDiff(change.path, before, after), ...(change.match ? { match: change.match } : {}) });
  }
  return previews;
}

/** Should the plan be shown under this mode? "changes": when a page that exists now would change. */
export function needsReview(mode: ReviewMode, plan: ReviewPlan): boolean {
  if (plan.changes.length === 0 || mode === "never") return false;
  return mode === "always" || plan.changes.some((c) => c.before !== null);
}

/** Every change's path: the selection that applies the whole plan. */
export function everything(plan: ReviewPlan): ReviewSelection {
  return plan.changes.map((c) => c.path);
}

/**
 * A hook that asks `ask` only when the mode says the plan needs review (needsReview) and applies
 * the whole plan otherwise. `mode` is read per plan, so a changed setting takes effect at once.
 */
export function reviewWhenNeeded(mode: () => ReviewMode, ask: ReviewHook): ReviewHook {
  return (plan) => (needsReview(mode(), plan) ? ask(plan) : Promise.resolve(everything(plan)));
}

/**
 * Keeps the selected changes, each pinned to what the reviewer saw: when the file still holds what
 * the preview read, exactly the previewed content is written; when it changed in between, the
 * planned update is computed again from the new content, so a later edit is merged, never lost.
 */
export function selectReviewed(planned: readonly PlannedChange[], previews: readonly ReviewChange[], selection: ReviewSelection): PlannedChange[] {
  const chosen = new Set(selection);
  const shown = new Map(previews.map((p) => [p.path, p]));
  const kept: PlannedChange[] = [];
  for (const change of planned) {
    const preview = shown.get(change.path);
    // Pages with nothing to change were not offered; they stay in the plan (index, log, registry).
    if (!preview || preview.action === "unchanged") {
      kept.push(change);
      continue;
    }
    if (!chosen.has(change.path)) continue;
    const update = change.update;
    if (!update || preview.before === null || preview.after === null || preview.action === "removed") {
      kept.push(change);
      continue;
    }
    const { before, after, action } = preview;
    kept.push({ ...change, action, update: (current) => (current === before ? { content: after, action } : update(current)) });
  }
  return kept;
}
