/**
 * Opens the vault's index for one session inside Obsidian and brings it in step with the vault:
 * builds the embedder the settings choose (or says in one notice why there is none), starts the
 * index's worker (index-worker.ts), which loads the persisted shards, then syncs with a counting
 * status line. The worker indexes; this thread reads the notes and writes the shards it is handed.
 * Links come from Obsidian's metadata cache when it has parsed the note (else from the markdown),
 * and link targets resolve as Obsidian resolves them. Embedding is left to the background pass.
 */
import type { App } from "obsidian";
import { RemoteIndex, type Embedder, type RemoteIndexOptions, type SearchIndex } from "../retrieval";
import type { Settings } from "../settings/schema";
import type { StateStore } from "../vault/state-store";
import { effectiveWikiFolder } from "../wiki/page-paths";
import { linksFromCache } from "./cache-links";
import { indexingStatus } from "./index-status";
import { IndexStartError, type IndexWorker, type IndexWorkerFactory } from "./index-worker";
import type { ObsidianVault } from "./obsidian-vault";

export interface OpenIndexDeps {
  readonly app: App;
  readonly vault: ObsidianVault;
  readonly store: StateStore;
  readonly settings: Settings;
  readonly signal: AbortSignal;
  /** Starts the index's worker (a Web Worker in Obsidian). */
  readonly worker: IndexWorkerFactory;
  /** Told when the open index is lost: its worker died, or sent what cannot be read. */
  readonly lost: (error: Error) => void;
  readonly status: (text: string) => void;
  readonly embedder?: (settings: Settings) => Promise<Embedder | null>;
  /** Tells the user why vector search is off (a notice). */
  readonly tell: (message: string) => void;
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

export async function openAndSync(deps: OpenIndexDeps): Promise<SearchIndex> {
  const { app, settings, signal } = deps;
  // Links from the metadata cache when Obsidian has parsed the note; a vault event brings its own (index-service.ts).
  const knownLinks = (path: string) => {
    const file = app.vault.getFileByPath(path);
    const cache = file ? app.metadataCache.getFileCache(file) : null;
    return cache ? linksFromCache(cache) : null;
  };
  const read = async (path: string): Promise<string> => {
    const file = app.vault.getFileByPath(path);
    if (!file) throw new Error(`"${path}" is gone.`);
    return app.vault.cachedRead(file);
  };
  const embedder = await embedderFor(deps);
  signal.throwIfAborted();
  const { index, worker } = await openInWorker(deps, {
    store: deps.store,
    reader: { read },
    wikiFolder: effectiveWikiFolder(settings.wikiFolder),
    excludedFolders: settings.excludedFolders,
    maxNoteBytes: settings.maxNoteBytes,
    knownLinks,
    resolver: { resolve: (target, from) => app.metadataCache.getFirstLinkpathDest(target, from)?.path ?? null },
    embedder,
    // The plugin's embedder is the one its settings choose: the configured model's vectors.
    configuredEmbeddingModel: embedder?.modelId ?? null,
    onLost: (error) => deps.lost(error),
  });
  try {
    signal.throwIfAborted();
    deps.status(index.stats().notes === 0 ? "Indexing the vault…" : "");
    await index.sync(deps.vault, {
      batchSize: 50,
      signal,
      // Embedding comes after, in the background: the index answers from text and links meanwhile.
      embed: false,
      progress: (progress) => deps.status(indexingStatus(progress)),
    });
    deps.status("");
    signal.throwIfAborted();
  } catch (error) {
    // An index that never finished its first sync is not used, nor written: its worker goes.
    worker.terminate();
    throw error;
  }
  return index;
}

/**
 * Starts the worker and opens the index in it. A worker that fails before the index is open did
 * not start (IndexStartError); one that fails after is lost, and the index with it.
 */
async function openInWorker(deps: OpenIndexDeps, options: RemoteIndexOptions): Promise<{ index: RemoteIndex; worker: IndexWorker }> {
  const worker = await deps.worker();
  let index: RemoteIndex | null = null;
  const failed = new Promise<never>((_resolve, reject) =>
    worker.onLost((error) => {
      if (index) index.lost(error);
      else reject(new IndexStartError(error.message, { cause: error }));
    }),
  );
  try {
    index = await Promise.race([RemoteIndex.open(worker.port, options, () => worker.terminate()), failed]);
  } catch (error) {
    worker.terminate();
    throw error;
  }
  return { index, worker };
}
