/**
 * The door into retrieval: the only module of src/retrieval the rest of src/ imports (ESLint
 * holds it, eslint.config.mjs). Open an index, apply vault changes, sync, search, embed, flush,
 * close, count; the contract types; the scope and query checks; the size of the index on disk.
 * Everything else in the folder is the index's own and may change freely
 * (docs/contributing/retrieval.md).
 */
import { readFrontmatter } from "./chunker";
import { hostLinks, type HostLinks } from "./links";
import type { SearchIndex } from "./search-index";
import { VaultIndex, type VaultIndexOptions } from "./vault-index";

export interface OpenOptions extends Omit<VaultIndexOptions, "links" | "frontmatter"> {
  /** The links the host already parsed for a note (Obsidian's metadata cache), or null: the index reads them from the markdown. */
  readonly knownLinks?: (path: string) => HostLinks | null;
}

/** Loads the persisted shards; a missing, outdated or corrupt shard just leaves its notes to the next sync. Frontmatter is read with the `yaml` package. */
export function openIndex({ knownLinks, ...options }: OpenOptions): Promise<SearchIndex> {
  return VaultIndex.open({ ...options, frontmatter: readFrontmatter, ...(knownLinks ? { links: hostLinks(knownLinks) } : {}) });
}

/** The index in a worker (the plugin's): it stands in for the index at one end of a port, the worker serves it at the other. */
export { RemoteIndex, type RemoteIndexOptions } from "./worker/remote-index";
export type { IndexPort } from "./worker/protocol";
export type { SearchIndex, IndexStats, VectorControl } from "./search-index";
export type { ApplyOptions, ApplyResult, ChangeOutcome, NoteStat, VaultChange } from "./index-apply";
export type { HostLinks } from "./links";
export type { IndexCatalog, CatalogOptions } from "./catalog";
export type { SyncOptions, SyncPart, SyncProgress, SyncResult } from "./sync";
export type { Embedder } from "./embedder";
export type { RetrievalHit, Retriever, RetrieveOptions, Scope } from "./types";
export { storedBytes } from "./index-files";
export { checkQuery, parseScope } from "./scope";
