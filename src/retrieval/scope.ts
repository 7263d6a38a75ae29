/** Which notes a search may look at: the wiki, the user's notes, everything, or chosen folders. */
import { inFolders } from "../core/perimeter";
import { retrievalError } from "./errors";
import type { Scope } from "./types";

const clean = (folder: string) => folder.trim().replace(/\\/g, "/").replace(/^\.?\/+/, "").replace(/\/+$/, "");

/** Checks a scope and returns a path filter for it. */
export function scopeFilter(scope: Scope, wikiFolder: string): (path: string) => boolean {
  const inWiki = inFolders([wikiFolder]);
  switch (scope?.kind) {
    case "wiki":
      return inWiki;
    case "notes":
      return (path) => !inWiki(path);
    case "all":
      return () => true;
    case "folders": {
      if (!Array.isArray(scope.folders) || scope.folders.length === 0 || scope.folders.some((f) => typeof f !== "string" || clean(f) === "")) {
        throw retrievalError("A folder scope needs at least one folder name.");
      }
      const folders = scope.folders.map(clean);
      return inFolders(folders);
    }
    default:
      throw retrievalError(`Unknown scope ${JSON.stringify(scope)}; use wiki, notes, all or a list of folders.`);
  }
}

/** Parses the CLI's `--scope wiki|notes|all|<folder>[,<folder>…]`. */
export function parseScope(text: string): Scope {
  const value = text.trim();
  if (value === "wiki" || value === "notes" || value === "all") return { kind: value };
  const folders = value.split(",").map(clean).filter(Boolean);
  if (folders.length === 0) throw retrievalError(`"${text}" is not a scope; use wiki, notes, all or a folder.`);
  return { kind: "folders", folders };
}

export function checkLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw retrievalError(`The limit must be a whole number from 1 to 1000 (got ${String(limit)}).`);
}

export function checkQuery(query: string): void {
  if (typeof query !== "string") throw retrievalError("The query must be text.");
  if (query.length > 10_000) throw retrievalError("The query is longer than 10,000 characters.");
}
