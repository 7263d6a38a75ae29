/**
 * index.md's link targets, exactly as linksOutsideCode gives them, in pieces: an index lists every
 * page (5,000 lines at 5,000 pages), and reading its links in one step held Obsidian's main thread
 * for 50–100 ms. What needs the whole text — taking out code and escaped links, then masking
 * what a code scan still finds (wikilinkTargets' own matchesOutsideCode) — runs once, in a few
 * milliseconds; a link never spans a line, so the links are then read a few hundred lines at a time.
 */
import { maskCode } from "../core/code-spans";
import type { Pieces } from "../core/time-slice";
import { targetedWikilinks, wikilinkParts } from "../core/wikilinks";
import { linkText } from "./snapshot";

const LINES_PER_PIECE = 250;

export function* indexLinkPieces(indexText: string, linesPerPiece = LINES_PER_PIECE): Pieces<string[]> {
  const text = linkText(indexText);
  yield;
  const masked = maskCode(text);
  const seen = new Set<string>();
  let from = 0;
  while (from < text.length) {
    yield;
    let to = from;
    for (let n = 0; n < linesPerPiece && to < text.length; n++) {
      const lineEnd = text.indexOf("\n", to);
      to = lineEnd < 0 ? text.length : lineEnd + 1;
    }
    const chunk = masked.slice(from, to);
    for (const match of targetedWikilinks(chunk)) {
      // As matchesOutsideCode: a match that touches code or an escape reads differently in the text.
      if (match.embed || !text.startsWith(chunk.slice(match.index, match.end), from + match.index)) continue;
      const target = wikilinkParts(match.inner).target.trim();
      if (target) seen.add(target);
    }
    from = to;
  }
  return [...seen];
}
