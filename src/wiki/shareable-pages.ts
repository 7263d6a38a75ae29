/**
 * The wiki pages a provider may see. A page in an excluded folder is out, and so is a page drawn
 * from a note in an excluded folder (its `sources`), wherever it lives: it carries that note's words.
 */
import { frontmatterPaths, splitFrontmatter } from "../core/markdown";
import { isExcluded, isShareablePage } from "../core/perimeter";
import type { VaultPort } from "../vault/vault-port";

export async function shareablePages(vault: VaultPort, paths: readonly string[], excludedFolders: readonly string[]): Promise<string[]> {
  // Without exclusions every page may be seen, and no page needs reading.
  if (!excludedFolders.some((folder) => folder.trim())) return [...paths];
  const shareable: string[] = [];
  for (const path of paths) {
    if (isExcluded(path, excludedFolders)) continue;
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
