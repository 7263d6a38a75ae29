/** Wikilink parsing shared by the validator, the writer and retrieval. Links in code are not links. */
import { matchesOutsideCode } from "./code-spans";

const WIKILINK = /!?\[\[([^\]|#^\n]+)(?:[#^][^\]|\n]*)?(?:\|[^\]\n]*)?\]\]/g;

/** Link targets (the part before `#`, `^` or `|`), trimmed, in order of appearance, without repeats;
 * links inside code or escaped (`\[[x]]`) are not counted. */
export function wikilinkTargets(markdown: string): string[] {
  const seen = new Set<string>();
  for (const match of matchesOutsideCode(markdown, WIKILINK)) {
    if (match[0].startsWith("!")) continue; // embeds are attachments, not page links
    const target = (match[1] ?? "").trim();
    if (target) seen.add(target);
  }
  return [...seen];
}

/** The page name a link target points at: the last path segment without `.md`. */
export function linkBasename(target: string): string {
  const last = target.slice(target.lastIndexOf("/") + 1);
  return last.toLowerCase().endsWith(".md") ? last.slice(0, -3) : last;
}
