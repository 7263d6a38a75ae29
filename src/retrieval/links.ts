/**
 * What a note links to, for the graph: wikilinks, embeds, frontmatter `sources` and tags. The CLI
 * parses the markdown (this file); the plugin may feed Obsidian's metadata cache instead through
 * the same `NoteLinks` shape (see `LinkExtractor`). Links inside code are not links.
 */
import { inlineTagsOutsideCode, stripCode } from "../core/markdown";
import type { ParsedNote } from "./chunker";

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

const LINK = /(!?)\[\[([^\]|#^\n]+)(?:[#^][^\]|\n]*)?(?:\|[^\]\n]*)?\]\]/g;
const MD_LINK = /(!?)\[[^\]\n]*\]\(([^)\s]+\.md)(?:#[^)\s]*)?\)/gi;

const FRONTMATTER = /^\uFEFF?---\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/;

export const parseLinks: LinkExtractor = (_path, markdown, parsed) => {
  // Frontmatter links are `sources`, read from the parsed frontmatter; the body's links are links.
  const body = markdown.replace(FRONTMATTER, "");
  const text = stripCode(body);
  const links = new Set<string>();
  const embeds = new Set<string>();
  for (const m of text.matchAll(LINK)) addTarget(m[1] === "!" ? embeds : links, m[2] ?? "");
  for (const m of text.matchAll(MD_LINK)) {
    if (/^[a-z]+:/i.test(m[2] ?? "")) continue;
    addTarget(m[1] === "!" ? embeds : links, safeDecode(m[2] ?? ""));
  }
  const tags = new Set([...parsed.tags, ...inlineTagsOutsideCode(text)].map((t) => t.replace(/^#/, "").toLowerCase()).filter(Boolean));
  return { links: [...links], embeds: [...embeds], tags: [...tags], sources: sourcesOf(parsed) };
};

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
