/**
 * What every provider's pages go through before validation, so the wiki gets the same shapes
 * whichever model wrote them: a one-line title without invisible characters, sources in one
 * spelling and without repeats, tags Obsidian accepts, and every text a reader will see made inert
 * (sanitise-markdown.ts) — this is the one place a generated page passes before it is planned.
 */
import type { WikiPage } from "./schemas";
import { sanitiseMarkdown } from "./sanitise-markdown";
import { canonicalSource, mergeSources } from "./sources";
import { cleanTags } from "./tags";
import { cleanTitle } from "./unicode";

export function normalisePage(page: WikiPage): WikiPage {
  return {
    ...page,
    // The title and aliases are shown as links and headings, and Templater reads frontmatter too.
    title: sanitiseMarkdown(cleanTitle(page.title)),
    ...(page.aliases ? { aliases: page.aliases.map((alias) => sanitiseMarkdown(cleanTitle(alias))) } : {}),
    frontmatter: {
      ...page.frontmatter,
      sources: mergeSources(page.frontmatter.sources.map(canonicalSource)),
      tags: cleanTags(page.frontmatter.tags),
    },
    content: sanitiseMarkdown(page.content),
    ...(page.contradicts
      ? { contradicts: page.contradicts.map((c) => ({ claim: sanitiseMarkdown(c.claim), existing: sanitiseMarkdown(c.existing) })) }
      : {}),
  };
}
