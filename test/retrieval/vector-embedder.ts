/** An in-process Embedder for retrieval tests: the fake bag-of-words embedding, with synonyms, counting its calls. */
import type { Embedder } from "../../src/retrieval/embedder";
import { fakeEmbedding } from "../helpers/fake-embedding";

/** Words the fake model treats as one meaning, so a query can find a note by meaning and not by its words. */
const SYNONYMS: Record<string, string> = { automobile: "car", vehicle: "car", physician: "doctor", medic: "doctor" };

export interface CountingEmbedder extends Embedder {
  readonly calls: string[][];
  /** When set, every call fails with this error. */
  failWith: Error | null;
}

export function countingEmbedder(modelId = "fake:bow"): CountingEmbedder {
  const embedder: CountingEmbedder = {
    modelId,
    calls: [],
    failWith: null,
    embed(texts, signal) {
      signal?.throwIfAborted();
      embedder.calls.push([...texts]);
      if (embedder.failWith) return Promise.reject(embedder.failWith);
      const meaning = (t: string) => t.toLowerCase().replace(/\p{L}+/gu, (w) => SYNONYMS[w] ?? w);
      return Promise.resolve(texts.map((t) => Float32Array.from(fakeEmbedding(meaning(t)))));
    },
  };
  return embedder;
}

export const embeddedTexts = (embedder: CountingEmbedder): number => embedder.calls.reduce((n, c) => n + c.length, 0);
