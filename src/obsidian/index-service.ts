/**
 * The vault's search index inside Obsidian. Opened once the layout is ready (never in `onload`),
 * from the shards persisted in the plugin's state folder — a warm start reads no note whose time and
 * size are unchanged — then brought up to date in batches that yield to the UI between them, with a
 * status-bar line ("Indexing 1,234 / 6,287"). After that, vault events keep it current note by
 * note; changed shards are written a few seconds after the last change and on unload.
 *
 * Links come from Obsidian's metadata cache when it has parsed the note (else from the markdown),
 * and link targets resolve as Obsidian resolves them. Settings that change what is indexed (wiki
 * folder, excluded folders) reopen the index; a corrupt or outdated shard is dropped on open and its
 * notes indexed again by the sync.
 */
import { getAllTags, TFile, type App, type CachedMetadata } from "obsidian";
import { parseLinks, type LinkExtractor } from "../retrieval/links";
import { indexCatalog } from "../retrieval/catalog";
import { syncIndex, type SyncProgress } from "../retrieval/sync";
import type { Retriever } from "../retrieval/types";
import { VaultIndex } from "../retrieval/vault-index";
import type { Settings } from "../settings/schema";
import type { StateStore } from "../vault/state-store";
import type { WikiCatalog } from "../wiki/ingest-types";
import { effectiveWikiFolder } from "../wiki/page-paths";
import { ObsidianVault } from "./obsidian-vault";

export interface IndexServiceOptions {
  readonly app: App;
  /** The plugin's state store; the index lives under its `index/` keys. */
  readonly store: StateStore;
  readonly settings: () => Settings;
  /** Shows a status-bar line; "" hides it. */
  readonly status: (text: string) => void;
  /** Lets Obsidian paint between two batches (default: a `window.setTimeout` of 0). */
  readonly yieldNow?: () => Promise<void>;
  /** Quiet time after the last change before the changed shards are written (default 2 s). */
  readonly flushDelayMs?: number;
  /** Quiet time after a vault event before the note is indexed, so typing is not indexed key by key (default 0.5 s). */
  readonly updateDelayMs?: number;
  /** Told when opening or a background update failed; the index is then simply not used. */
  readonly onError?: (error: unknown) => void;
}

/** What an ingest takes from the index. */
export interface IngestIndex {
  readonly retriever: Retriever;
  readonly catalog: WikiCatalog;
}

function timer(): () => Promise<void> {
  return () => new Promise((resolve) => window.setTimeout(resolve, 0));
}

export function indexingStatus({ done, total }: SyncProgress): string {
  return done >= total ? "" : `Indexing ${done.toLocaleString("en-US")} / ${total.toLocaleString("en-US")}`;
}

