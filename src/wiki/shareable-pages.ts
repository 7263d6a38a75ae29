/**
 * The wiki pages a provider may see. A page in an excluded folder is out, and so is a page drawn
 * from a note in an excluded folder (its `sources`), wherever it lives: it carries that note's words.
 */
import { frontmatterPaths, splitFrontmatter } from "../core/markdown";
import { inFolders, isShareablePage } from "../core/perimeter";
import type { VaultPort } from "../vault/vault-port";
import { isInFolder } from "./read-note";

export async function shareablePages(vault: VaultPort, paths: readonly string[], excludedFolders: readonly string[]): Promise<string[]> {
  // Without exclusions every page may be seen, and no page needs reading.
  if (!excludedFolders.some((folder) => folder.trim())) return [...paths];
  const shareable: string[] = [];
  const excluded = inFolders(excludedFolders);
  for (const path of paths) {
    if (excluded(path)) continue;
    let text: string;
    try {
      text = await vault.read(path);
    } catch {
      continue; // a page we cannot read is not shown
    }
    if (isShareablePage(frontmatterPaths(splitFrontmatter(text).frontmatter.sources), excludedFolders)) shareable.push(path);
  }
  return shareable;
}

/**
 * Of any paths (retrieval hits of whatever scope), those a provider may see: a path inside the wiki
 * folder — compared without case or Unicode form, as a case-insensitive disk finds it — only when
 * `shareablePages` allows it; any other path unless it lies in an excluded folder.
 */
export async function shareablePaths(vault: VaultPort, paths: readonly string[], wikiFolder: string, excludedFolders: readonly string[]): Promise<Set<string>> {
  const unique = [...new Set(paths)];
  const pages = new Set(await shareablePages(vault, unique.filter((p) => isInFolder(p, wikiFolder)), excludedFolders));
  const excluded = inFolders(excludedFolders);
  return new Set(unique.filter((p) => (isInFolder(p, wikiFolder) ? pages.has(p) : !excluded(p))));
}
