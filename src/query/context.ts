/**
 * The context a question is answered from: retrieved wiki passages first, source notes second,
 * numbered so an answer can cite them, and packed into what the model can read. Each passage keeps
 * the page it came from, so citations can be checked against exactly what was sent.
 */
import { inFolders } from "../core/perimeter";
import type { RetrievalHit } from "../retrieval";
import { estimateTokens } from "../core/tokens";
import { stripProvenance } from "../core/provenance-strip";

export interface ContextPassage {
  /** 1-based number the answer may cite as [n]. */
  readonly ref: number;
  readonly path: string;
  /** The page's title as the model sees it (the file name without `.md`). */
  readonly title: string;
  readonly heading: string;
  readonly text: string;
  readonly kind: "wiki" | "note";
}

export interface PackedContext {
  readonly passages: readonly ContextPassage[];
  /** The text handed to the provider as retrieval context. */
  readonly text: string;
  /** Relevant hits that did not fit the budget. */
  readonly leftOut: number;
}

function titleOf(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1).replace(/\.md$/i, "");
}

function render(p: ContextPassage): string {
  const where = p.heading ? ` — ${p.heading}` : "";
  return `[${p.ref}] [[${p.title}]] (${p.kind === "wiki" ? "wiki page" : "source note"} ${p.path}${where})\n${p.text.trim()}`;
}

/**
 * Wiki hits before note hits, each list in its own order of relevance; passages are added while
 * they fit `budgetTokens`, and one passage never repeats the same chunk. Synapse's markers and
 * attribution lines are taken out of each passage; one that held nothing else is not sent.
 */
export function packContext(
  wikiHits: readonly RetrievalHit[],
  noteHits: readonly RetrievalHit[],
  budgetTokens: number,
  excludedFolders: readonly string[],
  /** How a passage is measured against `budgetTokens` (budget.ts `questionTokens`). */
  tokens: (text: string) => number = estimateTokens,
): PackedContext {
  const passages: ContextPassage[] = [];
  const parts: string[] = [];
  const seen = new Set<string>();
  let used = 0;
  let leftOut = 0;
  const ordered = [...wikiHits.map((h) => ({ h, kind: "wiki" as const })), ...noteHits.map((h) => ({ h, kind: "note" as const }))];
  const excluded = inFolders(excludedFolders);
  for (const { h, kind } of ordered) {
    if (excluded(h.path)) continue;
    const key = `${h.path}#${h.heading}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const clean = stripProvenance(h.text);
    if (!clean && h.text.trim()) continue;
    const passage: ContextPassage = { ref: passages.length + 1, path: h.path, title: titleOf(h.path), heading: h.heading, text: clean, kind };
    const text = render(passage);
    const cost = tokens(text) + 2;
    if (used + cost > budgetTokens) {
      leftOut += 1;
      continue;
    }
    used += cost;
    passages.push(passage);
    parts.push(text);
  }
  return { passages, text: parts.join("\n\n"), leftOut };
}
