/**
 * The retrieval layer's contract, shared by ingest (context and duplicate shortlist), query
 * (grounding) and lint (duplicate candidates). Three backends — text, vector, graph — sit behind
 * `Retriever`, which fuses them. Results are frozen and ordered by descending score.
 */

/** What a search may look at. Excluded folders are never indexed, whatever the scope says. */
export type Scope =
  | { readonly kind: "wiki" }
  | { readonly kind: "notes" }
  | { readonly kind: "all" }
  | { readonly kind: "folders"; readonly folders: readonly string[] };

export interface RetrievalHit {
  /** Vault-relative path of the note or page. */
  readonly path: string;
  /** The heading of the chunk that matched ("" for the text before the first heading). */
  readonly heading: string;
  /** Higher is better; comparable only within one result list. */
  readonly score: number;
  /** A short excerpt around the match, for people. */
  readonly snippet: string;
  /** The whole chunk's text, for a model's context. */
  readonly text: string;
}

export interface RetrieveOptions {
  readonly scope: Scope;
  /** At most this many hits (1–1000). */
  readonly limit: number;
  readonly signal?: AbortSignal;
}

export interface Retriever {
  /** Fused text, vector (when the vault has embeddings) and graph results for a query. */
  retrieve(query: string, options: RetrieveOptions): Promise<readonly RetrievalHit[]>;
}
