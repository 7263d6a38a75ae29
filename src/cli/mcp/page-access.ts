/**
 * What of the vault the agent may read: Markdown files outside dot folders (Obsidian's config and
 * Synapse's state), outside the excluded folders, and — for wiki pages — not drawn from a note in
 * one (`shareablePaths`, the rule every provider is held to). A link out of the vault, or into an
 * excluded folder, is judged by where it leads as well.
 */
import { splitFrontmatter } from "../../core/markdown";
import { SynapseError } from "../../core/errors";
import { stripPageProvenance } from "../../core/provenance-strip";
import type { Settings } from "../../settings/schema";
import type { NodeVault } from "../../vault/node-vault";
import { indexPath, logPath } from "../../write/index-log";
import { effectiveWikiFolder } from "../../wiki/page-paths";
import { normaliseNotePath } from "../../wiki/read-note";
import { shareablePages, shareablePaths } from "../../wiki/shareable-pages";
import { MAX_PAGE_CHARS, MAX_PATH_CHARS } from "./limits";

/** A path as the agent gave it, checked and made vault-relative; ".md" is added when missing. */
export function pagePathArgument(raw: string): string {
  if (raw.length > MAX_PATH_CHARS) throw new SynapseError("input", `The path is ${raw.length} characters, over the ${MAX_PATH_CHARS}-character limit.`);
  const path = normaliseNotePath(raw.replace(/\\/g, "/"));
  if (path === "") throw new SynapseError("input", "Give the page's path inside the vault, such as wiki/concepts/Ada.md.");
  if (path.split("/").some((part) => part.startsWith("."))) throw new SynapseError("input", `"${raw}" is in a hidden folder; Synapse serves only the vault's notes and pages.`);
  return /\.md$/i.test(path) ? path : `${path}.md`;
}

/** Whether the agent may see this path: it and the file it really is both pass the perimeter. */
export async function mayRead(vault: NodeVault, settings: Settings, path: string): Promise<boolean> {
  const wikiFolder = effectiveWikiFolder(settings.wikiFolder);
  let real: string;
  try {
    real = await vault.realPath(path);
  } catch {
    return false;
  }
  if (real.split("/").some((part) => part.startsWith(".") || part === "..")) return false;
  const allowed = await shareablePaths(vault, [path, real], wikiFolder, settings.excludedFolders);
  return allowed.has(path) && allowed.has(real);
}

export interface PageText {
  readonly path: string;
  /** The page with its frontmatter, without Synapse's source markers and attribution lines. */
  readonly text: string;
  /** The page was longer than MAX_PAGE_CHARS and was cut. */
  readonly truncated: boolean;
  /** Length of the whole text (as `text` holds it, before any cut). */
  readonly chars: number;
}

/**
 * The page's text, or an `input` or `perimeter` error saying why not. An excluded page reads as
 * missing-or-refused, never its text. An MCP client is a model: it gets the page without Synapse's
 * bookkeeping, which is noise it would copy into answers (the frontmatter stays: type, title and
 * sources are what the page is).
 */
export async function readPage(vault: NodeVault, settings: Settings, raw: string): Promise<PageText> {
  const path = pagePathArgument(raw);
  if (!(await mayRead(vault, settings, path))) {
    throw new SynapseError("perimeter", `"${path}" is in an excluded folder, or drawn from a note in one (setting "Excluded folders"); Synapse does not hand it to agents.`);
  }
  if (!(await vault.stat(path))) throw new SynapseError("input", `There is no page "${path}" in the vault.`);
  const text = stripPageProvenance(await vault.read(path));
  const truncated = text.length > MAX_PAGE_CHARS;
  return { path, text: truncated ? text.slice(0, MAX_PAGE_CHARS).replace(/[\uD800-\uDBFF]$/, "") : text, truncated, chars: text.length };
}

export interface ListedPage {
  readonly path: string;
  readonly title: string;
  readonly type: string;
}

/** The wiki's pages the agent may see (index.md and log.md aside), with their type and title, in path order. */
export async function wikiPages(vault: NodeVault, settings: Settings): Promise<ListedPage[]> {
  const wikiFolder = effectiveWikiFolder(settings.wikiFolder);
  const special = new Set([indexPath(wikiFolder), logPath(wikiFolder)]);
  const paths = (await vault.list(wikiFolder)).filter((p) => !special.has(p));
  const out: ListedPage[] = [];
  for (const path of await shareablePages(vault, paths, settings.excludedFolders)) {
    const text = await vault.read(path).catch(() => null);
    if (text === null) continue;
    const { frontmatter } = splitFrontmatter(text);
    const title = typeof frontmatter.title === "string" && frontmatter.title.trim() ? frontmatter.title.trim() : (path.split("/").pop() ?? path).replace(/\.md$/i, "");
    out.push({ path, title, type: typeof frontmatter.type === "string" ? frontmatter.type : "" });
  }
  return out;
}
