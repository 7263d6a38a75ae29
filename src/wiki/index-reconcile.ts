/**
 * Keeps index.md true to the wiki as it is: a line for a page that is gone is removed, and a page
 * the user moved to another folder is listed where it now is (same file name, found in the listing
 * the run already made). Only the lines concerned change; nothing reads a page.
 */
import type { IndexEdit } from "./index-log";
import { basenameOf, normaliseFolder } from "./page-paths";

const ENTRY_TARGET = /^\s*[-*] \[\[([^\]|]+)\|/;

export function reconcileIndex(current: string, existingPages: readonly string[], wikiFolder: string, edit: IndexEdit): IndexEdit {
  const folder = normaliseFolder(wikiFolder).toLowerCase();
  const inWiki = (target: string) => folder === "" || target.startsWith(`${folder}/`);
  const existing = new Map(existingPages.map((p) => [p.replace(/\.md$/i, "").toLowerCase(), p]));
  const upserted = new Set((edit.upsert ?? []).map((e) => e.path.replace(/\.md$/i, "").toLowerCase()));
  const removed = new Set((edit.remove ?? []).map((p) => p.replace(/\.md$/i, "").toLowerCase()));
  const listed = new Set<string>();
  const missing: string[] = [];
  for (const line of current.split("\n")) {
    const target = ENTRY_TARGET.exec(line)?.[1]?.trim();
    if (!target) continue;
    const key = target.toLowerCase();
    listed.add(key);
    if (inWiki(key) && !existing.has(key) && !upserted.has(key) && !removed.has(key)) missing.push(target);
  }
  if (missing.length === 0) return edit;
  // Unlisted pages by file name: where a missing line's page may have gone.
  const unlisted = new Map<string, string[]>();
  for (const [key, path] of existing) {
    if (listed.has(key) || upserted.has(key)) continue;
    const name = basenameOf(path).toLowerCase();
    unlisted.set(name, [...(unlisted.get(name) ?? []), path]);
  }
  const move: { from: string; to: string }[] = [...(edit.move ?? [])];
  const remove: string[] = [...(edit.remove ?? [])];
  for (const target of missing) {
    const candidates = unlisted.get(basenameOf(`${target}.md`).toLowerCase()) ?? [];
    const only = candidates.length === 1 ? candidates[0] : undefined;
    if (only) {
      move.push({ from: `${target}.md`, to: only });
      unlisted.delete(basenameOf(only).toLowerCase());
    } else remove.push(`${target}.md`);
  }
  return { ...edit, move, remove };
}
