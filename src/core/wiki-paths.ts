/**
 * Where the wiki's own files are, as every layer names them: the wiki folder as the user typed it,
 * normalised, and its two bookkeeping files, index.md and log.md (the search index never holds them).
 */

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
