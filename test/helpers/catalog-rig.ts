/**
 * A wiki whose index is the ingest's catalogue (as `synapse ingest` runs), crowded with filler pages
 * that retrieval ranks above the page a test is about: only the registry of ingested notes can name
 * that page, so a test on it shows the registry is read.
 */
import { indexCatalog } from "../../src/retrieval/catalog";
import { syncIndex } from "../../src/retrieval/sync";
import { VaultIndex } from "../../src/retrieval/vault-index";
import { readFrontmatter } from "../../src/retrieval/chunker";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import type { WikiCatalog } from "../../src/wiki/ingest-types";
import type { WriteContext } from "../../src/write/apply";

/** Sixty concept pages about "version two of A", sourced from another note. */
export function fillerPages(count = 60): Record<string, string> {
  return Object.fromEntries(
    Array.from({ length: count }, (_, i) => [
      `wiki/concepts/Version ${i}.md`,
      `---\ntype: concept\ntitle: Version ${i}\nsynapse_id: sy-filler${i}\nsources:\n  - notes/Other.md\nlang: en\n---\nVersion two of A, the second version, version notes.\n`,
    ]),
  );
}

export interface CatalogRig {
  readonly vault: MemoryVault;
  readonly write: WriteContext;
  readonly index: VaultIndex;
  readonly catalog: WikiCatalog;
}

/** `files` plus the filler pages, indexed, with the index as catalogue (flushed on each change). */
export async function crowdedCatalogRig(files: Record<string, string>): Promise<CatalogRig> {
  const vault = new MemoryVault({ ...files, ...fillerPages() });
  const write: WriteContext = { store: new MemoryStateStore(), writer: { kind: "cli", pid: null, host: null } };
  const index = await VaultIndex.open({ frontmatter: readFrontmatter, store: new MemoryStateStore(), reader: vault, wikiFolder: "wiki", excludedFolders: [] });
  await syncIndex(index, vault);
  const catalog = indexCatalog(index, vault, { changed: async () => void (await index.flush()) });
  return { vault, write, index, catalog };
}
