/**
 * Pages retrieval finds alike, for the model checks: each page's title and opening searched in the
 * wiki; another page whose score comes close to the page's own (at least `RATIO` of the best hit,
 * which is normally the page itself) is a candidate. Scores are compared only within one result
 * list, as the retrieval contract allows.
 */
import type { Retriever } from "../retrieval/types";
import type { PageRecord } from "./snapshot";

const RATIO = 0.6;
const PER_PAGE = 2;
const QUERY_CHARS = 300;

export async function similarPairs(pages: readonly PageRecord[], retriever: Retriever, signal?: AbortSignal): Promise<[string, string][]> {
  const known = new Set(pages.map((p) => p.path));
  const out = new Map<string, [string, string]>();
  for (const page of pages) {
    const query = `${page.title} ${page.body.replace(/%%[\s\S]*?%%/g, " ").slice(0, QUERY_CHARS)}`;
    const hits = await retriever.retrieve(query, { scope: { kind: "wiki" }, limit: 8, ...(signal ? { signal } : {}) });
    const best = hits[0]?.score ?? 0;
    if (best <= 0) continue;
    const seen = new Set<string>([page.path]);
    let taken = 0;
    for (const hit of hits) {
      if (taken >= PER_PAGE || hit.score < best * RATIO) break;
      if (seen.has(hit.path) || !known.has(hit.path)) continue;
      seen.add(hit.path);
      taken++;
      const pair = [page.path, hit.path].sort() as [string, string];
      out.set(pair.join("\n"), pair);
    }
  }
  return [...out.values()];
}
