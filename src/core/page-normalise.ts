/**
 * What every provider's pages go through before validation, so the wiki gets the same shapes
 * whichever model wrote them: a one-line title without invisible characters, sources in one
 * spelling and without repeats, tags Obsidian accepts.
 */
import type { WikiPage } from "./schemas";
import { canonicalSource, mergeSources } from "./sources";
import { cleanTags } from "./tags";
import { cleanTitle } from "./unicode";

export function normalisePage(page: WikiPage): WikiPage {
  return {
    ...page,
    title: cleanTitle(page.title),
    frontmatter: {
      ...page.frontmatter,
      sources: mergeSources(page.frontmatter.sources.map(canonicalSource)),
      tags: cleanTags(page.frontmatter.tags),
    },
  };
}
