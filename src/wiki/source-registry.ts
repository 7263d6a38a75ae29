/**
 * The registry of ingested notes (in the StateStore, under `sources/`; layout in
 * `write/source-registry-shards.ts`): for every note, the SHA-256 of its text when it was last ingested,
 * when, into which wiki folder, and the pages that ingest wrote or confirmed. It lets an unchanged
 * note skip the provider entirely ("already up to date"), recognises a note that was only moved or
 * renamed by its content, and tells lint which pages may be stale because their source changed since.
 *
 * Every write is part of a write run (`recordChange` → `applyPlan`): under the vault's write lock,
 * journaled, rolled back after a crash and reverted by undo with the run's pages.
 *
 * The registry is a cache of facts, never the only copy of anything: an unreadable or missing shard
 * means "nothing known", so the worst case is a re-ingest, never a lost note.
 */
import type { StateStore } from "../vault/state-store";
import type { PlannedStateChange } from "../write/planned-change";
import {
  HashShardSchema,
  NotesShardSchema,
  SOURCES_FOLDER,
  SOURCES_KEY,
  emptyHashes,
  emptyNotes,
  hashShardKey,
  isNotesShard,
  notesShardKey,
  parseShard,
  readShard,
  serializeShard,
  type NotesShard,
  type SourceEntry,
} from "../write/source-registry-shards";

export { SOURCES_KEY, type SourceEntry } from "../write/source-registry-shards";

/** An entry as a caller records it: `runId` left out means "the run that records it" (null outside any run). */
export type RecordedEntry = Omit<SourceEntry, "runId" | "formerPaths" | "leftOut"> & {
  readonly runId?: string | null;
  readonly formerPaths?: readonly string[];
  readonly leftOut?: readonly string[];
};

/** What makes a note "already up to date". */
export interface UpToDate {
  readonly entry: SourceEntry;
  /** The path the note was ingested under when it has since been moved or renamed, else null. */
  readonly movedFrom: string | null;
}

/** The sources a page's section markers name (`markedSources` of its text); empty for a page that has none. */
export type MarkedIn = (page: string) => Promise<readonly string[]>;

function key(path: string): string {
  return path.normalize("NFC");
}

