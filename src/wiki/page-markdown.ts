/**
 * Wiki pages as Markdown files: YAML frontmatter (the `yaml` package) and a body. The same codec
 * writes pages, reads them back for merging, and turns files an agent wrote into WikiPages.
 */
import { stringify } from "yaml";
import { frontmatterList, frontmatterPaths, splitFrontmatter } from "../core/markdown";
import type { WikiPage } from "../core/schemas";
import { mergeSources } from "../core/sources";
import { mergeTags } from "../core/tags";
import { contentHash } from "./content-hash";
import { basenameOf } from "./page-paths";

/** Frontmatter key holding the fingerprint of the body Synapse last wrote. */
export const HASH_KEY = "synapse_hash";

export function composeMarkdown(frontmatter: Record<string, unknown>, body: string): string {
  const yaml = stringify(frontmatter, { lineWidth: 0 }).trimEnd();
  return `---\n${yaml}\n---\n\n${body.trim()}\n`;
}

/** A new page file. `date` is the ISO day used for created/updated. */
export function renderNewPage(page: WikiPage, date: string): string {
  const body = page.content.trim();
  return composeMarkdown(
    {
      type: page.type,
      title: page.title.trim(),
      sources: page.frontmatter.sources,
      lang: page.frontmatter.lang,
      tags: page.frontmatter.tags,
      created: date,
      updated: date,
      [HASH_KEY]: contentHash(body),
    },
    body,
  );
}

/** The user's tags as they wrote them (a number stays a number), then the page's new ones. */
function mergedTags(existing: unknown, added: readonly string[]): unknown[] {
  const theirs = frontmatterList(existing);
  const fresh = mergeTags(theirs, added).slice(theirs.length);
  return [...(Array.isArray(existing) ? (existing as unknown[]) : theirs), ...fresh];
}

/** Existing keys are kept (the user may have added their own); lists are merged, never shortened:
 * a source in another spelling or a tag in another case is the same entry, kept as first written. */
export function mergeFrontmatter(existing: Record<string, unknown>, page: WikiPage, date: string): Record<string, unknown> {
  return {
    ...existing,
    type: typeof existing.type === "string" && existing.type ? existing.type : page.type,
    title: typeof existing.title === "string" && existing.title ? existing.title : page.title.trim(),
    sources: mergeSources(frontmatterPaths(existing.sources), page.frontmatter.sources),
    lang: typeof existing.lang === "string" && existing.lang ? existing.lang : page.frontmatter.lang,
    tags: mergedTags(existing.tags, page.frontmatter.tags),
    updated: date,
  };
}

/** Reads a page file back into a WikiPage (title falls back to the file name). */
export function parsePageMarkdown(text: string, path: string): WikiPage {
  const { frontmatter, body } = splitFrontmatter(text);
  const title = typeof frontmatter.title === "string" && frontmatter.title.trim() ? frontmatter.title.trim() : basenameOf(path);
  return {
    type: typeof frontmatter.type === "string" ? frontmatter.type : "",
    title,
    frontmatter: {
      sources: frontmatterPaths(frontmatter.sources),
      lang: typeof frontmatter.lang === "string" ? frontmatter.lang : "",
      tags: frontmatterList(frontmatter.tags),
    },
    content: body.trim(),
  };
}
