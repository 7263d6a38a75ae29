/**
 * One change to one file of the vault, as every operation plans it (ingest, query's "save as page",
 * lint's fixes, undo) and as `applyPlan` carries it out. A change says what it does relative to
 * the file as it was planned, and how to recompute itself from the file as it is when applied.
 */

/** What a run does to a page it keeps: the actions a report tells the user. */
export type PageAction = "created" | "updated" | "merged" | "unchanged";

/** What applying a change did (or will do) to its file; `removed` deletes it. */
export type ChangeAction = PageAction | "removed";

/**
 * Why a page the model wrote under one title is planned as a change to an existing page with
 * another: shown at review and in the result, so the user can refuse it (which keeps the two apart
 * from then on: wiki/ingest/match-verdicts.ts).
 */
export interface PageMatch {
  /** The title the model gave the page. */
  readonly newTitle: string;
  /** The existing page's title. */
  readonly existingTitle: string;
  /** Found by an alias, or by similarity (with a model's confirmation when there is a model). */
  readonly reason: "alias" | "similar";
  /** One sentence: `Added to "Vienna" as an alias because "Wien" is already one of its aliases.` */
  readonly sentence: string;
}

export interface PlannedChange {
  /** Vault-relative path. */
  readonly path: string;
  /** Page type (entity, concept, source, synthesis, comparison), or "index"/"log" for bookkeeping. */
  readonly type: string;
  readonly title: string;
  /** What the change will do, judged against the file as it was when planned. */
  readonly action: ChangeAction;
  /**
   * Content of a new file. When the file exists by the time the plan is applied (someone made it
   * since), the change uses `update` if it has one; otherwise nothing is written and the run stops.
   */
  readonly create?: string;
  /** For an existing file: the new content computed from whatever the file holds when applied. */
  readonly update?: (current: string) => { content: string; action: PageAction };
  /**
   * Deletes the file. With `expected`, only if it still holds exactly that text; otherwise nothing
   * is written and the run stops (someone edited the file since it was planned).
   */
  readonly remove?: { readonly expected?: string };
  /** Set when a page the model titled otherwise is planned onto this existing page. */
  readonly match?: PageMatch;
}

/**
 * A change to one of Synapse's own records in the StateStore (not a vault file) that belongs to a
 * run: it is journaled, applied and undone with the run's files, so that undoing the run leaves
 * the record as it was (a contradiction the run resolved is open again). Never shown for review:
 * it is bookkeeping that follows from the file changes the user kept.
 */
export interface PlannedStateChange {
  /** The StateStore key ("contradictions.json", "sources/notes-3f.json"). */
  readonly key: string;
  /**
   * The new value from the current one (null: the key is missing; returning null removes it).
   * `runId` is the id the run will be recorded under, null when no run is recorded (see
   * `followsFiles`). Throwing stops the run before anything is written.
   */
  readonly update: (current: string | null, runId: string | null) => string | null;
  /**
   * Bookkeeping that only follows the files (the registry of ingested notes): when the run changes
   * no file, it is still written — under the lock, journaled until done — but makes no run of its
   * own (no history record, no log entry, runId null). Without it, a record changed alone is a run.
   */
  readonly followsFiles?: boolean;
}
