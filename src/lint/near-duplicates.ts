/**
 * Duplicate pages that do not share a name: retrieval finds, for each page, the pages its title and
 * opening retrieve; a candidate is a duplicate when the two pages' words are nearly the same
 * (cosine similarity of their term counts, with the index's own tokenizer). The fused retrieval
 * score cannot decide this on its own: it is rank-based, so every page's top hits score within a
 * few percent of each other whether they are the same subject or only related (see the test).
 */
import type { Retriever } from "../retrieval/types";
import { tokenize } from "../retrieval/tokenize";
import type { PageRecord } from "./snapshot";

/**
 * Chosen by test/lint/near-duplicates.test.ts: two pages about one subject in other words score
 * above 0.8, pages that are only related (same people or terms, another subject) below 0.6 (common
 * words count too, so related pages are not near 0); 0.7 sits in the gap.
 */
export const DUPLICATE_SIMILARITY = 0.7;
const HITS = 5;
const QUERY_CHARS = 300;

export function termCounts(page: PageRecord): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of tokenize(`${page.title} ${page.body.replace(/%%[\s\S]*?%%/g, " ")}`)) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}

export function similarity(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number {
  let dot = 0;
  for (const [term, n] of a) dot += n * (b.get(term) ?? 0);
  const norm = (m: ReadonlyMap<string, number>) => Math.sqrt([...m.values()].reduce((sum, n) => sum + n * n, 0));
  const d = norm(a) * norm(b);
  return d === 0 ? 0 : dot / d;
}

/** Pairs of page paths (in path order) retrieval finds for each other whose words are nearly the same. */
export async function nearDuplicates(pages: readonly PageRecord[], retriever: Retriever, signal?: AbortSignal): Promise<[string, string][]> {
  const byPath = new Map(pages.map((p) => [p.path, p]));
  const counts = new Map<string, Map<string, number>>();
  const countsOf = (p: PageRecord) => counts.get(p.path) ?? counts.set(p.path, termCounts(p)).get(p.path) ?? new Map<string, number>();
  const out = new Map<string, [string, string]>();
  for (const page of pages) {
    if (!/[\p{L}\p{N}]/u.test(page.body)) continue;
    const query = `${page.title} ${page.body.replace(/%%[\s\S]*?%%/g, " ").slice(0, QUERY_CHARS)}`;
    const hits = await retriever.retrieve(query, { scope: { kind: "wiki" }, limit: HITS, ...(signal ? { signal } : {}) });
    for (const hit of hits) {
      const other = byPath.get(hit.path);
      if (!other || other === page) continue;
      const pair = [page.path, other.path].sort() as [string, string];
      const key = pair.join("\n");
      if (out.has(key)) continue;
      if (similarity(countsOf(page), countsOf(other)) >= DUPLICATE_SIMILARITY) out.set(key, pair);
    }
  }
  return [...out.values()];
}
