/** Opens a vault folder's search index (kept in the vault's state folder) and brings it up to date. */
import { plural } from "../core/plural";
import { toSynapseError } from "../core/errors";
import { openIndex, type Embedder, type SearchIndex, type SyncPart, type SyncResult } from "../retrieval";
import { NodeStateStore } from "../vault/node-state-store";
import { NodeVault } from "../vault/node-vault";
import { nodeWriteContext } from "../node/write-context";
import type { WikiCatalog } from "../wiki/ingest-types";
import { effectiveWikiFolder } from "../wiki/page-paths";
import { applyEmbedFlags, hasEmbedFlags, type EmbedFlags } from "./embed-flags";
import { envSecrets } from "./env-secrets";
import { UsageError, type CliIO } from "./io";
import { recoverVault } from "./recovery";
import { readVaultSettings } from "./vault-settings";
import type { Settings } from "../settings/schema";
import { existingVaultRoot } from "./vault-root";

export interface OpenedIndex {
  readonly index: SearchIndex;
  readonly sync: SyncResult;
  readonly vaultRoot: string;
  readonly store: NodeStateStore;
  /** The index as an ingest's catalogue of the wiki. */
  readonly catalog: WikiCatalog;
  /** Writes the changed shards when the persistence mode says so (after the command's ingests). */
  finish(): Promise<void>;
}

export interface OpenIndexOptions {
  readonly progress?: boolean;
  readonly signal?: AbortSignal;
  /** Embedding flags of this run (`--embed-provider`, `--embed-model`, `--base-url`). */
  readonly embed?: EmbedFlags;
  /**
   * When the index is written: "sync" (default) right after it is brought up to date; "refresh"
   * by `finish`, and only if an ingest wrote pages (a failed ingest leaves no trace, and a folder's
   * ingests write the index once); "never" for a dry run.
   */
  readonly persist?: "sync" | "refresh" | "never";
  /** Bring only this part of the vault up to date (an ingest: the wiki and its notes); default the whole vault. */
  readonly only?: SyncPart;
}

/** The providers' embedding module, loaded only when the settings or the flags ask for embeddings. */
type EmbeddingModule = typeof import("../providers/embedder");

/**
 * The embedder the vault's settings and the flags choose, or null. A choice made by flags that
 * cannot work is a usage error; one made by the settings is a warning, and search goes on text-only.
 */
function embedderFor(embedding: EmbeddingModule | null, settings: Settings, flags: EmbedFlags, io: CliIO): Embedder | null {
  const fromFlags = hasEmbedFlags(flags);
  const chosen = applyEmbedFlags(settings, flags);
  if (!embedding) return null;
  try {
    return embedding.createEmbedder({ settings: chosen, secrets: envSecrets(io.env), fetch: globalThis.fetch, streamingFetch: globalThis.fetch });
  } catch (error) {
    const message = toSynapseError(error, "config").message;
    if (fromFlags) throw new UsageError(message);
    io.stderr(`Warning: ${message} Search uses text and links only.\n`);
    return null;
  }
}

export async function openVaultIndex(vaultFlag: string | undefined, io: CliIO, options: OpenIndexOptions = {}): Promise<OpenedIndex> {
  const vaultRoot = await existingVaultRoot(vaultFlag, io);
  const loaded = await readVaultSettings(vaultRoot);
  io.mark?.("settings");
  for (const warning of loaded.warnings) io.stderr(`Warning: ${warning}\n`);
  // Search, index and query read the wiki: a run a crash interrupted is rolled back first, or they
  // would index and cite its half-written pages.
  const write = nodeWriteContext(vaultRoot, { kind: "cli", env: io.env });
  await recoverVault(new NodeVault(vaultRoot), loaded.settings.wikiFolder, write, io, "read");
  io.mark?.("recovered");
  return openIndexIn(vaultRoot, loaded.settings, io, options);
}

/** Opens the index of a vault whose settings the caller has read already, and recovered (ingest applies its flags first). */
export async function openIndexIn(vaultRoot: string, settings: Settings, io: CliIO, options: OpenIndexOptions = {}): Promise<OpenedIndex> {
  const flags = options.embed ?? {};
  // Without embeddings (the default) the providers' modules are not loaded: a search starts sooner.
  const embedding = settings.embedding.provider !== "none" || hasEmbedFlags(flags) ? await import("../providers/embedder") : null;
  const embedder = embedderFor(embedding, settings, flags, io);
  const vault = new NodeVault(vaultRoot);
  const store = NodeStateStore.forVault(vaultRoot);
  // Listed while the index loads: the walk waits on the disk, the load on the CPU.
  const listing = vault.list("");
  // Its error, if any, is raised where the sync awaits it; an index that fails to open must not leave it unhandled.
  listing.catch(() => undefined);
  const index = await openIndex({
    store,
    reader: vault,
    wikiFolder: effectiveWikiFolder(settings.wikiFolder),
    excludedFolders: settings.excludedFolders,
    maxNoteBytes: settings.maxNoteBytes,
    embedder,
    // The vault's own choice, not the flags': a run with `--embed-model X` keeps its vectors.
    configuredEmbeddingModel: embedding?.configuredEmbeddingModelId(settings) ?? null,
  });
  io.mark?.("indexLoaded");
  const opened = index.stats();
  const rejectedVectors = opened.vectors?.rejectedShards ?? 0;
  if (rejectedVectors > 0) io.stderr(`Warning: ${plural(rejectedVectors, "vector shard")} ${rejectedVectors === 1 ? "was" : "were"} damaged, outdated or made by another model; their notes are embedded again.\n`);
  if (opened.rejectedShards > 0) io.stderr(`Warning: ${plural(opened.rejectedShards, "index shard")} ${opened.rejectedShards === 1 ? "was" : "were"} damaged or outdated; their notes are indexed again.\n`);
  let last = 0;
  const sync = await index.sync(vault, {
    batchSize: 200,
    listing,
    flush: (options.persist ?? "sync") === "sync",
    ...(options.only ? { only: options.only } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    progress: ({ done, total }) => {
      // The first report comes once the vault is listed, before any note is checked.
      if (done === 0) io.mark?.("listed");
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
  io.mark?.("synced");
  if (sync.vectorError) io.stderr(`${options.progress ? "\n" : ""}Warning: ${sync.vectorError}\n`);
  let wrote = false;
  const catalog = index.catalog(vault, { changed: () => void (wrote = true) });
  const finish = async () => {
    if (options.persist === "refresh" && wrote) await index.flush();
  };
  return { index, sync, vaultRoot, store, catalog, finish };
}
