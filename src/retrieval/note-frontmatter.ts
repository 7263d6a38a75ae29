/**
 * The frontmatter values the index keeps of a note — its title, aliases, tags and sources — as
 * plain data. They are read from the note's YAML by whoever holds a YAML parser: in process the
 * index's opener (chunker.ts `readFrontmatter`), in Obsidian the main thread, which sends them
 * with the note's text to the index's worker so that the worker bundles no YAML parser.
 */
import { frontmatterList, frontmatterPaths } from "../core/frontmatter-values";

export interface NoteFrontmatter {
  /** The frontmatter `title`, trimmed; null when there is none (the index then takes the file name). */
  readonly title: string | null;
  readonly aliases: readonly string[];
  readonly tags: readonly string[];
  /** Frontmatter `sources`, as written (a path, or a wikilink). */
  readonly sources: readonly string[];
}

/** How the index gets a note's frontmatter values from its text. */
export type FrontmatterReader = (path: string, markdown: string) => NoteFrontmatter;

/** The values the index keeps, from a note's parsed frontmatter (`{}` when it has none or it does not parse). */
export function noteFrontmatter(frontmatter: Readonly<Record<string, unknown>>): NoteFrontmatter {
  const title = frontmatter.title;
  return {
    title: typeof title === "string" && title.trim() ? title.trim() : null,
    aliases: frontmatterList(frontmatter.aliases ?? frontmatter.alias),
    tags: frontmatterList(frontmatter.tags ?? frontmatter.tag),
    sources: frontmatterPaths(frontmatter.sources),
  };
}
