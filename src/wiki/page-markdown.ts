/**
 * Wiki pages as Markdown files: YAML frontmatter (the `yaml` package) and a body. The same codec
 * writes pages, reads them back for merging, and turns files an agent wrote into WikiPages.
 */
import { stringify } from "yaml";
import { frontmatterList, frontmatterPaths, splitFrontmatter } from "../core/markdown";
import type { WikiPage } from "../core/schemas";
import { mergeSources } from "../core/sources";
import { mergeTags } from "../core/tags";
import { ID_KEY } from "./identity";
import { titleKey } from "./page-identity";
import { basenameOf } from "./page-paths";

/**
 * Frontmatter key of the body fingerprint pages carried before provenance sections: read to tell
 * an unedited old page from an edited one, never written any more.
 */
export const HASH_KEY = "synapse_hash";

export function composeMarkdown(frontmatter: Record<string, unknown>, body: string): string {
  const yaml = stringify(frontmatter, { lineWidth: 0 }).trimEnd();
  return `---\n${yaml}\n---\n\n${body.trim()}\n`;
}

/** Names other than the title, each once, the title itself left out. */
export function aliasList(title: string, ...lists: readonly (readonly string[])[]): string[] {
  const seen = new Set([titleKey(title)]);
  const out: string[] = [];
  for (const alias of lists.flat()) {
    const key = titleKey(alias);
    if (!key || seen.has(key)) continue;
    seen.add(key);
    out.push(alias.trim());
  }
  return out;
}

/** A new page file: frontmatter with its id, and `body` (already laid out in source sections). */
export function renderNewPage(page: WikiPage, date: string, id: string, body: string): string {
  const aliases = aliasList(page.title, page.aliases ?? []);
  return composeMarkdown(
    {
      type: page.type,
      title: page.title.trim(),
      ...(aliases.length ? { aliases } : {}),
      sources: page.frontmatter.sources,
      lang: page.frontmatter.lang,
      tags: page.frontmatter.tags,
      created: date,
      updated: date,
      [ID_KEY]: id,
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

/**
 * Existing keys are kept (the user may have added their own); `type`, `title` and `created` never
 * change; lists are merged, never shortened; a page without an id gets one.
 */
export function mergeFrontmatter(existing: Record<string, unknown>, page: WikiPage, extra: { date: string; id: string; aliases: readonly string[] }): Record<string, unknown> {
  const title = typeof existing.title === "string" && existing.title ? existing.title : page.title.trim();
  const aliases = aliasList(title, frontmatterPaths(existing.aliases), extra.aliases);
  const kept = { ...existing };
  delete kept[HASH_KEY];
  // A new `aliases` key goes right after the title, where people look for it.
  const ordered = Object.fromEntries(Object.entries(kept).flatMap(([k, v]) => (k === "title" && !("aliases" in kept) ? [[k, v], ["aliases", []]] : [[k, v]])));
  const merged: Record<string, unknown> = {
    ...ordered,
    type: typeof existing.type === "string" && existing.type ? existing.type : page.type,
    title,
    ...(aliases.length ? { aliases } : {}),
    sources: mergeSources(frontmatterPaths(existing.sources), page.frontmatter.sources),
    lang: typeof existing.lang === "string" && existing.lang ? existing.lang : page.frontmatter.lang,
    tags: mergedTags(existing.tags, page.frontmatter.tags),
    updated: extra.date,
    [ID_KEY]: typeof existing[ID_KEY] === "string" && existing[ID_KEY] ? existing[ID_KEY] : extra.id,
  };
  if (aliases.length === 0 && !("aliases" in existing)) delete merged.aliases;
  return merged;
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
