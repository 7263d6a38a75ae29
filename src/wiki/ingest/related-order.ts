/**
 * The order the related pages are sent in. Relevance chooses them (retrieval ranks, the budget
 * cuts); this order only lays the chosen set out, by path as names compare (NFC, case-folded), so
 * the same set reads the same whichever note asked for it. A prompt cache pays only for a prefix
 * it has seen before (Anthropic's marked blocks, OpenAI's automatic prefix), and two notes about
 * one subject rank the same pages differently: sent best first, their prompts part at the first
 * page. Ties are broken by code units, never by locale, so the order is the same on every machine.
 */
import { nameKey } from "../../core/unicode";
import type { RetrievalHit } from "../../retrieval";

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareKeys(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const order = byCodeUnits(a[i] ?? "", b[i] ?? "");
    if (order !== 0) return order;
  }
  return 0;
}

/** A name's sort keys: as names compare, then its NFC spelling, then as written (case and normal-form twins). */
function nameKeys(name: string): string[] {
  return [nameKey(name), name.normalize("NFC"), name];
}

/** Titles in their stable order (a new array). */
export function titlesInStableOrder(titles: readonly string[]): string[] {
  return [...titles].sort((a, b) => compareKeys(nameKeys(a), nameKeys(b)));
}

/** Items carrying a hit (packed blocks, hits) in the stable order of their hits: path, then heading, then text. */
export function inStableOrder<T>(items: readonly T[], hitOf: (item: T) => Pick<RetrievalHit, "path" | "heading" | "text">): T[] {
  const keyed = items.map((item) => {
    const hit = hitOf(item);
    return { item, keys: [...nameKeys(hit.path), hit.heading.normalize("NFC"), hit.heading, hit.text] };
  });
  return keyed.sort((a, b) => compareKeys(a.keys, b.keys)).map((k) => k.item);
}
