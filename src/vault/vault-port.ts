/**
 * The vault as the core sees it. Paths are vault-relative with forward slashes. Implemented over
 * the file system (CLI, bridge, tests) and over Obsidian's `app.vault` (the plugin).
 */
export interface VaultStat {
  readonly size: number;
  readonly mtime: number;
}

/** What `removeStrayTempFiles` found and did, as vault paths. */
export interface StrayFiles {
  /** Leftovers no longer needed, removed. */
  readonly removed: readonly string[];
  /** Files an interrupted write had set aside, put back at their path. */
  readonly restored: readonly string[];
  /** Set-aside files that differ from the file now at their path, kept under these names. */
  readonly keptAs: readonly string[];
}

export const NO_STRAY_FILES: StrayFiles = { removed: [], restored: [], keptAs: [] };

export interface VaultPort {
  /** Size and modification time, or null when nothing is there. */
  stat(path: string): Promise<VaultStat | null>;
  /** Raw bytes, so callers can refuse binary files before decoding. */
  readBytes(path: string): Promise<Uint8Array>;
  read(path: string): Promise<string>;
  /** Markdown files below a folder (recursively), vault-relative; empty when the folder is missing. */
  list(folder: string): Promise<string[]>;
  /** Creates a new file; fails if one exists. Creates missing parent folders. */
  create(path: string, content: string): Promise<void>;
  /** Atomic read-modify-write of an existing file; returns the content; writes nothing when it is unchanged. */
  process(path: string, update: (current: string) => string): Promise<string>;
  /**
   * Writes `next` over a file only if it holds exactly `expected` at the moment it is replaced —
   * not when it was read: an editor's save in between is never overwritten. False, and nothing
   * written, when it holds something else or is gone. Every rewrite of a file the user may be
   * editing goes through here (or `removeIfUnchanged`). `next` may be given as pieces to write one
   * after the other (the edited index.md, as its edit put it together: no piece ends inside a
   * character). Throws a `vault` error naming both files when the user's version had to be kept
   * under a second name (it was saved again while the check ran).
   */
  replaceIfUnchanged(path: string, expected: string, next: string | readonly string[]): Promise<boolean>;
  /**
   * Deletes a file only if it holds exactly `expected` at the moment it goes; false, and the file
   * kept, when it holds something else. True when nothing is there. Errors as `replaceIfUnchanged`.
   */
  removeIfUnchanged(path: string, expected: string): Promise<boolean>;
  /** Creates a folder and its parents; does nothing if it exists. */
  createFolder(path: string): Promise<void>;
  /** Deletes a file whatever it holds (tests and tools); the write path uses `removeIfUnchanged`. */
  remove(path: string): Promise<void>;
  /**
   * Appends text to an existing file without reading and rewriting it (log.md grows by one entry
   * per run, whatever its size).
   */
  append(path: string, text: string): Promise<void>;
  /**
   * Deals with what an interrupted write of this vault left below a folder: temporary files
   * (`*.synapse-tmp`) are removed; a file set aside while it was compared (`*.synapse-aside`) goes
   * back to its path, or is kept as a "(conflict)" copy when another file is there now. Vaults
   * whose writes leave nothing return empty lists. Run after the journal is rolled back.
   */
  removeStrayTempFiles(folder: string): Promise<StrayFiles>;
  /**
   * The vault-relative path with symbolic links resolved, where the vault can have them, so the
   * perimeter judges the folder a note really lives in, not the alias it was reached by.
   */
  realPath?(path: string): Promise<string>;
  /**
   * A note's text with the stat of the very file it was read from, or null when no file is there.
   * Where a vault offers it, a sync reads a note it has not indexed yet with this one call instead
   * of a stat and then a read.
   */
  readWithStat?(path: string): Promise<{ readonly stat: VaultStat; readonly text: string } | null>;
  /**
   * The texts of many files at once, in the order given, each as `readWithStat` would give it —
   * null for nothing readable there, a path outside the vault or a link leading out of it, so that
   * one such path never fails the rest. Where a vault offers it, an ingest reads the wiki's pages
   * with this call instead of one read per page.
   */
  readMany?(paths: readonly string[]): Promise<({ readonly stat: VaultStat; readonly text: string } | null)[]>;
  /**
   * The stats of many notes at once, in the order given, each as `stat` would give it. Where a
   * vault offers it, a sync checks the notes it has indexed in batches with this call instead of
   * one `stat` per note.
   */
  statMany?(paths: readonly string[]): Promise<(VaultStat | null)[]>;
  /**
   * Optional: the paths `list` gives, in whatever order the vault holds them, where sorting them
   * would cost the caller's thread (Obsidian's main thread, for the index's worker, which sorts
   * them itself).
   */
  listInAnyOrder?(folder: string): Promise<string[]>;
}
