/** What lint reports: findings, each with the fixes that apply to it. */

export const CHECKS = [
  "dangling-link",
  "orphan",
  "missing-sources",
  "missing-source-note",
  "stale",
  "duplicate",
  "index",
  "invalid-frontmatter",
  "empty-page",
  "wrong-folder",
  "contradiction",
  /** A run another device left half-written, brought in by sync (see `wiki/foreign-run-undo.ts`). */
  "interrupted-run",
] as const;
export type Check = (typeof CHECKS)[number];

export type Severity = "error" | "warning" | "info";

export type FixKind =
  | "retarget-link"
  | "create-stub"
  | "add-to-index"
  | "link-from-related"
  | "merge-duplicates"
  | "reingest"
  | "rebuild-index"
  | "move-to-type-folder"
  | "drop-missing-source"
  /** Take a gone source note's part out of every page (params: source); see `wiki/retract-note.ts`. */
  | "retract-source"
  /** Keep one side of a recorded contradiction (params: id, keep 1|2); a person's choice, never bulk. */
  | "resolve-contradiction"
  /** Mark a recorded contradiction as not one (params: id). */
  | "dismiss-contradiction"
  /** Undo here a run another device left half-written (params: journal, its state key). */
  | "undo-interrupted-run";

export interface Fix {
  readonly kind: FixKind;
  /** One line a person reads: "Point [[Adaa]] at [[Ada]]". */
  readonly label: string;
  /** Changes no text the user wrote: "Fix all safe" applies it. */
  readonly safe: boolean;
  /** What the fix needs: the link to retarget and its new target, the pages to merge… */
  readonly params: Readonly<Record<string, string>>;
}

export interface Finding {
  readonly check: Check;
  readonly severity: Severity;
  /** Vault path of the page the finding is about. */
  readonly page: string;
  readonly message: string;
  readonly fixes: readonly Fix[];
}
