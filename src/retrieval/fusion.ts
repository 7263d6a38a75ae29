/**
 * Reciprocal rank fusion (Cormack et al., 2009): each backend contributes 1 / (k + rank) per
 * document, so backends whose scores are not comparable (BM25, cosine) combine by rank alone.
 * Graph expansion then lends a share of each top result's score to its neighbours, so a page
 * linked from the best matches can surface even when it shares no words with the query.
 */
export const RRF_K = 60;

export interface Ranked {
  readonly path: string;
}

/** Fused scores by path, from ranked lists (best first), each with a weight. */
export function reciprocalRankFusion(lists: readonly { readonly hits: readonly Ranked[]; readonly weight: number }[], k = RRF_K): Map<string, number> {
  const fused = new Map<string, number>();
  for (const { hits, weight } of lists) {
    hits.forEach((hit, rank) => {
      fused.set(hit.path, (fused.get(hit.path) ?? 0) + weight / (k + rank + 1));
    });
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
