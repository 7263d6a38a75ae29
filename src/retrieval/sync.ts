/**
 * Brings a VaultIndex up to date with the vault: new and changed notes are indexed, vanished ones
 * dropped. The cheap test comes first (modification time and size), then the content hash, so a
 * sync that touched every file's time re-reads them but re-indexes none. The work between two
 * reads is plain synchronous code (in the plugin it runs in the index's worker); a cancelled sync
 * stops between two batches of notes. With an embedder, the chunks of new and changed notes are
 * then embedded (cached chunks are not).
 */
import type { VaultPort, VaultStat } from "../vault/vault-port";
import { updateNote } from "./index-apply";
import type { VaultIndex } from "./vault-index";

export interface SyncProgress {
  readonly done: number;
  readonly total: number;
}

export interface SyncOptions {
  readonly progress?: (progress: SyncProgress) => void;
  readonly signal?: AbortSignal;
  /** Notes between two progress lines and checks for cancellation (default 50). */
  readonly batchSize?: number;
  /** Persist the changed shards at the end (default true). */
  readonly flush?: boolean;
  /** Progress of embedding, when an embedder is configured (after the text pass). */
  readonly embedProgress?: (progress: SyncProgress) => void;
  /**
   * Embed the pending chunks after the text pass (default true). The plugin passes false and
   * embeds in the background once the index answers from text and links.
   */
  readonly embed?: boolean;
  /**
   * Check only part of the vault for changes: the notes below these folders (recursively; "" is
   * the whole vault) and these notes. The vault is still listed whole — names only, no stat — so
   * notes that appeared are indexed and notes that vanished are dropped, and every name the index
   * answers for (is there a note called X?) is exact; a note outside the part that the index holds
   * already is taken as it was, its time and size not checked. An ingest reads only the wiki and
   * its own notes, so it checks those; a later full sync (search, index) catches up with the rest.
   */
  readonly only?: SyncPart;
  /**
   * The vault's whole listing (`vault.list("")`) when the caller started it already: the CLI starts
   * it before the index loads, so the disk is walked while the shards are decoded. Default: listed here.
   */
  readonly listing?: Promise<readonly string[]>;
}

export interface SyncPart {
  readonly folders: readonly string[];
  readonly notes?: readonly string[];
}

export interface SyncResult {
  readonly total: number;
  readonly indexed: number;
  readonly removed: number;
  readonly unchanged: number;
  readonly shardsWritten: number;
  readonly bytesWritten: number;
  /** Chunks sent to the embedding model (cache misses); 0 without an embedder. */
  readonly embedded: number;
  /** Why vectors are off for this session, when the embedding model failed. */
  readonly vectorError: string | null;
}

/** Notes being read ahead of the one being indexed. */
const READ_AHEAD = 8;

/** Indexed notes stat'ed in one call where the vault has `statMany`. */
const STAT_BATCH = 256;

/**
 * Batches of stats asked for ahead of the one being checked: in the index's worker each call is a
 * round trip to the main thread, and the trips' waits, not the checks, were most of a warm start's
 * sync (about 200 batches at 50,000 notes).
 */
const STATS_AHEAD = 4;

type Fetched = "gone" | "unchanged" | { readonly stat: VaultStat; readonly text: string };

/**
 * Stats, and reads when the cheap test says it changed, the notes after the one being indexed,
 * at most `width` at a time. A note's known state is checked when its read starts; notes are
 * distinct paths, so indexing the ones before it cannot change that state.
 */
class ReadAhead {
  private readonly pending = new Map<number, Promise<Fetched>>();
  private next = 0;

  constructor(
    private readonly paths: readonly string[],
    private readonly width: number,
    private readonly known: (path: string) => { readonly mtime: number; readonly size: number } | undefined,
    private readonly vault: VaultPort,
  ) {}

  take(i: number): Promise<Fetched> {
    while (this.next < this.paths.length && this.next <= i + this.width) {
      const fetching = this.fetch(this.paths[this.next] as string);
      // Its error is raised where it is taken; a sync stopped before then must not leave it unhandled.
      fetching.catch(() => undefined);
      this.pending.set(this.next, fetching);
      this.next += 1;
    }
    const fetched = this.pending.get(i) as Promise<Fetched>;
    this.pending.delete(i);
    return fetched;
  }

  private async fetch(path: string): Promise<Fetched> {
    const known = this.known(path);
    // A note never indexed is read whatever its stat says: one call for both where the vault has it.
    if (!known && this.vault.readWithStat) return (await this.vault.readWithStat(path)) ?? "gone";
    const stat = await this.vault.stat(path);
    if (!stat) return "gone";
    if (known && known.mtime === stat.mtime && known.size === stat.size) return "unchanged";
    try {
      return { stat, text: await this.vault.read(path) };
    } catch {
      return "gone"; // vanished between the listing and the read
    }
  }
}

