/**
 * The vault index as an ingest's catalogue of the wiki (the ingest's `WikiCatalog`, which this
 * shape matches): page count and "which files are called X" from the index's own tables, one
 * lookup each, so an ingest never lists the vault; and `refresh`, which applies the pages a run
 * just wrote so the next ingest retrieves them.
 */
import type { VaultPort } from "../vault/vault-port";
import type { ApplyResult, VaultChange } from "./index-apply";
import type { LinkTarget } from "./link-target";

export interface CatalogOptions {
  /**
   * Called after a refresh changed the index: the CLI flushes at once, the plugin schedules its
   * debounced flush.
   */
  readonly changed?: () => Promise<void> | void;
}

export interface IndexCatalog {
  pageCount(): number;
  pathsNamed(basename: string): readonly string[];
  linkExists(target: string): boolean;
  refresh(paths: readonly string[]): Promise<void>;
}

/** What the catalogue reads of an index: the VaultIndex in process, or a worker's index through the main thread's copy of its names. */
export interface CatalogSource {
  readonly wikiSize: number;
  pathsNamed(basename: string): readonly string[];
  linkTarget(target: string, from: string): LinkTarget;
  apply(changes: readonly VaultChange[]): Promise<ApplyResult>;
}

export function indexCatalog(index: CatalogSource, vault: Pick<VaultPort, "stat" | "read">, options: CatalogOptions = {}): IndexCatalog {
  return {
    pageCount: () => index.wikiSize,
    pathsNamed: (basename) => index.pathsNamed(basename),
    linkExists: (target) => index.linkTarget(target, "").kind !== "missing",
    async refresh(paths) {
      const changes: VaultChange[] = [];
      for (const path of new Set(paths)) {
        const stat = await vault.stat(path).catch(() => null);
        const text = stat ? await vault.read(path).catch(() => null) : null;
        changes.push(stat && text !== null ? { kind: "upsert", path, text, stat } : { kind: "delete", path });
      }
      await index.apply(changes);
      await options.changed?.();
    },
  };
}
