/**
 * Opens the vault's index for one session inside Obsidian and brings it in step with the vault:
 * builds the embedder the settings choose (or says in one notice why there is none), loads the
 * persisted shards in time slices, then syncs in time slices with a counting status line. Links
 * come from Obsidian's metadata cache when it has parsed the note (else from the markdown), and
 * link targets resolve as Obsidian resolves them. Embedding is left to the background pass.
 */
import type { App, CachedMetadata } from "obsidian";
import type { Embedder } from "../retrieval/embedder";
import { parseLinks, sourcesOf, type LinkExtractor } from "../retrieval/links";
import { syncIndex } from "../retrieval/sync";
import type { TimeSlicer } from "../retrieval/time-slice";
import { VaultIndex } from "../retrieval/vault-index";
import type { Settings } from "../settings/schema";
import type { StateStore } from "../vault/state-store";
import { effectiveWikiFolder } from "../wiki/page-paths";
import { linksFromCache } from "./cache-links";
import { indexingStatus } from "./index-status";
import type { ObsidianVault } from "./obsidian-vault";

export interface OpenIndexDeps {
  readonly app: App;
  readonly vault: ObsidianVault;
  readonly store: StateStore;
  readonly settings: Settings;
  readonly signal: AbortSignal;
  /** A fresh time slicer (the host's yield and clock). */
  readonly slicer: () => TimeSlicer;
  readonly status: (text: string) => void;
  readonly embedder?: (settings: Settings) => Promise<Embedder | null>;
  /** Tells the user why vector search is off (a notice). */
  readonly tell: (message: string) => void;
  /** The metadata cache that came with the vault event being applied, if any. */
  readonly currentCache: () => CachedMetadata | null;
}

/** The embedder the settings choose; when it cannot be built, a notice and text and links only. */
async function embedderFor(deps: OpenIndexDeps): Promise<Embedder | null> {
  try {
    return (await deps.embedder?.(deps.settings)) ?? null;
  } catch (error) {
    const cause = (error instanceof Error ? error.message : String(error)).trim();
    // "No API key was found…" says nothing of vector search by itself.
    const said = /vector search|embedding/i.test(cause) ? cause : `Vector search is off: ${cause}`;
    deps.tell(`${said} Search uses text and links only.`);
    return null;
  }
}

export async function openAndSync(deps: OpenIndexDeps): Promise<VaultIndex> {
  const { app, settings, signal } = deps;
  const cacheOf = (path: string): CachedMetadata | null => {
    const file = app.vault.getFileByPath(path);
    return file ? app.metadataCache.getFileCache(file) : null;
  };
  const links: LinkExtractor = (path, markdown, parsed) => {
    const cache = deps.currentCache() ?? cacheOf(path);
    // With the cache, the note's text is not scanned for links (tens of ms for a note of megabytes).
    return cache ? { sources: sourcesOf(parsed), ...linksFromCache(cache) } : parseLinks(path, markdown, parsed);
  };
  const read = async (path: string): Promise<string> => {
    const file = app.vault.getFileByPath(path);
    if (!file) throw new Error(`"${path}" is gone.`);
    return app.vault.cachedRead(file);
  };
  const embedder = await embedderFor(deps);
  signal.throwIfAborted();
  const loading = deps.slicer();
  const index = await VaultIndex.open({
    // A warm start loads every shard: in time slices too.
    checkpoint: (force) => loading.checkpoint(force),
    store: deps.store,
    reader: { read },
    wikiFolder: effectiveWikiFolder(settings.wikiFolder),
    excludedFolders: settings.excludedFolders,
    maxNoteBytes: settings.maxNoteBytes,
    links,
    resolver: { resolve: (target, from) => app.metadataCache.getFirstLinkpathDest(target, from)?.path ?? null },
    embedder,
    // The plugin's embedder is the one its settings choose: the configured model's vectors.
    configuredEmbeddingModel: embedder?.modelId ?? null,
  });
  signal.throwIfAborted();
  deps.status(index.size === 0 ? "Indexing the vault…" : "");
  await syncIndex(index, deps.vault, {
    batchSize: 50,
    slicer: deps.slicer(),
    signal,
    // Embedding comes after, in the background: the index answers from text and links meanwhile.
    embed: false,
    progress: (progress) => deps.status(indexingStatus(progress)),
  });
  deps.status("");
  signal.throwIfAborted();
  return index;
}
