/** A VaultIndex over an in-memory vault, for retrieval tests. */
import type { CommitOutcome } from "../../src/retrieval/note-preparation";
import { VaultIndex } from "../../src/retrieval/vault-index";
import { readFrontmatter } from "../../src/retrieval/chunker";
import { MemoryStateStore } from "../../src/vault/memory-state-store";

export interface TestVault {
  readonly files: Map<string, string>;
  readonly store: MemoryStateStore;
  readonly reader: { read(path: string): Promise<string> };
}

export function aVault(files: Record<string, string> = {}): TestVault {
  const map = new Map(Object.entries(files));
  return {
    files: map,
    store: new MemoryStateStore(),
    reader: {
      read: async (path: string) => {
        const text = map.get(path);
        if (text === undefined) throw new Error(`No note ${path}`);
        return text;
      },
    },
  };
}

export async function openIndex(vault: TestVault, options: { excludedFolders?: string[] } = {}): Promise<VaultIndex> {
  const index = await VaultIndex.open({ frontmatter: readFrontmatter, store: vault.store, reader: vault.reader, wikiFolder: "wiki", excludedFolders: options.excludedFolders ?? [] });
  return index;
}

/** Opens an index and upserts every note of the vault. */
export async function indexed(vault: TestVault, options: { excludedFolders?: string[] } = {}): Promise<VaultIndex> {
  const index = await openIndex(vault, options);
  let t = 1;
  for (const [path, text] of [...vault.files].sort()) index.upsert(path, text, { mtime: t++, size: text.length });
  return index;
}

/**
 * One note's two steps as the index's worker runs them: prepared, then — after `between`, the
 * window in which the worker awaits the main thread — committed.
 */
export async function prepareThenCommit(index: VaultIndex, path: string, text: string, stat: { readonly mtime: number; readonly size: number }, between?: () => unknown): Promise<CommitOutcome> {
  const prepared = index.prepare(path, text, stat);
  await between?.();
  return index.commit(prepared);
}

/** A note moved or renamed, applied as the vault's change. */
export async function rename(index: VaultIndex, from: string, to: string, text: string, stat?: { readonly mtime: number; readonly size: number }): Promise<void> {
  await index.apply([{ kind: "rename", from, to, text, ...(stat ? { stat } : {}) }]);
}
