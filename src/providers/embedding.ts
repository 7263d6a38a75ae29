/**
 * Embeddings are a separate, optional interface: only some providers have an embedding model,
 * and retrieval asks for it by this shape, never by provider name.
 */
import type { RunContext } from "../core/run-context";

export interface EmbeddingProvider {
  /** The model vectors come from (part of every cached vector's key). */
  readonly embeddingModel: string;
  /** One vector per input text, in order. */
  embed(texts: readonly string[], run: RunContext): Promise<number[][]>;
}

export function isEmbeddingProvider(value: unknown): value is EmbeddingProvider {
  return typeof value === "object" && value !== null && typeof (value as { embed?: unknown }).embed === "function";
}
