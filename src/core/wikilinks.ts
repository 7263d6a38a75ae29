/** Wikilink parsing shared by the validator, the writer and retrieval. Links in code are not links. */
import { matchesOutsideCode } from "./code-spans";
import { wikilinks, type WikilinkMatch } from "./text-scan";

/** The parts of a link's inner text: `target#anchor|alias`. */
export interface WikilinkParts {
  /** Up to the first `#`, `^` or `|`, as written. */
  readonly target: string;
  /** From the `#` or `^` up to the first `|`, when there is one. */
  readonly anchor?: string;
  /** From the first `|` on (the `|` included), when there is one. */
  readonly alias?: string;
}

/** Splits a link's inner text as `/([^|#^]+)([#^][^|]*)?(\|.*)?/` would. */
export function wikilinkParts(inner: string): WikilinkParts {
  const bar = inner.indexOf("|");
  const head = bar < 0 ? inner : inner.slice(0, bar);
  const alias = bar < 0 ? undefined : inner.slice(bar);
  const cut = head.search(/[#^]/);
  return cut < 0 ? { target: head, alias } : { target: head.slice(0, cut), anchor: head.slice(cut), alias };
}

/** The links of `text` with a target of at least one character (`[[#heading]]` and `[[|x]]` are not links). */
export const targetedWikilinks = (text: string): Generator<WikilinkMatch> => wikilinks(text, "|#^");

/** Link targets (the part before `#`, `^` or `|`), trimmed, in order of appearance, without repeats;
 * links inside code or escaped (`\[[x]]`) are not counted. */
export function wikilinkTargets(markdown: string): string[] {
  const seen = new Set<string>();
  for (const match of matchesOutsideCode(markdown, targetedWikilinks)) {
    if (match.embed) continue; // embeds are attachments, not page links
    const target = wikilinkParts(match.inner).target.trim();
    if (target) seen.add(target);
  }
  return [...seen];
}

/** The page name a link target points at: the last path segment without `.md`. */
export function linkBasename(target: string): string {
  const last = target.slice(target.lastIndexOf("/") + 1);
  return last.toLowerCase().endsWith(".md") ? last.slice(0, -3) : last;
}
