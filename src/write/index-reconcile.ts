/**
 * Keeps index.md true to the wiki as it is: a line for a page that is gone is removed, a page the
 * user moved to another folder is listed where it now is (same file name, found in the listing the
 * run already made), and a page in a type folder that no line lists gets one — sync that let
 * another device's index.md win drops the lines of pages this device wrote. Only the lines
 * concerned change; nothing reads a page (a line added so is titled by the file's name, until an
 * ingest that writes the page relists it under its title).
 */
import type { IndexEdit } from "./index-log";
import { basenameOf, normaliseFolder, TYPE_FOLDERS } from "../core/wiki-paths";

/** The page type whose folder holds this page directly (`wiki/concepts/X.md` → concept), else null. */
function typeByFolder(path: string, folder: string): string | null {
  const inside = folder === "" ? path : path.slice(folder.length + 1);
  const parts = inside.split("/");
  if (parts.length !== 2) return null;
  const found = Object.entries(TYPE_FOLDERS).find(([, name]) => name.toLowerCase() === (parts[0] ?? "").toLowerCase());
  return found ? found[0] : null;
}

const ENTRY_TARGET = /^\s*[-*] \[\[([^\]|]+)\|/;

export function reconcileIndex(current: string, existingPages: readonly string[], wikiFolder: string, edit: IndexEdit): IndexEdit {
  const folder = normaliseFolder(wikiFolder).toLowerCase();
  const inWiki = (target: string) => folder === "" || target.startsWith(`${folder}/`);
  const existing = new Map(existingPages.map((p) => [p.replace(/\.md$/i, "").toLowerCase(), p]));
  const upserted = new Set((edit.upsert ?? []).map((e) => e.path.replace(/\.md$/i, "").toLowerCase()));
  const removed = new Set((edit.remove ?? []).map((p) => p.replace(/\.md$/i, "").toLowerCase()));
  // Moves the caller knows of (Obsidian reported them): their old lines are moved, not removed, and
  // their new paths are listed by that move.
  const movedFrom = new Set((edit.move ?? []).map((m) => m.from.replace(/\.md$/i, "").toLowerCase()));
  const movedTo = new Set((edit.move ?? []).map((m) => m.to.replace(/\.md$/i, "").toLowerCase()));
  const listed = new Set<string>();
  const missing: string[] = [];
  for (const line of current.split("\n")) {
    const target = ENTRY_TARGET.exec(line)?.[1]?.trim();
    if (!target) continue;
    const key = target.toLowerCase();
    listed.add(key);
    if (inWiki(key) && !existing.has(key) && !upserted.has(key) && !removed.has(key) && !movedFrom.has(key)) missing.push(target);
  }
  // Unlisted pages by file name: where a missing line's page may have gone.
  const unlisted = new Map<string, string[]>();
  for (const [key, path] of existing) {
    if (listed.has(key) || upserted.has(key) || removed.has(key) || movedTo.has(key) || !inWiki(key)) continue;
    const name = basenameOf(path).toLowerCase();
    unlisted.set(name, [...(unlisted.get(name) ?? []), path]);
  }
  const listUnlisted = (): IndexEdit["upsert"] => {
    const added = [...unlisted.values()].flat().flatMap((path) => {
      const type = typeByFolder(path, normaliseFolder(wikiFolder));
      return type ? [{ path, type, title: basenameOf(path).replace(/\.md$/i, "") }] : [];
    });
    return [...(edit.upsert ?? []), ...added];
  };
  if (missing.length === 0) return unlisted.size === 0 ? edit : { ...edit, upsert: listUnlisted() };
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
  return { ...edit, move, remove, upsert: listUnlisted() };
}
