/**
 * Fusion of the text and vector rankings, then graph expansion: a share of each top result's score
 * is lent to its neighbours, so a page linked from the best matches can surface even when it shares
 * no words with the query.
 *
 * The defaults were chosen by measurement (`npm run bench`, bench/retrieval-quality.bench.ts: 572
 * queries labelled from the obsidian-help corpus; the bench prints the table, the reasoning is in
 * docs/decisions/0006-combsum-fusion.md): CombSUM over min-max normalised scores, each of the top 5 lending half its
 * score to its neighbours. Plain reciprocal rank fusion (k = 60, a quarter from the top 5), the
 * earlier unmeasured choice, ranked worse than BM25 alone: its scores are nearly flat (1/61, 1/62,
 * …), so any graph share outweighs the difference between a clear best match and the rest.
 */
import { retrievalError } from "./errors";

export interface Ranked {
  readonly path: string;
  /** The backend's own score (BM25, cosine); only CombSUM reads it. */
  readonly score: number;
}

/**
 * - "rrf": reciprocal rank fusion, 1 / (k + rank) per list.
 * - "combsum": each list's scores scaled to 0–1, then summed (CombSUM over min-max normalised
 *   scores, Lee 1997), so a clear text winner keeps its lead over a close second, and graph
 *   expansion's share is a share of that range. The range runs from the score a note left out of
 *   the list would have — 0 when the list holds every match, its last score when it was cut at a
 *   depth — to the list's best, so in a small wiki the weakest match is not pushed to 0.
 */
export type FusionMethod = "rrf" | "combsum";

export interface FusionParameters {
  readonly method: FusionMethod;
  /** RRF's k: larger flattens the difference between ranks (unused by CombSUM; 60 is the usual value). */
  readonly k: number;
  /** The share of a seed's fused score lent to each of its graph neighbours (0: no expansion). */
  readonly graphShare: number;
  /** How many of the best fused results lend to their neighbours. */
  readonly graphSeeds: number;
}

export const DEFAULT_FUSION: FusionParameters = Object.freeze({ method: "combsum", k: 60, graphShare: 0.5, graphSeeds: 5 });

/** Throws a clear error for parameters no fusion can use. */
export function checkFusion(p: FusionParameters): void {
  if (p.method !== "rrf" && p.method !== "combsum") throw retrievalError(`Unknown fusion method ${JSON.stringify(p.method)}; use "rrf" or "combsum".`);
  if (!Number.isFinite(p.k) || p.k < 0) throw retrievalError(`RRF's k must be a number of 0 or more (got ${String(p.k)}).`);
  if (!Number.isFinite(p.graphShare) || p.graphShare < 0 || p.graphShare > 1) throw retrievalError(`The graph share must be a number from 0 to 1 (got ${String(p.graphShare)}).`);
  if (!Number.isInteger(p.graphSeeds) || p.graphSeeds < 0) throw retrievalError(`The number of graph seeds must be a whole number of 0 or more (got ${String(p.graphSeeds)}).`);
}

export interface WeightedList {
  /** Best first, each path once. */
  readonly hits: readonly Ranked[];
  readonly weight: number;
  /** The list holds every match (a note outside it scores 0), rather than the best few. */
  readonly complete?: boolean;
}

/** Reciprocal rank fusion: fused scores by path. */
export function reciprocalRankFusion(lists: readonly WeightedList[], k = DEFAULT_FUSION.k): Map<string, number> {
  const fused = new Map<string, number>();
  for (const { hits, weight } of lists) {
    hits.forEach((hit, rank) => {
      fused.set(hit.path, (fused.get(hit.path) ?? 0) + weight / (k + rank + 1));
    });
  }
  return fused;
}

/**
 * CombSUM over min-max normalised scores: fused scores by path. Each list is scaled between the
 * score of a note outside it (0 when complete, else its last score) and its best; a list whose
 * scores leave no range gives each hit its weight.
 */
export function combSum(lists: readonly WeightedList[]): Map<string, number> {
  const fused = new Map<string, number>();
  for (const { hits, weight, complete } of lists) {
    if (hits.length === 0) continue;
    const best = hits.reduce((m, h) => Math.max(m, h.score), -Infinity);
    const low = complete ? Math.min(0, ...hits.map((h) => h.score)) : hits.reduce((m, h) => Math.min(m, h.score), Infinity);
    for (const hit of hits) fused.set(hit.path, (fused.get(hit.path) ?? 0) + (best > low ? (weight * (hit.score - low)) / (best - low) : weight));
  }
  return fused;
}

/** Adds `share` of each seed's score to its neighbours (a neighbour keeps the best it is lent). */
export function expandThroughGraph(
  fused: Map<string, number>,
  seeds: readonly string[],
  neighbours: (path: string) => readonly string[],
  share: number,
  accept: (path: string) => boolean,
): Map<string, number> {
  const lent = new Map<string, number>();
  for (const seed of seeds) {
    const base = fused.get(seed) ?? 0;
    for (const n of neighbours(seed)) {
      if (!accept(n)) continue;
      lent.set(n, Math.max(lent.get(n) ?? 0, base * share));
    }
  }
  const out = new Map(fused);
  for (const [path, extra] of lent) out.set(path, (out.get(path) ?? 0) + extra);
  return out;
}

/** Best first; equal scores in path order, so a ranking never depends on insertion order. */
function ranked(scores: Map<string, number>): [string, number][] {
  return [...scores].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

/**
 * The whole fusion: the lists fused by the chosen method, then the best `graphSeeds` lend
 * `graphShare` of their score to their neighbours. Returns every scored path, best first.
 */
export function fuse(
  lists: readonly WeightedList[],
  neighbours: (path: string) => readonly string[],
  accept: (path: string) => boolean,
  parameters: FusionParameters = DEFAULT_FUSION,
): [string, number][] {
  checkFusion(parameters);
  const fused = parameters.method === "rrf" ? reciprocalRankFusion(lists, parameters.k) : combSum(lists);
  if (parameters.graphShare === 0 || parameters.graphSeeds === 0) return ranked(fused);
  const seeds = ranked(fused)
    .slice(0, parameters.graphSeeds)
    .map(([path]) => path);
  return ranked(expandThroughGraph(fused, seeds, neighbours, parameters.graphShare, accept));
}
