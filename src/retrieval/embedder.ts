/**
 * The vector backend's port: whatever turns chunk text into vectors. Retrieval asks for this shape
 * only, never for a provider by name; a provider that declares no embedding capability yields no
 * Embedder (src/providers/embedder.ts), and the index then works from text and graph alone.
 */
export interface Embedder {
  /**
   * Names the backend and model ("ollama:nomic-embed-text"). It is part of every cached vector's
   * key and of every vector shard, so switching models never mixes two models' vectors.
   */
  readonly modelId: string;
  /** One vector per text, in order, all of the same dimension. Rejects when `signal` aborts. */
  embed(texts: readonly string[], signal?: AbortSignal): Promise<readonly Float32Array[]>;
}

/** Texts per embedding request: large enough to amortise the round trip, small enough for any server. */
export const EMBED_BATCH_SIZE = 32;
