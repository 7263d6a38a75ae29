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
  /** A run another device left half-written, brought in by sync (see `write/foreign-run-undo.ts`). */
  "interrupted-run",
] as const;
export type Check = (typeof CHECKS)[number];

export type Severity = "error" | "warning" | "info";

/**
 * What each kind of fix needs, by kind: a fix of one kind cannot be made, nor read, without its
 * fields (no `params.id ?? ""`). Fixes never leave the process as they are — the CLI's `--json`
 * prints kind, label and safe, and a contradiction's id — so the shapes are types, not schemas.
 */
export interface FixParams {
  /** Point a dangling link at a near page (`from` → `to`), or a `sources` entry at where its note moved. */
  readonly "retarget-link": { readonly from: string; readonly to: string } | { readonly source: string; readonly to: string };
  readonly "create-stub": { readonly title: string; readonly folder: string };
  readonly "add-to-index": Readonly<Record<string, never>>;
  /** Add a link to the orphan from a related page. */
  readonly "link-from-related": { readonly from: string };
  readonly "merge-duplicates": { readonly keep: string; readonly remove: string };
  readonly reingest: { readonly note: string };
  readonly "rebuild-index": Readonly<Record<string, never>>;
  /** The page's new path. */
  readonly "move-to-type-folder": { readonly to: string };
  readonly "drop-missing-source": { readonly source: string };
  /** Take a gone source note's part out of every page; see `wiki/retract-note.ts`. */
  readonly "retract-source": { readonly source: string };
  /** Keep one side of a recorded contradiction; a person's choice, never bulk. */
  readonly "resolve-contradiction": { readonly id: string; readonly keep: "1" | "2" };
  /** Mark a recorded contradiction as not one. */
  readonly "dismiss-contradiction": { readonly id: string };
  /** Undo here a run another device left half-written (`journal`: its state key). */
  readonly "undo-interrupted-run": { readonly journal: string };
}

export type FixKind = keyof FixParams;

/** One fix of one kind. */
export interface FixOf<K extends FixKind> {
  readonly kind: K;
  /** One line a person reads: "Point [[Adaa]] at [[Ada]]". */
  readonly label: string;
  /**
   * What else the fix does, when the label alone would not say it ("its sections leave every
   * page…"): the view shows it as the button's tooltip, the CLI after the label. Keeps buttons short.
   */
  readonly detail?: string;
  /** Changes no text the user wrote: "Fix all safe" applies it. */
  readonly safe: boolean;
  /** What the fix needs: the link to retarget and its new target, the pages to merge… */
  readonly params: FixParams[K];
}

/** A fix, told apart by its kind. */
export type Fix = { [K in FixKind]: FixOf<K> }[FixKind];

export interface Finding {
  readonly check: Check;
  readonly severity: Severity;
  /** Vault path of the page the finding is about. */
  readonly page: string;
  readonly message: string;
  readonly fixes: readonly Fix[];
}