export async function syncIndex(index: VaultIndex, vault: VaultPort, options: SyncOptions = {}): Promise<SyncResult> {
  const batchSize = options.batchSize ?? 50;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError("The batch size must be a whole number of at least 1.");
  const part = options.only && !options.only.folders.some((f) => cleanFolder(f) === "") ? options.only : null;
  const all = await (options.listing ?? vault.list(""));
  const listed: string[] = [];
  const unindexed: string[] = [];
  for (const path of all) (index.excluded(path) ? unindexed : listed).push(path);
  // Known to exist though never indexed: links to them are not dangling.
  index.setUnindexed(unindexed);
  const present = new Set(listed);
  let removed = 0;
  for (const path of index.unsortedPaths()) if (!present.has(path) && index.remove(path)) removed += 1;
  // A partial sync checks the part, and reads the notes the index has never seen.
  const checked = part ? partOf(listed, part, (path) => index.stateOf(path) !== undefined) : listed;
  let indexed = 0;
  // Notes outside a partial sync's part are taken as they were.
  let unchanged = listed.length - checked.length;
  let inBatch = 0;
  options.progress?.({ done: 0, total: checked.length });
  // Where the vault stats notes in batches, the indexed ones are checked that way first, and only
  // new and changed notes go on to be read; elsewhere each note is checked as it comes.
  let toRead: readonly string[] = checked;
  let stateOf = (path: string) => index.stateOf(path);
  if (vault.statMany) {
    const first = await statChecked(checked, index, vault.statMany.bind(vault), options);
    toRead = first.toRead;
    unchanged += first.unchanged;
    removed += first.removed;
    // Their time and size were compared just now: each is read without a second stat.
    stateOf = () => undefined;
  }
  const settled = checked.length - toRead.length;
  // Reads run ahead of indexing, a few at a time, so the disk (or Obsidian's reader) works while
  // notes are tokenised instead of in turn with it.
  const ahead = new ReadAhead(toRead, READ_AHEAD, stateOf, vault);
  for (let i = 0; i < toRead.length; i++) {
    // After a full batch: a progress line, and a cancelled sync stops here.
    if (inBatch >= batchSize) {
      options.signal?.throwIfAborted();
      options.progress?.({ done: settled + i, total: checked.length });
      inBatch = 0;
    }
    inBatch += 1;
    const path = toRead[i] as string;
    const note = await ahead.take(i);
    if (note === "gone") {
      // Vanished since it was listed, or a named note that is not there: nothing of it may stay.
      if (index.remove(path)) removed += 1;
      continue;
    }
    if (note === "unchanged") {
      unchanged += 1;
      continue;
    }
    const outcome = await updateNote(index, path, note.text, note.stat, {}, {});
    if (outcome === "changed") indexed += 1;
    else if (outcome === "unchanged") unchanged += 1;
  }
  options.signal?.throwIfAborted();
  options.progress?.({ done: checked.length, total: checked.length });
  const embedding =
    options.embed === false
      ? { embedded: 0, error: null }
      : await index.embedPending({
          ...(options.signal ? { signal: options.signal } : {}),
          ...(options.embedProgress ? { progress: options.embedProgress } : {}),
        });
  options.signal?.throwIfAborted();
  const flushed = options.flush === false ? { shardsWritten: 0, bytesWritten: 0 } : await index.flush();
  return { total: listed.length, indexed, removed, unchanged, ...flushed, embedded: embedding.embedded, vectorError: embedding.error };
}

/**
 * The first pass of a sync over a vault with `statMany`: the notes the index holds are stat'ed in
 * batches, and those whose time and size are as indexed are settled.
 * Returns the notes still to read (never indexed, or changed) in their order; a note gone since
 * the listing is dropped from the index here.
 */
async function statChecked(
  paths: readonly string[],
  index: VaultIndex,
  statMany: (paths: readonly string[]) => Promise<(VaultStat | null)[]>,
  options: SyncOptions,
): Promise<{ toRead: string[]; unchanged: number; removed: number }> {
  const toRead: string[] = [];
  let unchanged = 0;
  let removed = 0;
  // A batch's known notes are picked when its stats are asked for; checking the batches before it
  // touches only their own paths, and a note indexed meanwhile by an update is read (below).
  const asked: { readonly batch: readonly string[]; readonly knownOnes: readonly string[]; readonly stats: Promise<(VaultStat | null)[]> }[] = [];
  let nextStart = 0;
  const askAhead = () => {
    while (asked.length <= STATS_AHEAD && nextStart < paths.length) {
      const batch = paths.slice(nextStart, nextStart + STAT_BATCH);
      const knownOnes = batch.filter((path) => index.stateOf(path) !== undefined);
      const stats = knownOnes.length > 0 ? statMany(knownOnes) : Promise.resolve([]);
      // Its error is raised where it is awaited; a sync stopped before then must not leave it unhandled.
      stats.catch(() => undefined);
      asked.push({ batch, knownOnes, stats });
      nextStart += STAT_BATCH;
    }
  };
  for (let start = 0; start < paths.length; start += STAT_BATCH) {
    if (start > 0) {
      options.signal?.throwIfAborted();
      const done = start - toRead.length;
      if (done > 0) options.progress?.({ done, total: paths.length });
    }
    askAhead();
    const { batch, knownOnes, stats: asking } = asked.shift() as (typeof asked)[number];
    const stats = await asking;
    const statOf = new Map(knownOnes.map((path, i) => [path, stats[i] ?? null]));
    for (const path of batch) {
      const known = index.stateOf(path);
      // Never indexed, or indexed since its batch was asked for (an update while the sync ran): read.
      if (!known || !statOf.has(path)) {
        toRead.push(path);
        continue;
      }
      const stat = statOf.get(path) ?? null;
      if (!stat) {
        if (index.remove(path)) removed += 1;
      } else if (stat.mtime === known.mtime && stat.size === known.size) unchanged += 1;
      else toRead.push(path);
    }
  }
  return { toRead, unchanged, removed };
}

const cleanFolder = (folder: string) => folder.replace(/\\/g, "/").replace(/^\.?\/+/, "").replace(/\/+$/, "");

/** The listed notes a partial sync checks: those in its folders, those it names, and those the index has never seen. */
function partOf(listed: readonly string[], part: SyncPart, known: (path: string) => boolean): string[] {
  const folders = part.folders.map(cleanFolder);
  const named = new Set(part.notes ?? []);
  return listed.filter((path) => named.has(path) || !known(path) || folders.some((f) => path.startsWith(`${f}/`)));
}
