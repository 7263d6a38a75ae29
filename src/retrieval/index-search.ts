/**
 * The read side of the vault index: each backend's ranking of notes for a query (`searchCandidates`),
 * and those rankings fused, expanded along the graph and turned into hits with snippets
 * (`fusedHits`). `VaultIndex.candidates` and `VaultIndex.retrieve` check the query and pass the
 * scope's filter.
 */
import { contentHash } from "../core/content-hash";
import { chunkNote } from "./chunks";
import { queryTerms } from "./compound-grams";
import { fuse, type FusionParameters } from "./fusion";
import { makeSnippet } from "./snippet";
import type { TextHit, TextIndex } from "./text-index";
import { tokenize } from "../core/tokenize";
import type { RetrievalHit, RetrieveOptions } from "./types";
import type { VectorBackend } from "./vector-backend";
import type { VectorHit } from "./vector-index";

/** What a retrieval fuses: each backend's ranking of notes, before fusion and graph expansion. */
export interface Candidates {
  readonly terms: readonly string[];
  /** The best chunk of each note, best first. */
  readonly text: readonly TextHit[];
  /** The best chunk of each note by cosine, best first (empty without vectors). */
  readonly vector: readonly VectorHit[];
  /** Each list holds every match, not only the best `depth` (fusion scales scores by it). */
  readonly textComplete: boolean;
  readonly vectorComplete: boolean;
  /** The scope's filter, excluded folders included. */
  readonly accept: (path: string) => boolean;
}

/** What a search reads of the index. */
export interface SearchSource {
  readonly text: TextIndex;
  readonly vectors: VectorBackend | null;
  /** Reads a note's current text, for snippets and chunk text. */
  readonly reader: { read(path: string): Promise<string> };
  /** The hash of the text a note was indexed from (undefined when it is not indexed). */
  hashOf(path: string): string | undefined;
  /** A note's graph neighbours, as graph expansion follows them. */
  neighbourPaths(path: string): readonly string[];
}

/** Text hits alone (BM25): the best notes, each as its best chunk, best first. */
export function searchTextHits(source: SearchSource, query: string, limit: number, accept: (path: string) => boolean): readonly TextHit[] {
  return Object.freeze(source.text.search(queryTerms(query, tokenize(query)), limit, accept).map((h) => Object.freeze(h)));
}

/** The text and vector rankings, each of notes (as their best chunk) and deep enough (3 × limit notes, at least 30) for fusion and graph expansion to reorder them. */
export async function searchCandidates(source: SearchSource, query: string, options: RetrieveOptions, accept: (path: string) => boolean): Promise<Candidates> {
  const terms = queryTerms(query, tokenize(query));
  const depth = Math.max(options.limit * 3, 30);
  const text = source.text.search(terms, depth, accept);
  const vector = source.vectors ? await source.vectors.search(query, depth, accept, options.signal) : [];
  return { terms, text, vector, accept, textComplete: text.length < depth, vectorComplete: vector.length < depth };
}

/** The candidates fused, expanded along the graph and read into hits, best first, at most `options.limit`. */
export async function fusedHits(source: SearchSource, candidates: Candidates, options: RetrieveOptions, fusion: FusionParameters): Promise<readonly RetrievalHit[]> {
  const { terms, text, vector, accept, textComplete, vectorComplete } = candidates;
  const bestChunk = new Map(text.map((h) => [h.path, h.ordinal]));
  const vectorChunk = new Map(vector.map((h) => [h.path, h.ordinal]));
  const ranked = fuse(
    [
      { hits: text, weight: 1, complete: textComplete },
      { hits: vector, weight: 1, complete: vectorComplete },
    ],
    (p) => source.neighbourPaths(p),
    accept,
    fusion,
  );
  const hits: RetrievalHit[] = [];
  for (const [path, score] of ranked) {
    if (hits.length >= options.limit) break;
    options.signal?.throwIfAborted();
    const hit = await hitFor(source, path, score, bestChunk.get(path) ?? vectorChunk.get(path) ?? 0, terms);
    if (hit) hits.push(hit);
  }
  return Object.freeze(hits);
}

async function hitFor(source: SearchSource, path: string, score: number, ordinal: number, terms: readonly string[]): Promise<RetrievalHit | null> {
  let markdown: string;
  try {
    markdown = await source.reader.read(path);
  } catch {
    return null; // gone since it was indexed: the next sync drops it
  }
  let found: { heading: string; start: number; end: number } | undefined = source.text.chunksOf(path)[ordinal];
  if (!found || contentHash(markdown) !== source.hashOf(path)) found = chunkNote(markdown)[ordinal];
  const text = found ? markdown.slice(found.start, found.end) : markdown;
  return Object.freeze({ path, heading: found?.heading ?? "", score, snippet: makeSnippet(text, terms), text });
}