/** The note's fingerprint: SHA-256 (Web Crypto, in Node and in Obsidian alike) of its text, CRLF read as LF. */
export async function noteFingerprint(text: string): Promise<string> {
  const bytes = new TextEncoder().encode(text.replace(/\r\n/g, "\n"));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return `sha256:${[...digest].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** A change to one notes shard: the entry of `noteKey` set (or removed with null). */
function notesChange(noteKey: string, next: (runId: string | null) => SourceEntry | null): PlannedStateChange {
  return {
    key: notesShardKey(noteKey),
    followsFiles: true,
    update: (current, runId) => {
      const shard = parseShard(current, NotesShardSchema, emptyNotes);
      const entry = next(runId);
      if (entry) shard.notes[noteKey] = entry;
      else delete shard.notes[noteKey];
      return serializeShard(shard);
    },
  };
}

/** A change to one hash shard: `noteKey` added to or taken from the paths recorded with `hash`. */
function hashChange(hash: string, noteKey: string, add: boolean): PlannedStateChange {
  return {
    key: hashShardKey(hash),
    followsFiles: true,
    update: (current) => {
      const shard = parseShard(current, HashShardSchema, emptyHashes);
      const paths = (shard.paths[hash] ?? []).filter((p) => p !== noteKey);
      if (add) paths.push(noteKey);
      if (paths.length > 0) shard.paths[hash] = paths;
      else delete shard.paths[hash];
      return serializeShard(shard);
    },
  };
}

export class SourceRegistry {
  /** The whole file of an earlier version, read once, while it has not been split yet (see `migrateWholeRegistry`). */
  private whole: Promise<NotesShard["notes"] | null> | null = null;

  constructor(private readonly store: StateStore) {}

  private wholeNotes(): Promise<NotesShard["notes"] | null> {
    this.whole ??= this.store
      .read(SOURCES_KEY)
      .catch(() => null)
      .then((text) => (text === null ? null : parseShard(text, NotesShardSchema, emptyNotes).notes));
    return this.whole;
  }

  private async shard(noteKey: string): Promise<NotesShard> {
    return readShard(this.store, notesShardKey(noteKey), NotesShardSchema, emptyNotes);
  }

  /** Every entry (tests and tools; an ingest or a lint reads only the shards it needs). */
  async load(): Promise<NotesShard> {
    const notes: NotesShard["notes"] = { ...(await this.wholeNotes()) };
    for (const shardKey of await this.store.list(SOURCES_FOLDER)) {
      if (isNotesShard(shardKey)) Object.assign(notes, (await readShard(this.store, shardKey, NotesShardSchema, emptyNotes)).notes);
    }
    return { version: 1, notes };
  }

  async entry(notePath: string): Promise<SourceEntry | null> {
    const noteKey = key(notePath);
    return (await this.shard(noteKey)).notes[noteKey] ?? (await this.wholeNotes())?.[noteKey] ?? null;
  }

  /** The entries of these notes (keyed by NFC path; notes never ingested are absent), each shard read once. */
  async entries(notePaths: Iterable<string>): Promise<Map<string, SourceEntry>> {
    const byShard = new Map<string, string[]>();
    for (const path of notePaths) {
      const noteKey = key(path);
      const shardKey = notesShardKey(noteKey);
      byShard.set(shardKey, [...(byShard.get(shardKey) ?? []), noteKey]);
    }
    const whole = await this.wholeNotes();
    const out = new Map<string, SourceEntry>();
    for (const [shardKey, keys] of byShard) {
      const { notes } = await readShard(this.store, shardKey, NotesShardSchema, emptyNotes);
      for (const noteKey of keys) {
        const entry = notes[noteKey] ?? whole?.[noteKey];
        if (entry) out.set(noteKey, entry);
      }
    }
    return out;
  }

  /**
   * Is this note, with this fingerprint, already in this wiki? Yes when its own entry has the same
   * hash, or — for a note that was moved or renamed — another entry has it and that note is gone.
   * Either way every page the entry lists must still exist (a wiki that lost pages is not up to
   * date), and no change of that ingest may have been left out at review. With `markedIn`, the
   * pages themselves confirm it: a page that carries source sections must carry one of this note's
   * (sync that let another device's copy of a page win lost the section, whatever the registry says).
   */
  async upToDate(notePath: string, hash: string, wikiFolder: string, exists: (path: string) => Promise<boolean>, markedIn?: MarkedIn): Promise<UpToDate | null> {
    const found = await this.match(notePath, hash, wikiFolder, exists, markedIn);
    return found?.complete ? { entry: found.entry, movedFrom: found.movedFrom } : null;
  }

  /**
   * The entry recorded with this fingerprint for this note, under its own path or — moved — under
   * a path that is gone; `complete` when the note is up to date with it (see `upToDate`). A moved
   * note that is not up to date is still proven moved by its content.
   */
  async match(
    notePath: string,
    hash: string,
    wikiFolder: string,
    exists: (path: string) => Promise<boolean>,
    markedIn?: MarkedIn,
  ): Promise<(UpToDate & { readonly complete: boolean }) | null> {
    // A review that left changes out applied part of the note: not up to date until the rest is.
    const complete = async (entry: SourceEntry, recordedAs: string) => {
      if ((entry.leftOut ?? []).length > 0) return false;
      const names = new Set([key(notePath), recordedAs, ...(entry.formerPaths ?? []).map(key)]);
      for (const page of entry.pages) {
        if (!(await exists(page))) return false;
        const marked = markedIn ? await markedIn(page) : [];
        // A page without sections (written before them, or all the user's now) cannot say.
        if (marked.length > 0 && !marked.some((source) => names.has(key(source)))) return false;
      }
      return true;
    };
    const own = await this.entry(notePath);
    if (own && own.hash === hash && own.wikiFolder === wikiFolder) return { entry: own, movedFrom: null, complete: await complete(own, key(notePath)) };
    const indexed = (await readShard(this.store, hashShardKey(hash), HashShardSchema, emptyHashes)).paths[hash] ?? [];
    const whole = Object.entries((await this.wholeNotes()) ?? {}).flatMap(([path, e]) => (e.hash === hash ? [path] : []));
    let incomplete: (UpToDate & { readonly complete: boolean }) | null = null;
    for (const path of new Set([...indexed, ...whole])) {
      if (path === key(notePath)) continue;
      // The hash index is a hint (an entry may have changed since): the entry itself decides.
      const entry = await this.entry(path);
      if (!entry || entry.hash !== hash || entry.wikiFolder !== wikiFolder) continue;
      // A copy of a note that still exists is a second source, not a move: it is ingested. The
      // caller's `exists` tells a spelling that differs only in case apart from the note itself
      // (one file on macOS and Windows, two on Linux: see spelling-twins.ts).
      if (await exists(path)) continue;
      if (await complete(entry, path)) return { entry, movedFrom: path, complete: true };
      incomplete ??= { entry, movedFrom: path, complete: false };
    }
    return incomplete;
  }

  /**
   * Recording an ingest as part of a write run (see `PlannedStateChange`): the note's entry in its
   * shard and its path under its hash, the old hash's listing dropped when the text changed, and
   * for a moved note the entries under its old paths forgotten. The entry names the run that records
   * it unless it names one already (a moved note keeps the run that wrote its pages); undoing the
   * run puts every shard back. The note's current entry is read now, to find its old hash.
   */
  async recordChange(notePath: string, entry: RecordedEntry, movedFrom: string | readonly string[] | null = null): Promise<PlannedStateChange[]> {
    const noteKey = key(notePath);
    const pages = [...new Set(entry.pages)].sort();
    const { formerPaths, leftOut, ...rest } = entry;
    // Empty lists are left out of the shard, which then reads as it did before they existed.
    const lists = {
      ...(formerPaths && formerPaths.length > 0 ? { formerPaths: [...formerPaths] } : {}),
      ...(leftOut && leftOut.length > 0 ? { leftOut: [...new Set(leftOut)].sort() } : {}),
    };
    const next = (runId: string | null): SourceEntry => ({ ...rest, ...lists, pages, runId: entry.runId !== undefined ? entry.runId : runId });
    const changes: PlannedStateChange[] = [];
    const olds = new Set((typeof movedFrom === "string" ? [movedFrom] : (movedFrom ?? [])).map(key));
    olds.delete(noteKey);
    for (const oldKey of olds) {
      const old = await this.entry(oldKey);
      changes.push(notesChange(oldKey, () => null));
      if (old) changes.push(hashChange(old.hash, oldKey, false));
    }
    const previous = await this.entry(noteKey);
    if (previous && previous.hash !== entry.hash) changes.push(hashChange(previous.hash, noteKey, false));
    changes.push(notesChange(noteKey, next), hashChange(entry.hash, noteKey, true));
    return changes;
  }

  /**
   * Forgetting a note that is gone (retracted), as part of the write run that takes its part out
   * of the wiki: its entry, its path under its hash, and the entries of its former paths. Undo puts
   * every shard back.
   */
  async forget(notePath: string): Promise<PlannedStateChange[]> {
    const noteKey = key(notePath);
    const entry = await this.entry(noteKey);
    if (!entry) return [];
    const changes: PlannedStateChange[] = [notesChange(noteKey, () => null), hashChange(entry.hash, noteKey, false)];
    for (const former of (entry.formerPaths ?? []).map(key)) {
      const old = former === noteKey ? null : await this.entry(former);
      if (old) changes.push(notesChange(former, () => null), hashChange(old.hash, former, false));
    }
    return changes;
  }
}
