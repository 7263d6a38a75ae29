/**
 * The one way vault changes reach the index: a batch of upserts, renames and deletions, each note
 * prepared (hashed, chunked, its links extracted), asked about when the caller wants (is it still
 * current?) and then committed — a preparation refused when the note was written or removed
 * meanwhile ("stale"). The plugin's vault events, the sync and the catalogue's refresh all update
 * notes through here, so the protocol is written once.
 *
 * The links a host already knows for a note (Obsidian's metadata cache) come with the change as
 * data; without them the index reads the links from the markdown. So may its frontmatter values
 * (the index's worker gets them so from the main thread); without them the index's own reader
 * reads them from the markdown.
 */
import type { HostLinks } from "./links";
import type { NoteFrontmatter } from "./note-frontmatter";
import type { CommitOutcome } from "./note-preparation";
import type { VaultIndex } from "./vault-index";

export interface NoteStat {
  readonly mtime: number;
  readonly size: number;
}

export type VaultChange =
  | { readonly kind: "upsert"; readonly path: string; readonly text: string; readonly stat: NoteStat; readonly links?: HostLinks | null; readonly frontmatter?: NoteFrontmatter | null }
  | { readonly kind: "delete"; readonly path: string }
  /** A note moved or renamed: indexed again from its text (its file name is part of its title). Without a stat it keeps the one it had. */
  | { readonly kind: "rename"; readonly from: string; readonly to: string; readonly text: string; readonly stat?: NoteStat; readonly links?: HostLinks | null; readonly frontmatter?: NoteFrontmatter | null };

export interface ApplyOptions {
  /**
   * Asked once a note is prepared, just before it is written: false leaves it unwritten ("skipped")
   * — a newer event for the note is queued, or the note moved or went while it was read.
   */
  readonly stillCurrent?: (path: string) => boolean;
}

/**
 * What became of a change: "changed" (the index holds something new), "unchanged" (the same text;
 * only its time and size recorded, or a deleted note the index never held), "stale" (written or
 * removed by something else while it was prepared: read it again if it is still there), "skipped".
 */
export type ChangeOutcome = CommitOutcome | "skipped";

export interface ApplyResult {
  /** One per change, in order. */
  readonly outcomes: readonly ChangeOutcome[];
}

/**
 * ApplyOptions as the index's worker runs them: there `stillCurrent` is asked of the main thread,
 * so its answer comes as a promise.
 */
export interface UpdateOptions extends Omit<ApplyOptions, "stillCurrent"> {
  readonly stillCurrent?: (path: string) => boolean | Promise<boolean>;
}

/** What the host parsed of a note already, if anything: its links, its frontmatter values. */
export interface HostParsed {
  readonly links?: HostLinks | null;
  readonly frontmatter?: NoteFrontmatter | null;
}

/** One note's update: prepared, then committed unless no longer current. */
export async function updateNote(index: VaultIndex, path: string, text: string, stat: NoteStat, known: HostParsed, options: UpdateOptions): Promise<ChangeOutcome> {
  const prepared = index.prepare(path, text, stat, known.links, known.frontmatter);
  // In process the answer is at hand, and nothing may run between it and the commit.
  const current = options.stillCurrent?.(path) ?? true;
  if (current === false || (current !== true && !(await current))) return "skipped";
  return index.commit(prepared);
}

/** Applies the changes in order. The first runs before anything is awaited: a deletion is out of the index when this returns its promise. */
export async function applyChanges(index: VaultIndex, changes: readonly VaultChange[], options: UpdateOptions = {}): Promise<ApplyResult> {
  const outcomes: ChangeOutcome[] = [];
  for (const change of changes) {
    if (change.kind === "delete") {
      outcomes.push(index.remove(change.path) ? "changed" : "unchanged");
      continue;
    }
    if (change.kind === "upsert") {
      outcomes.push(await updateNote(index, change.path, change.text, change.stat, change, options));
      continue;
    }
    // A note that was not indexed (it lay in an excluded folder) is new to the index where it lands;
    // with no stat given it keeps the old one, or none (the next sync then reads it once more).
    const stat = change.stat ?? index.stateOf(change.from) ?? { mtime: 0, size: -1 };
    if (index.stateOf(change.from)) index.remove(change.from);
    outcomes.push(await updateNote(index, change.to, change.text, stat, change, options));
  }
  return { outcomes };
}
