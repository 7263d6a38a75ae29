/**
 * The source notes the wiki still cites that are gone from Synapse's reach: deleted (no file
 * resolves the citation) or in an excluded folder. What "Retract a deleted source" offers.
 */
import { canonicalSource } from "../core/sources";
import { Resolver, type WikiSnapshot } from "./snapshot";

/** Vault paths, sorted, each once. */
export function goneSources(snapshot: WikiSnapshot): string[] {
  const resolver = Resolver.of(snapshot);
  const gone = new Set<string>();
  for (const page of snapshot.pages) {
    for (const source of page.sources) {
      const found = resolver.resolve(source);
      if (found === null) gone.add(canonicalSource(source.includes("[[") ? source : `[[${source.replace(/\.md$/i, "")}]]`));
      else if (resolver.isExcluded(found)) gone.add(found);
    }
  }
  return [...gone].filter(Boolean).sort();
}
