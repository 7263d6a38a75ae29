/**
 * What the rest of Synapse holds of an open search index: search, a batch of vault changes, a
 * sync with the vault, the background embedding, flush, close and a few counts. Everything else
 * (segments, the graph, the update protocol's steps, the shard format) is the index's own.
 */
import type { VaultPort } from "../vault/vault-port";
import type { CatalogOptions, IndexCatalog } from "./catalog";
import type { FlushResult } from "./index-flush";
import type { ApplyOptions, ApplyResult, VaultChange } from "./index-apply";
import type { SyncOptions, SyncResult } from "./sync";
import type { Retriever } from "./types";
import type { EmbedOptions, EmbedResult, VectorBackend } from "./vector-backend";

export interface IndexStats {
  /** Notes and pages indexed. */
  readonly notes: number;
  readonly chunks: number;
  /** Text shards dropped when the index opened (damaged or outdated): their notes are indexed again. */
  readonly rejectedShards: number;
  /** Without an embedder, null. */
  readonly vectors: {
    /** Notes with vectors. */
    readonly notes: number;
    /** Vector shards dropped when the index opened (damaged, outdated, of another model or dimension). */
    readonly rejectedShards: number;
    /** Why vectors are off for this session, or null. */
    readonly error: string | null;
  } | null;
}

/** The embedding side as a host watches it: off after a failure (told to `onFailure`), back once `reconnect` gets an answer. */
export type VectorControl = Pick<VectorBackend, "active" | "error" | "onFailure" | "reconnect">;

export interface SearchIndex extends Retriever {
  /** Applies vault changes in order (see index-apply.ts): what became of each, and which were stale. */
  apply(changes: readonly VaultChange[], options?: ApplyOptions): Promise<ApplyResult>;
  /** Brings the index in step with the vault: new and changed notes indexed, vanished ones dropped; then embedding and a flush unless told otherwise. */
  sync(vault: VaultPort, options?: SyncOptions): Promise<SyncResult>;
  /** Merges ahead the segments the next search would merge first (in the plugin, in the index's worker). */
  compact(): Promise<void>;
  /** Embeds the chunks of new and changed notes the cache does not hold; without an embedder, or while vectors are off, nothing. */
  embedPending(options?: EmbedOptions): Promise<EmbedResult>;
  /** Writes the shards changed since the last flush. */
  flush(): Promise<FlushResult>;
  /** Writes what changed; the index is not used after. */
  close(): Promise<unknown>;
  stats(): IndexStats;
  /** The index as an ingest's catalogue of the wiki; `refresh` applies the files a run wrote. */
  catalog(vault: Pick<VaultPort, "stat" | "read">, options?: CatalogOptions): IndexCatalog;
  /** The embedding side, null without an embedder. */
  readonly vectors: VectorControl | null;
}
