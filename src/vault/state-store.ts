/**
 * Synapse's own state for one vault — the write journal and lock, run history for undo, the
 * hashes of ingested notes, the search index, query history, recorded contradictions — kept apart
 * from the user's notes and from `data.json`, in the plugin's folder
 * (`<vault>/.obsidian/plugins/synapse/state/`), where the plugin, the CLI and the bridge all find it.
 *
 * Keys are relative paths with forward slashes ("journal/current.json", "index/text-03.bin").
 * Implementations: the file system (CLI, bridge, tests), Obsidian's DataAdapter (plugin), memory.
 */
/**
 * A write's temporary file this old belongs to no write still running (a write takes well under a
 * second; another process may be writing one now, so a fresh one is left alone): listings remove it.
 */
export const STALE_TEMP_MS = 60 * 60 * 1000;

export interface StateStore {
  /** The text under a key, or null when there is none. */
  read(key: string): Promise<string | null>;
  /** The bytes under a key, or null when there is none (vector shards are binary). */
  readBytes(key: string): Promise<Uint8Array | null>;
  /** Replaces the value whole: a reader sees the old value or the new one, never half of one. */
  write(key: string, content: string | Uint8Array): Promise<void>;
  /** Appends text (creating the key when missing); for logs that must not be rewritten. */
  append(key: string, text: string): Promise<void>;
  /** Removes a key; nothing happens when it is missing. */
  remove(key: string): Promise<void>;
  /** Keys under a prefix folder ("journal" → "journal/a.json", …), recursively, sorted. */
  list(prefix: string): Promise<string[]>;
  /**
   * Creates the key only if it does not exist yet and says whether it did: the primitive a
   * lock between processes is built on. Exclusive on the file system (O_EXCL); best effort where
   * the platform offers no such call (see the Obsidian implementation).
   */
  createExclusive(key: string, content: string): Promise<boolean>;
}

/** Keys are relative and stay inside the store: no absolute paths, no `..`, no empty parts. */
export function checkStateKey(key: string): string {
  const parts = key.replace(/\\/g, "/").split("/");
  if (key === "" || parts.some((p) => p === "" || p === "." || p === "..") || /^[a-zA-Z]:/.test(key)) {
    throw new Error(`Invalid state key "${key}".`);
  }
  return parts.join("/");
}
