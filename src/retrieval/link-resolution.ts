/**
 * Where a link leads among the notes of its name, the way Obsidian resolves it, for the CLI (the
 * plugin asks Obsidian's own resolver). Names and paths compare by `nameKey` (NFC, case-folded), so
 * `[[Café]]` typed on Windows finds `Café.md` synced from a Mac (decomposed), and the other way.
 *
 * - A bare name (`[[Diary]]`) goes to the note of that name with the shortest path (ties by path).
 * - A link with a folder (`[[notes/Diary]]`) must match the path: the note at that path from the
 *   vault's root, else from the linking note's folder, else the shortest path that ends with it at a
 *   folder boundary. `[[elsewhere/Diary]]` leads nowhere when there is no `elsewhere/Diary.md`,
 *   however many other Diaries there are.
 * - `[[/Diary]]` is from the root only; `[[./Diary]]` and `[[../Diary]]` from the linking note's folder only.
 */
import { nameKey } from "../core/unicode";

/** A note that may answer a link: its path and that path's key. */
export interface Candidate {
  readonly path: string;
  readonly key: string;
}

const ASCII = /^[\x20-\x7e]*$/;

/** nameKey, with a shortcut for the plain-ASCII names most vaults are made of (normalising them changes nothing). */
function fold(text: string): string {
  return ASCII.test(text) ? text.toLowerCase() : nameKey(text);
}

/** A link target as written, cleaned: trimmed, forward slashes, without `.md`. */
function cleaned(target: string): string {
  return target.trim().replace(/\\/g, "/").replace(/\.md$/i, "");
}

/** The key of a note's path (or a cleaned link path): `.md` dropped, compared as names are. */
export function pathKey(path: string): string {
  return fold(path.replace(/\.md$/i, ""));
}

/** The key of the name a link is written to: the last segment of its path. */
export function targetNameKey(target: string): string {
  const clean = cleaned(target);
  return fold(clean.slice(clean.lastIndexOf("/") + 1));
}

/** The key of a note's own name (file name without `.md`). */
export function noteNameKey(path: string): string {
  return fold(path.slice(path.lastIndexOf("/") + 1).replace(/\.md$/i, ""));
}

/** Sorts candidates as a bare name picks them: shortest path first, then by path. */
export function shortestFirst(paths: Iterable<string>): Candidate[] {
  return [...paths].sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0)).map((path) => ({ path, key: pathKey(path) }));
}

/** Joins segments, dropping empty and `.` ones and resolving `..`; null when `..` climbs above the vault. */
function collapse(segments: readonly string[]): string | null {
  const out: string[] = [];
  for (const segment of segments) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(segment);
  }
  return out.join("/");
}

function folderOf(path: string): string[] {
  const cut = path.lastIndexOf("/");
  return cut < 0 ? [] : path.slice(0, cut).split("/");
}

/**
 * The note `target`, written in `from`, leads to among `candidates` (every note of the target's
 * name, shortest path first as `shortestFirst` sorts them), or null.
 */
export function pickTarget(target: string, from: string, candidates: readonly Candidate[]): string | null {
  if (candidates.length === 0) return null;
  const clean = cleaned(target);
  const at = (path: string | null): string | null => {
    if (path === null || path === "") return null;
    const wanted = fold(path);
    return candidates.find((c) => c.key === wanted)?.path ?? null;
  };
  const segments = clean.split("/");
  if (clean.startsWith("/")) return at(collapse(segments));
  if (segments[0] === "." || segments[0] === "..") return at(collapse([...folderOf(from), ...segments]));
  if (segments.length === 1) return (candidates[0] as Candidate).path;
  const fromRoot = collapse(segments);
  if (fromRoot === null) return null;
  const exact = at(fromRoot) ?? at(collapse([...folderOf(from), ...segments]));
  if (exact) return exact;
  const tail = `/${fold(fromRoot)}`;
  return candidates.find((c) => c.key.endsWith(tail))?.path ?? null;
}