/** A note's links as Obsidian's metadata cache has them; frontmatter `sources` from the markdown. */
function linksFromCache(cache: CachedMetadata): Pick<ReturnType<LinkExtractor>, "links" | "embeds" | "tags"> {
  const target = (link: string) => link.replace(/[#^|].*$/s, "").trim();
  const unique = (items: readonly string[]) => [...new Set(items.filter(Boolean))];
  return {
    links: unique((cache.links ?? []).map((l) => target(l.link))),
    embeds: unique((cache.embeds ?? []).map((e) => target(e.link))),
    tags: unique((getAllTags(cache) ?? []).map((t) => t.replace(/^#/, "").toLowerCase())),
  };
}

export class IndexService {
  private index: VaultIndex | null = null;
  private opening: Promise<VaultIndex | null> | null = null;
  /** The settings the open index was built for: a change reopens it. */
  private openedFor = "";
  /** Paths changed since the last update, with the metadata cache Obsidian sent with the change. */
  private readonly pending = new Map<string, CachedMetadata | null>();
  /** The cache of the note being indexed right now, for the link extractor. */
  private current: CachedMetadata | null = null;
  private updateTimer: number | null = null;
  private flushTimer: number | null = null;
  private updating: Promise<void> = Promise.resolve();
  private disposed = false;
  private readonly vault: ObsidianVault;

  constructor(private readonly options: IndexServiceOptions) {
    this.vault = new ObsidianVault(options.app);
  }

  /** Starts opening and syncing in the background (call from `onLayoutReady`). */
  start(): void {
    void this.ready();
  }

  /** The index once it is open and in step with the vault; null when it could not be opened. */
  ready(): Promise<VaultIndex | null> {
    const key = this.settingsKey();
    if (this.opening && key === this.openedFor) return this.opening;
    this.openedFor = key;
    const previous = this.index;
    this.index = null;
    this.opening = (async () => {
      if (previous) await previous.flush().catch(() => undefined);
      try {
        return await this.open();
      } catch (error) {
        this.options.status("");
        this.options.onError?.(error);
        return null;
      }
    })();
    return this.opening;
  }

  /** Retrieval and the wiki catalogue for one ingest; null when the index is unavailable. */
  async forIngest(): Promise<IngestIndex | null> {
    const index = await this.ready();
    if (!index) return null;
    await this.settle();
    return { retriever: index, catalog: indexCatalog(index, this.vault, { changed: () => this.scheduleFlush() }) };
  }

  /** The index for a question ("Ask the wiki"): up to date with every change made so far. */
  async retriever(): Promise<Retriever> {
    const index = await this.ready();
    if (!index) throw new Error("The search index could not be opened; see the developer console.");
    await this.settle();
    return index;
  }

  /** Applies the changes still waiting for their quiet time, so a run sees the vault as it is. */
  private async settle(): Promise<void> {
    if (this.updateTimer !== null && this.index) {
      window.clearTimeout(this.updateTimer);
      this.updateTimer = null;
      this.updating = this.updating.then(() => this.applyPending()).catch((error: unknown) => this.options.onError?.(error));
    }
    await this.updating;
  }

  private settingsKey(): string {
    const s = this.options.settings();
    return JSON.stringify([effectiveWikiFolder(s.wikiFolder), s.excludedFolders]);
  }

  private async open(): Promise<VaultIndex> {
    const settings = this.options.settings();
    const { app } = this.options;
    const links: LinkExtractor = (path, markdown, parsed) => {
      const parsedLinks = parseLinks(path, markdown, parsed);
      const cache = this.current ?? this.cacheOf(path);
      return cache ? { ...parsedLinks, ...linksFromCache(cache) } : parsedLinks;
    };
    const index = await VaultIndex.open({
      store: this.options.store,
      reader: { read: (path) => this.read(path) },
      wikiFolder: effectiveWikiFolder(settings.wikiFolder),
      excludedFolders: settings.excludedFolders,
      links,
      resolver: { resolve: (target, from) => app.metadataCache.getFirstLinkpathDest(target, from)?.path ?? null },
    });
    this.options.status(index.size === 0 ? "Indexing the vault…" : "");
    await syncIndex(index, this.vault, {
      batchSize: 50,
      yieldNow: this.options.yieldNow ?? timer(),
      progress: (progress) => this.options.status(indexingStatus(progress)),
    });
    this.options.status("");
    if (this.disposed) return index;
    this.index = index;
    // Changes made while the sync ran are applied now (most are already in: their text hashes match).
    if (this.pending.size > 0) this.scheduleUpdate(0);
    return index;
  }

  /** The metadata cache for a path, only when Obsidian has parsed that note. */
  private cacheOf(path: string): CachedMetadata | null {
    const file = this.options.app.vault.getFileByPath(path);
    return file ? this.options.app.metadataCache.getFileCache(file) : null;
  }

  private async read(path: string): Promise<string> {
    const file = this.options.app.vault.getFileByPath(path);
    if (!file) throw new Error(`"${path}" is gone.`);
    return this.options.app.vault.cachedRead(file);
  }

  /** A note was created or modified (vault event), or Obsidian parsed it (metadata cache event). */
  changed(file: unknown, cache?: CachedMetadata): void {
    if (!(file instanceof TFile) || file.extension.toLowerCase() !== "md") return;
    this.pending.set(file.path, cache ?? this.pending.get(file.path) ?? null);
    this.scheduleUpdate(this.options.updateDelayMs ?? 500);
  }

  deleted(file: unknown): void {
    if (!(file instanceof TFile)) return;
    this.pending.delete(file.path);
    if (this.index?.remove(file.path)) this.scheduleFlush();
  }

  renamed(file: unknown, oldPath: string): void {
    if (!(file instanceof TFile)) return;
    this.pending.delete(oldPath);
    if (this.index?.stateOf(oldPath)) {
      this.index.remove(oldPath);
      this.scheduleFlush();
    }
    // A note moved into (or out of) an excluded folder is dropped (or indexed) by the update.
    this.changed(file);
  }

  private scheduleUpdate(delay: number): void {
    if (this.disposed || !this.index) return;
    if (this.updateTimer !== null) window.clearTimeout(this.updateTimer);
    this.updateTimer = window.setTimeout(() => {
      this.updateTimer = null;
      this.updating = this.updating.then(() => this.applyPending()).catch((error: unknown) => this.options.onError?.(error));
    }, delay);
  }

  /** Indexes the pending notes, yielding between batches like the sync. */
  private async applyPending(): Promise<void> {
    const index = this.index;
    if (!index) return;
    const batch = [...this.pending];
    this.pending.clear();
    let changed = false;
    const yieldNow = this.options.yieldNow ?? timer();
    for (const [i, [path, cache]] of batch.entries()) {
      if (i > 0 && i % 50 === 0) await yieldNow();
      const file = this.options.app.vault.getFileByPath(path);
      if (!file) {
        changed = index.remove(path) || changed;
        continue;
      }
      const text = await this.options.app.vault.cachedRead(file).catch(() => null);
      if (text === null) continue;
      this.current = cache;
      try {
        index.upsert(path, text, { mtime: file.stat.mtime, size: file.stat.size });
        changed = true;
      } finally {
        this.current = null;
      }
    }
    if (changed) this.scheduleFlush();
  }

  private scheduleFlush(): void {
    if (this.disposed) return;
    if (this.flushTimer !== null) window.clearTimeout(this.flushTimer);
    this.flushTimer = window.setTimeout(() => {
      this.flushTimer = null;
      void this.flush();
    }, this.options.flushDelayMs ?? 2000);
  }

  /** Writes the shards changed since the last flush. */
  async flush(): Promise<void> {
    await this.updating;
    await this.index?.flush().catch((error: unknown) => this.options.onError?.(error));
  }

  /** Settles once `dispose` has written what changed (tests wait on it; Obsidian's unload cannot). */
  closed: Promise<void> = Promise.resolve();

  /** On unload: no more timers; what changed is written. */
  dispose(): Promise<void> {
    this.disposed = true;
    if (this.updateTimer !== null) window.clearTimeout(this.updateTimer);
    if (this.flushTimer !== null) window.clearTimeout(this.flushTimer);
    this.options.status("");
    this.closed = this.flush();
    return this.closed;
  }
}
