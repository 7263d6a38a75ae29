/**
 * A test stand-in for the fused retriever (src/retrieval/types.ts): it scores every wiki page by
 * the query words it shares (each word weighted by how rare it is among the pages), one hit per
 * page. Enough to tell a page about the same subject from unrelated ones; the product uses the
 * real index.
 */
import type { RetrievalHit, Retriever, RetrieveOptions } from "../../src/retrieval/types";
import type { VaultPort } from "../../src/vault/vault-port";

const words = (text: string) => new Set(text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 4));

export function wordOverlapRetriever(vault: VaultPort, wikiFolder = "wiki"): Retriever & { queries: string[] } {
  const queries: string[] = [];
  return {
    queries,
    async retrieve(query: string, options: RetrieveOptions): Promise<readonly RetrievalHit[]> {
      queries.push(query);
      const paths = (await vault.list(wikiFolder)).filter((p) => !/\/(index|log)\.md$/.test(p));
      const pages = await Promise.all(paths.map(async (path) => ({ path, text: await vault.read(path) })));
      const df = new Map<string, number>();
      for (const page of pages) for (const w of words(page.text)) df.set(w, (df.get(w) ?? 0) + 1);
      const q = words(query);
      return pages
        .map((page) => {
          let score = 0;
          for (const w of words(page.text)) if (q.has(w)) score += Math.log(1 + pages.length / (df.get(w) ?? 1));
          return Object.freeze({ path: page.path, heading: "", score, snippet: page.text.slice(0, 80), text: page.text });
        })
        .filter((h) => h.score > 0)
        .sort((a, b) => b.score - a.score || a.path.localeCompare(b.path))
        .slice(0, options.limit);
    },
  };
}
