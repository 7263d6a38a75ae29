/**
 * A note's links as Obsidian's metadata cache has them, for the index's link extractor: the cache
 * has already parsed the note, and its links are the ones Obsidian itself shows and resolves.
 * Frontmatter `sources` still come from the markdown parser.
 */
import { getAllTags, type CachedMetadata } from "obsidian";
import type { HostLinks } from "../retrieval";

export function linksFromCache(cache: CachedMetadata): HostLinks {
  const target = (link: string) => link.replace(/[#^|].*$/s, "").trim();
  const unique = (items: readonly string[]) => [...new Set(items.filter(Boolean))];
  return {
    links: unique((cache.links ?? []).map((l) => target(l.link))),
    embeds: unique((cache.embeds ?? []).map((e) => target(e.link))),
    tags: unique((getAllTags(cache) ?? []).map((t) => t.replace(/^#/, "").toLowerCase())),
  };
}
