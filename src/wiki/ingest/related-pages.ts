/**
 * What the model should know of the wiki before it writes: the titles of existing pages (so it
 * links to them instead of duplicating them) and the opening of the few pages the note mentions.
 * Cheap by construction: titles come from one folder listing; only matching pages are read.
 */
import { splitFrontmatter } from "../../core/markdown";
import type { VaultPort } from "../../vault/vault-port";
import { stripProvenance } from "../../core/provenance-strip";

export interface WikiContext {
  /** Existing page titles, for analysis and linking. */
  readonly vaultContext: string;
  /** Openings of the wiki pages the note mentions. */
  readonly retrievalContext: string;
  /** Titles of existing pages the note mentions, most specific first. */
  readonly related: readonly string[];
}

const MAX_TITLES = 300;
const MAX_RELATED = 5;
const EXCERPT_CHARS = 1200;

function words(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/** Titles (file basenames) whose every word occurs in the note, confirmed as a phrase. */
export function mentionedTitles(noteText: string, titles: readonly string[]): string[] {
  const lower = noteText.toLowerCase();
  const vocabulary = new Set(words(noteText));
  return titles
    .filter((title) => {
      const w = words(title);
      return w.length > 0 && w.every((x) => vocabulary.has(x)) && lower.includes(title.toLowerCase());
    })
    .sort((a, b) => b.length - a.length || a.localeCompare(b));
}

export async function buildWikiContext(
  vault: VaultPort,
  wikiFolder: string,
  pagePaths: readonly string[],
  noteText: string,
): Promise<WikiContext> {
  const byTitle = new Map(pagePaths.map((p) => [p.slice(p.lastIndexOf("/") + 1).replace(/\.md$/i, ""), p]));
  const titles = [...byTitle.keys()];
  const related = mentionedTitles(noteText, titles).slice(0, MAX_RELATED);
  const shown = [...related, ...titles.filter((t) => !related.includes(t))].slice(0, MAX_TITLES);
  const vaultContext =
    titles.length === 0
      ? `The wiki (folder "${wikiFolder}") is empty.`
      : `The wiki (folder "${wikiFolder}") has ${titles.length} pages. Link to existing pages by their exact title instead of writing them again. Titles: ${shown.join("; ")}${titles.length > shown.length ? "; …" : ""}`;
  const excerpts: string[] = [];
  for (const title of related) {
    const path = byTitle.get(title);
    if (!path) continue;
    try {
      // Synapse's markers and attribution lines are bookkeeping, not what the page says.
      const body = stripProvenance(splitFrontmatter(await vault.read(path)).body);
      if (!body) continue;
      excerpts.push(`### Existing page [[${title}]]\n${body.slice(0, EXCERPT_CHARS)}${body.length > EXCERPT_CHARS ? "…" : ""}`);
    } catch {
      // A page that vanished or cannot be read is simply not context.
    }
  }
  const retrievalContext = excerpts.length === 0 ? vaultContext : `${vaultContext}\n\nExisting pages the note mentions:\n\n${excerpts.join("\n\n")}`;
  return { vaultContext, retrievalContext, related };
}
