/**
 * The vault index as an ingest's catalogue of the wiki (`WikiCatalog`): page count and "which
 * files are called X" from the index's own tables, one lookup each, so an ingest never lists the
 * vault; and `refresh`, which indexes the pages a run just wrote so the next ingest retrieves them.
 */
import type { VaultPort } from "../vault/vault-port";
import type { WikiCatalog } from "../wiki/ingest-types";
import type { VaultIndex } from "./vault-index";

export interface CatalogOptions {  /**
   * Called after a refresh changed the index: the CLI flushes at once, the plugin schedules its
   * debounced flush.
   */
  readonly changed?: () => Promise<void> | void;
}

export function indexCatalog(index: VaultIndex, vault: Pick<VaultPort, "stat" | "read">, options: CatalogOptions = {}): WikiCatalog {
  return {
    pageCount: () => index.wikiSize,
    pathsNamed: (basename) => index.pathsNamed(basename),
    linkExists: (target) => index.linkTarget(target, "").kind !== "missing",
    async refresh(paths) {
      for (const path of new Set(paths)) {
        const stat = await vault.stat(path).catch(() => null);
        const text = stat ? await vault.read(path).catch(() => null) : null;
        if (stat && text !== null) index.upsert(path, text, stat);
        else index.remove(path);
      }
      await options.changed?.();
    },
  };
}
