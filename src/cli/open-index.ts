/** Opens a vault folder's search index (kept in the vault's state folder) and brings it up to date. */
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { toSynapseError } from "../core/errors";
import { createEmbedder } from "../providers/embedder";
import type { Embedder } from "../retrieval/embedder";
import { syncIndex, type SyncResult } from "../retrieval/sync";
import { VaultIndex } from "../retrieval/vault-index";
import { NodeStateStore } from "../vault/node-state-store";
import { NodeVault } from "../vault/node-vault";
import { applyEmbedFlags, hasEmbedFlags, type EmbedFlags } from "./embed-flags";
import { envSecrets } from "./env-secrets";
import { UsageError, type CliIO } from "./io";
import { readVaultSettings } from "./vault-settings";
import type { Settings } from "../settings/schema";

export interface OpenedIndex {
  readonly index: VaultIndex;
  readonly sync: SyncResult;
  readonly vaultRoot: string;
  readonly store: NodeStateStore;
}

export interface OpenIndexOptions {
  readonly progress?: boolean;
  readonly signal?: AbortSignal;
  /** Embedding flags of this run (`--embed-provider`, `--embed-model`, `--base-url`). */
  readonly embed?: EmbedFlags;
}

/**
 * The embedder the vault's settings and the flags choose, or null. A choice made by flags that
 * cannot work is a usage error; one made by the settings is a warning, and search goes on text-only.
 */
function embedderFor(settings: Settings, flags: EmbedFlags, io: CliIO): Embedder | null {
  const fromFlags = hasEmbedFlags(flags);
  const chosen = applyEmbedFlags(settings, flags);
  try {
    return createEmbedder({ settings: chosen, secrets: envSecrets(io.env), fetch: globalThis.fetch, streamingFetch: globalThis.fetch });
  } catch (error) {
    const message = toSynapseError(error, "config").message;
    if (fromFlags) throw new UsageError(message);
    io.stderr(`Warning: ${message} Search uses text and links only.\n`);
    return null;
  }
}

export async function openVaultIndex(vaultFlag: string | undefined, io: CliIO, options: OpenIndexOptions = {}): Promise<OpenedIndex> {
  if (!vaultFlag) throw new UsageError("--vault <dir> is required.");
  const vaultRoot = resolve(io.cwd, vaultFlag);
  if (!(await stat(vaultRoot).catch(() => null))?.isDirectory()) throw new UsageError(`The vault folder ${vaultRoot} does not exist.`);
  const loaded = await readVaultSettings(vaultRoot);
  for (const warning of loaded.warnings) io.stderr(`Warning: ${warning}\n`);
  const embedder = embedderFor(loaded.settings, options.embed ?? {}, io);
  const vault = new NodeVault(vaultRoot);
  const store = NodeStateStore.forVault(vaultRoot);
  const index = await VaultIndex.open({ store, reader: vault, wikiFolder: loaded.settings.wikiFolder, excludedFolders: loaded.settings.excludedFolders, embedder });
  const rejectedVectors = index.vectors?.rejectedShards ?? 0;
  if (rejectedVectors > 0) io.stderr(`Warning: ${rejectedVectors} vector shard(s) were damaged, outdated or made by another model; their notes are embedded again.\n`);
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
    embedProgress: ({ done, total }) => {
      if (!options.progress || total === 0) return;
      const now = Date.now();
      if (done === total || now - last > 250) {
        last = now;
        io.stderr(`\rEmbedding ${done}/${total} notes…${done === total ? "\n" : ""}`);
      }
    },
  });
  if (sync.vectorError) io.stderr(`${options.progress ? "\n" : ""}Warning: ${sync.vectorError}\n`);
  return { index, sync, vaultRoot, store };
}
