/** Ranking metrics for the retrieval-quality benchmark, binary relevance, cut at 10 (or 5). */

export interface QueryScores {
  readonly mrr10: number;
  readonly recall5: number;
  readonly recall10: number;
  readonly ndcg10: number;
}

/** Scores one ranking (best first) against the relevant notes. */
export function scoreRanking(ranking: readonly string[], relevant: readonly string[]): QueryScores {
  const wanted = new Set(relevant);
  if (wanted.size === 0) throw new Error("A labelled query needs at least one relevant note.");
  const hitsAt = (k: number) => ranking.slice(0, k).filter((p) => wanted.has(p)).length;
  const first = ranking.slice(0, 10).findIndex((p) => wanted.has(p));
  let dcg = 0;
  ranking.slice(0, 10).forEach((p, i) => {
    if (wanted.has(p)) dcg += 1 / Math.log2(i + 2);
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(10, wanted.size); i++) ideal += 1 / Math.log2(i + 2);
  return {
    mrr10: first < 0 ? 0 : 1 / (first + 1),
    recall5: hitsAt(5) / wanted.size,
    recall10: hitsAt(10) / wanted.size,
    ndcg10: dcg / ideal,
  };
}

export const METRICS = ["mrr10", "recall5", "recall10", "ndcg10"] as const satisfies readonly (keyof QueryScores)[];

export function mean(values: readonly number[]): number {
  return values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length;
}

/** Mean of each metric over queries. */
export function meanScores(scores: readonly QueryScores[]): QueryScores {
  return { mrr10: mean(scores.map((s) => s.mrr10)), recall5: mean(scores.map((s) => s.recall5)), recall10: mean(scores.map((s) => s.recall10)), ndcg10: mean(scores.map((s) => s.ndcg10)) };
}

/**
 * Paired difference of two configurations on the same queries: its mean and the half-width of a
 * 95 % normal interval (1.96 standard errors). A difference inside it is noise at this sample size.
 */
export function pairedDifference(a: readonly number[], b: readonly number[]): { readonly mean: number; readonly halfWidth: number } {
  if (a.length !== b.length || a.length < 2) throw new Error("A paired difference needs two lists of the same length, at least 2.");
  const d = a.map((x, i) => x - (b[i] as number));
  const m = mean(d);
  const variance = d.reduce((s, x) => s + (x - m) ** 2, 0) / (d.length - 1);
  return { mean: m, halfWidth: 1.96 * Math.sqrt(variance / d.length) };
}
