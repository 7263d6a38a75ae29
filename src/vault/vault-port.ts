/**
 * The vault as the core sees it. Paths are vault-relative with forward slashes. Implemented over
 * the file system (CLI, bridge, tests) and over Obsidian's `app.vault` (the plugin).
 */
export interface VaultStat {
  readonly size: number;
  readonly mtime: number;
}

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
   * Writes `next` over a file only if it still holds exactly `expected` (read a moment ago), atomically
   * as `process` does; false, and nothing written, when it does not. Optional: a vault that can check
   * the file without decoding it again (a file of megabytes, index.md) offers it; the others are
   * written through `process`. `next` may be given as pieces to write one after the other (the
   * edited index.md, as its edit put it together: no piece ends inside a character).
   */
  replaceIfUnchanged?(path: string, expected: string, next: string | readonly string[]): Promise<boolean>;
  /** Creates a folder and its parents; does nothing if it exists. */
  createFolder(path: string): Promise<void>;
  /** Deletes a file (used to roll back a file this run created, and by lint and undo). */
  remove(path: string): Promise<void>;
  /**
   * Appends text to an existing file without reading and rewriting it (log.md grows by one entry
   * per run, whatever its size).
   */
  append(path: string, text: string): Promise<void>;
  /**
   * Removes the temporary files an interrupted write of this vault left below a folder
   * (`*.synapse-tmp`) and returns their paths. Vaults whose writes leave none return [].
   */
  removeStrayTempFiles(folder: string): Promise<string[]>;
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
   * The stats of many notes at once, in the order given, each as `stat` would give it. Where a
   * vault offers it, a sync checks the notes it has indexed in batches with this call instead of
   * one `stat` per note.
   */
  statMany?(paths: readonly string[]): Promise<(VaultStat | null)[]>;
}
