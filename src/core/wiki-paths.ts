/**
 * Where the wiki's own files are, as every layer names them: the wiki folder as the user typed it,
 * normalised, its two bookkeeping files, index.md and log.md (the search index never holds them),
 * and the folder of each page type.
 */
import type { PageType } from "./schemas";

/** The folder of each page type inside the wiki folder. */
export const TYPE_FOLDERS: Readonly<Record<PageType, string>> = {
  entity: "entities",
  concept: "concepts",
  source: "sources",
  synthesis: "syntheses",
  comparison: "comparisons",
};

/** Normalises a user-given folder: forward slashes, no leading/trailing slash, no `.` or `..` parts. */
export function normaliseFolder(folder: string): string {
  const parts = folder
    .replace(/\\/g, "/")
    .split("/")
    .map((p) => p.trim())
    .filter((p) => p && p !== "." && p !== "..");
  return parts.join("/");
}

export function indexPath(wikiFolder: string): string {
  const folder = normaliseFolder(wikiFolder);
  return folder ? `${folder}/index.md` : "index.md";
}

export function logPath(wikiFolder: string): string {
  const folder = normaliseFolder(wikiFolder);
  return folder ? `${folder}/log.md` : "log.md";
}

/** The basename of a vault path without `.md`. */
export function basenameOf(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1).replace(/\.md$/i, "");
}
