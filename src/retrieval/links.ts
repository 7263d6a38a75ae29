/**
 * What a note links to, for the graph: wikilinks, embeds, frontmatter `sources` and tags. The CLI
 * parses the markdown (this file); the plugin may feed Obsidian's metadata cache instead through
 * the same `NoteLinks` shape (see `LinkExtractor`). Links inside code are not links.
 */
import { inlineTagsOutsideCode, stripCode } from "../core/markdown-text";
import { markdownLinks, spaceOr } from "../core/text-scan";
import { targetedWikilinks, wikilinkParts } from "../core/wikilinks";
import type { ParsedNote } from "./chunks";

export interface NoteLinks {
  /** Link targets as written (before `#`, `^` or `|`), without repeats. */
  readonly links: readonly string[];
  readonly embeds: readonly string[];
  /** Tags without `#`, lower-cased. */
  readonly tags: readonly string[];
  /** Frontmatter `sources`, as written (a path, or a wikilink). */
  readonly sources: readonly string[];
}

/** Where links come from: the markdown parser by default; the plugin may use its metadata cache. */
export type LinkExtractor = (path: string, markdown: string, parsed: ParsedNote) => NoteLinks;

/** A note's links as the host parsed them (Obsidian's metadata cache); its frontmatter `sources` always come from the markdown. */
export type HostLinks = Pick<NoteLinks, "links" | "embeds" | "tags">;

/**
 * The note path of a Markdown link's destination, as `/^([^)\s]+\.md)(?:#[^)\s]*)?$/i` would take it
 * (the longest prefix ending in `.md` that the rest leaves as a `#fragment`), or null.
 */
function markdownNotePath(destination: string): string | null {
  for (let cut = destination.length; cut >= 0; cut = destination.lastIndexOf("#", cut - 1)) {
    const path = destination.slice(0, cut);
    if (path.length > 3 && path.slice(-3).toLowerCase() === ".md") return path;
    if (cut === 0) break;
  }
  return null;
}

const FRONTMATTER = /^\uFEFF?---\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/;

export const parseLinks: LinkExtractor = (_path, markdown, parsed) => {
  // Frontmatter links are `sources`, read from the parsed frontmatter; the body's links are links.
  const body = markdown.replace(FRONTMATTER, "");
  const text = stripCode(body);
  const links = new Set<string>();
  const embeds = new Set<string>();
  for (const m of targetedWikilinks(text)) addTarget(m.embed ? embeds : links, wikilinkParts(m.inner).target);
  for (const m of markdownLinks(text, spaceOr(")"), (destination) => markdownNotePath(destination) !== null)) {
    const path = markdownNotePath(m.destination) ?? "";
    if (/^[a-z]+:/i.test(path)) continue;
    addTarget(m.embed ? embeds : links, safeDecode(path));
  }
  const tags = new Set([...parsed.tags, ...inlineTagsOutsideCode(text)].map((t) => t.replace(/^#/, "").toLowerCase()).filter(Boolean));
  return { links: [...links], embeds: [...embeds], tags: [...tags], sources: sourcesOf(parsed) };
};

/**
 * An extractor that takes the links the host knows for a note, else parses the markdown. With the
 * host's links, the note's text is not scanned for links (tens of ms for a note of megabytes).
 */
export function hostLinks(known: (path: string) => HostLinks | null | undefined): LinkExtractor {
  return (path, markdown, parsed) => {
    const links = known(path);
    return links ? { sources: sourcesOf(parsed), ...links } : parseLinks(path, markdown, parsed);
  };
}

/** A note's frontmatter `sources` as link targets (without `[[ ]]`, heading or alias). */
export function sourcesOf(parsed: ParsedNote): string[] {
  return parsed.sources.map((s) => s.replace(/^\[\[|\]\]$/g, "").replace(/[|#^].*$/, "").trim()).filter(Boolean);
}

function addTarget(into: Set<string>, raw: string): void {
  const target = raw.trim();
  if (target) into.add(target);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
