/**
 * Which notes of a folder an ingest takes: Markdown notes outside the wiki folder and outside the
 * excluded folders. Shared by the plugin's "Ingest notes in folder…" and `synapse ingest <folder>`.
 * Paths are compared in Unicode NFC, so a decomposed (NFD) name from a macOS listing matches the
 * composed one typed in the settings.
 */
import { inFolders } from "../core/perimeter";
import { effectiveWikiFolder } from "./page-paths";

export interface FolderSelection {
  /** Notes to ingest, sorted. */
  readonly notes: readonly string[];
  /** Markdown notes left out because they are wiki pages or in an excluded folder. */
  readonly skipped: number;
}

function inFolder(path: string, folder: string): boolean {
  return folder !== "" && (path === folder || path.startsWith(`${folder}/`));
}

export function selectIngestible(paths: readonly string[], wikiFolder: string, excludedFolders: readonly string[]): FolderSelection {
  const wiki = effectiveWikiFolder(wikiFolder).normalize("NFC").toLowerCase();
  const excluded = inFolders(excludedFolders);
  const notes: string[] = [];
  let skipped = 0;
  for (const path of paths) {
    if (!/\.md$/i.test(path)) continue;
    const comparable = path.normalize("NFC").toLowerCase();
    if (inFolder(comparable, wiki) || excluded(path)) skipped += 1;
    else notes.push(path);
  }
  return { notes: notes.sort(), skipped };
}
