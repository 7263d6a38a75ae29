/**
 * Planning turns validated pages into vault changes without touching the vault: where each page
 * goes, whether it is new, ours to rewrite, or edited by the user (then kept and appended to), and
 * how links between the new pages must be spelled once titles became file names.
 */
import { replaceOutsideCode } from "../core/code-spans";
import { splitFrontmatter } from "../core/markdown";
import type { PageType, WikiPage } from "../core/schemas";
import type { VaultPort } from "../vault/vault-port";
import { contentHash } from "./content-hash";
import type { PageAction } from "./ingest-types";
import { HASH_KEY, composeMarkdown, mergeFrontmatter, renderNewPage } from "./page-markdown";
import { cleanTitle } from "../core/unicode";
import { titleKey } from "./page-identity";
import { basenameOf } from "./page-paths";
import { PageTargets } from "./page-targets";
import type { PlannedChange } from "./planned-change";

export type { PlannedChange } from "./planned-change";

export interface PlanContext {
  readonly vault: VaultPort;
  readonly wikiFolder: string;
  /** Wiki pages that exist now (vault paths), from one listing of the wiki folder. */
  readonly existingPaths: readonly string[];
  /** Title of the ingested note, used in the heading of appended updates. */
  readonly sourceTitle: string;
  readonly sourcePath: string;
  /** ISO day, e.g. 2026-11-29. */
  readonly date: string;
  /** Does a note with this basename exist anywhere in the vault (wiki pages included)? */
  readonly noteExists?: (basename: string) => boolean;
}

const LINK = /(!?)\[\[([^\]|\n]+)(\|[^\]\n]*)?\]\]/g;

/**
 * Rewrites [[Title]] to [[File name|Title]] where a page's file name had to differ from its title.
 * A title may itself contain `#` ("C#"), so the longest prefix that names a page is the target and
 * the rest is the heading or block anchor.
 */
export function rewriteLinks(markdown: string, fileNames: ReadonlyMap<string, string>): string {
  // Links in code and escaped links are text: they are left as written.
  return replaceOutsideCode(markdown, LINK, (match) => {
    const [whole, bang = "", inner = "", alias] = match;
    if (bang) return whole;
    const cuts = [inner.length, ...[...inner.matchAll(/[#^]/g)].map((m) => m.index).reverse()];
    for (const cut of cuts) {
      const target = inner.slice(0, cut).trim();
      const name = fileNames.get(titleKey(target));
      if (!name) continue;
      if (name === target) return whole;
      return `[[${name}${inner.slice(cut)}${alias ?? `|${target}`}]]`;
    }
    return whole;
  });
}

/** Every non-blank line of `inner` stands, whole, as a line of `outer`. */
function keepsEveryLine(outer: string, inner: string): boolean {
  const lines = new Set(outer.split("\n").map((l) => l.trim()));
  const needed = inner.split("\n").map((l) => l.trim()).filter(Boolean);
  return needed.length > 0 && needed.every((l) => lines.has(l));
}

/** Decides what an update does to the file's current content. */
export function updateExisting(current: string, page: WikiPage, ctx: Pick<PlanContext, "sourceTitle" | "sourcePath" | "date">): { content: string; action: PageAction } {
  const { frontmatter, rawFrontmatter, body, frontmatterInvalid } = splitFrontmatter(current);
  const newBody = page.content.trim();
  const sourceLink = `[[${ctx.sourcePath.replace(/\.md$/i, "")}|${ctx.sourceTitle.replace(/[[\]|]/g, " ")}]]`;
  const appended = `${body.trimEnd()}\n\n## Update from ${sourceLink} (${ctx.date})\n\n${newBody}`;
  if (frontmatterInvalid) {
    // YAML we cannot read is the user's to fix: keep it byte for byte and only append.
    if (body.includes(newBody)) return { content: current, action: "unchanged" };
    return { content: `---\n${rawFrontmatter}\n---\n${appended}\n`, action: "merged" };
  }
  const merged = mergeFrontmatter(frontmatter, page, ctx.date);
  const ours = typeof frontmatter[HASH_KEY] === "string" && frontmatter[HASH_KEY] === contentHash(body);
  if (ours) {
    const sameBody = contentHash(newBody) === frontmatter[HASH_KEY];
    const sameSources = JSON.stringify(merged.sources) === JSON.stringify(frontmatter.sources);
    if (sameBody && sameSources) return { content: current, action: "unchanged" };
    return { content: composeMarkdown({ ...merged, [HASH_KEY]: contentHash(newBody) }, newBody), action: "updated" };
  }
  // The user edited this page (or wrote it): keep every word of theirs and append ours, once.
  if (body.includes(newBody)) return { content: current, action: "unchanged" };
  // A body that keeps each of the user's lines whole (an agent editing in place) loses nothing.
  if (keepsEveryLine(newBody, body)) return { content: composeMarkdown(merged, newBody), action: "merged" };
  return { content: composeMarkdown(merged, appended), action: "merged" };
}

export async function planPages(pages: readonly WikiPage[], ctx: PlanContext): Promise<PlannedChange[]> {
  const targetsOf = new PageTargets(ctx);
  const targets: { page: WikiPage; path: string; exists: boolean }[] = [];
  const fileNames = new Map<string, string>();
  const seenTitles = new Set<string>();

  for (const page of pages) {
    // One line, no invisible characters: a title with a line break would split index.md entries.
    const title = cleanTitle(page.title);
    const key = titleKey(title);
    if (seenTitles.has(key)) continue; // one page per title and batch; the validator let both through
    seenTitles.add(key);
    const { path, exists, linkable } = await targetsOf.target(title, page.type as PageType);
    if (linkable) fileNames.set(key, basenameOf(path));
    targets.push({ page: { ...page, title }, path, exists });
  }

  const changes: PlannedChange[] = [];
  for (const { page, path, exists } of targets) {
    const linked: WikiPage = { ...page, title: page.title.trim(), content: rewriteLinks(page.content, fileNames) };
    if (!exists) {
      changes.push({ path, type: page.type, title: linked.title, action: "created", create: renderNewPage(linked, ctx.date) });
      continue;
    }
    const update = (current: string) => updateExisting(current, linked, ctx);
    const { action } = update(await ctx.vault.read(path));
    changes.push({ path, type: page.type, title: linked.title, action, update });
  }
  return changes;
}
