/**
 * Tags a model proposes, made valid for Obsidian: no `#`, no spaces, only letters (any script, with
 * their combining marks), digits, `_`, `-` and `/`, at least one character that is not a digit
 * (Obsidian ignores `#2024`), and one spelling per tag whatever its case. A user's own tags are
 * never cleaned or dropped: `mergeTags` keeps them as written, numbers included.
 */
import { nameKey } from "./unicode";

/** A model's tag as Obsidian accepts it, or null when nothing valid is left. */
export function cleanTag(tag: string): string | null {
  const cleaned = tag
    .normalize("NFC")
    .trim()
    .replace(/^#+/, "")
    .replace(/[^\p{L}\p{M}\p{N}_/-]+/gu, "-")
    .replace(/-{2,}/g, "-")
    .replace(/\/{2,}/g, "/")
    .replace(/^[-/]+|[-/]+$/g, "")
    .split("/")
    .map((part) => part.replace(/^-+|-+$/g, ""))
    .filter(Boolean)
    .join("/");
  if (!cleaned || !/[^\p{N}_/-]/u.test(cleaned)) return null;
  return cleaned;
}

/** A model's tags, cleaned, without empties or case-duplicates (the first spelling wins). */
export function cleanTags(tags: readonly string[]): string[] {
  return mergeTags([], tags.map(cleanTag).filter((t): t is string => t !== null));
}

/** The user's tags exactly as they are (all of them), then the added ones that are new, once each. */
export function mergeTags(existing: readonly string[], added: readonly string[]): string[] {
  const key = (tag: string) => nameKey(tag.replace(/^#/, ""));
  const seen = new Set(existing.map(key));
  const out = [...existing];
  for (const tag of added) {
    if (!key(tag) || seen.has(key(tag))) continue;
    seen.add(key(tag));
    out.push(tag);
  }
  return out;
}
