/** Opens a vault folder's search index (kept in the vault's state folder) and brings it up to date. */
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { syncIndex, type SyncResult } from "../retrieval/sync";
import { VaultIndex } from "../retrieval/vault-index";
import { NodeStateStore } from "../vault/node-state-store";
import { NodeVault } from "../vault/node-vault";
import { UsageError, type CliIO } from "./io";
import { readVaultSettings } from "./vault-settings";

export interface OpenedIndex {
  readonly index: VaultIndex;
  readonly sync: SyncResult;
  readonly vaultRoot: string;
  readonly store: NodeStateStore;
}

export async function openVaultIndex(vaultFlag: string | undefined, io: CliIO, options: { progress?: boolean; signal?: AbortSignal } = {}): Promise<OpenedIndex> {
  if (!vaultFlag) throw new UsageError("--vault <dir> is required.");
  const vaultRoot = resolve(io.cwd, vaultFlag);
  if (!(await stat(vaultRoot).catch(() => null))?.isDirectory()) throw new UsageError(`The vault folder ${vaultRoot} does not exist.`);
  const loaded = await readVaultSettings(vaultRoot);
  for (const warning of loaded.warnings) io.stderr(`Warning: ${warning}\n`);
  const vault = new NodeVault(vaultRoot);
  const store = NodeStateStore.forVault(vaultRoot);
  const index = await VaultIndex.open({ store, reader: vault, wikiFolder: loaded.settings.wikiFolder, excludedFolders: loaded.settings.excludedFolders });
  if (index.rejectedShards > 0) io.stderr(`Warning: ${index.rejectedShards} index shard(s) were damaged or outdated; their notes are indexed again.\n`);
  let last = 0;
  const sync = await syncIndex(index, vault, {
    batchSize: 200,
    ...(options.signal ? { signal: options.signal } : {}),
    progress: ({ done, total }) => {
      if (!options.progress || total === 0) return;
      const now = Date.now();
      if (done === total || now - last > 250) {
        last = now;
        io.stderr(`\rIndexing ${done}/${total} notes…${done === total ? "\n" : ""}`);
      }
    },
  });
  return { index, sync, vaultRoot, store };
}
