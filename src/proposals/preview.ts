/** A proposal's changes as the review lists them, each diff cut to a bounded size. */
import type { ReviewChange } from "../wiki/review";
import type { ProposedChange } from "./proposal";

/** Characters of one change's diff a proposal keeps (the full change is planned again on accept). */
export const MAX_DIFF_CHARS = 20_000;

export function proposedChanges(changes: readonly ReviewChange[]): ProposedChange[] {
  return changes
    .filter((c) => c.action !== "unchanged")
    .map((c) => {
      const truncated = c.diff.length > MAX_DIFF_CHARS;
      // Never half a surrogate pair.
      const cut = truncated ? c.diff.slice(0, MAX_DIFF_CHARS).replace(/[\uD800-\uDBFF]$/, "") : c.diff;
      return { path: c.path, action: c.action, diff: cut, truncated };
    });
}
