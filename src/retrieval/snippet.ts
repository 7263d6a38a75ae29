/**
 * A short excerpt of a chunk around the first query word it contains, the match in **bold**.
 * Synapse's source markers and attribution lines are no part of it.
 */
import { withCompoundParts } from "./compound-grams";
import { stripProvenance } from "../core/provenance-strip";
import { foldText, tokenize } from "../core/tokenize";

const WIDTH = 160;

export function makeSnippet(chunkText: string, queryTerms: readonly string[]): string {
  const text = stripProvenance(chunkText.replace(/^---[\s\S]*?\n---\s*\n/, "")).replace(/\s+/g, " ").trim();
  const wanted = new Set(queryTerms);
  let found: { index: number; length: number } | null = null;
  for (const m of text.matchAll(/[\p{L}\p{N}\p{M}'’]+/gu)) {
    // A word matches as itself or, a compound with Han, by a bigram (compound-grams.ts).
    const words = withCompoundParts(tokenize(m[0]));
    const target = words.find((w) => wanted.has(w));
    if (target !== undefined) {
      found = { index: m.index, length: m[0].length };
      if (words.length === 1) break;
      // A run of a script without spaces: bold only the matching word inside it.
      const at = foldText(m[0]).indexOf(target);
      if (at >= 0 && foldText(m[0]).length === m[0].length) found = { index: m.index + at, length: target.length };
      break;
    }
  }
  if (!found) return text.length > WIDTH ? `${text.slice(0, WIDTH).trimEnd()}…` : text;
  const from = Math.max(0, found.index - WIDTH / 2);
  const to = Math.min(text.length, found.index + found.length + WIDTH / 2);
  return `${from > 0 ? "…" : ""}${text.slice(from, found.index)}**${text.slice(found.index, found.index + found.length)}**${text.slice(found.index + found.length, to)}${to < text.length ? "…" : ""}`;
}
