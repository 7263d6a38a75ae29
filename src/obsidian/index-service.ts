/**
 * The vault's search index inside Obsidian. It runs in a Web Worker (index-worker.ts); this thread
 * reads the notes, posts them and writes the shards the worker hands back. Opened once the layout
 * is ready (never in `onload`), from the shards persisted in the plugin's state folder — a warm start reads no note whose time and
 * size are unchanged — then brought up to date in the worker, with a status-bar line
 * ("Indexing 1,234 / 6,287"). After that, vault events keep it current note by
 * note; changed shards are written a few seconds after the last change and on unload.
 *
 * With an embedding model configured, the notes' chunks are embedded in the background once the
 * text pass is done (the index already answers from text and links meanwhile), with its own status
 * line ("Embedding 120 / 6,287 notes"); a server that cannot embed costs one notice, search goes on
 * from text and links, and the server is asked again later (index-embedding-pass.ts). Requests go
 * through `requestUrl`, keys come from secret storage.
 *
 * Opening and the first sync are in index-open.ts (links from Obsidian's metadata cache, link
 * targets resolved as Obsidian resolves them). Settings that change what is indexed (wiki
 * folder, excluded folders, the embedding model) reopen the index: the running sync is cancelled
 * and awaited first, so two syncs never run at once nor write the same shards. A corrupt or
 * outdated shard is dropped on open and its notes indexed again by the sync. A worker that cannot
 * start, or dies, costs one notice; the plugin then works on without search (never with an index
 * built on this thread instead) until the settings change or Obsidian restarts.
 */
import { TFile, type App, type CachedMetadata } from "obsidian";
import type { Embedder, Retriever, SearchIndex } from "../retrieval";
import type { Settings } from "../settings/schema";
import type { StateStore } from "../vault/state-store";
import type { WikiCatalog } from "../wiki/ingest-types";
import { effectiveWikiFolder } from "../wiki/page-paths";
import { linksFromCache } from "./cache-links";
import { embeddingKey } from "./index-embedding";
import { EmbeddingPass, type Schedule } from "./index-embedding-pass";
import { openAndSync } from "./index-open";
import { IndexStartError, type IndexWorkerFactory } from "./index-worker";
import { ObsidianVault } from "./obsidian-vault";

export interface IndexServiceOptions {
  readonly app: App;
  /** The plugin's state store; the index lives under its `index/` keys. */
  readonly store: StateStore;
  readonly settings: () => Settings;
  /** Starts the index's worker: the plugin's Web Worker (index-worker.ts), or the tests' own. */
  readonly worker: IndexWorkerFactory;
  /** Shows a status-bar line; "" hides it. */
  readonly status: (text: string) => void;
  /** Quiet time after the last change before the changed shards are written (default 2 s). */
  readonly flushDelayMs?: number;
  /** Quiet time after a vault event before the note is indexed, so typing is not indexed key by key (default 0.5 s). */
  readonly updateDelayMs?: number;
  /** Quiet time after a settings change before the index reopens for it (default 1.5 s); a search reopens it at once. */
  readonly reopenDelayMs?: number;
  /** Told when opening or a background update failed, or the worker was lost; the index is then simply not used. */
  readonly onError?: (error: unknown) => void;
  /**
   * Builds the embedder the settings choose; null (or absent) for text and links only. It may
   * throw a one-sentence error when the choice cannot work (no model, local-only mode).
   */
  readonly embedder?: (settings: Settings) => Promise<Embedder | null>;
  /** Tells the user why vector search is off, and when it is back on, or why there is no search at all (a notice in the plugin). */
  readonly notify?: (message: string) => void;
  /** Runs the retries of a failed embedding server later (default `window.setTimeout`; tests pass a fake clock). */
  readonly schedule?: Schedule;
  /**
   * Settles once a run a crash interrupted is rolled back. The index reads no note before: it
   * would index (and a question would cite) the pages of the half-written run.
   */
  readonly recovered?: () => Promise<void>;
}

/** One opening of the index, for one set of settings; a settings change starts the next one. */
interface Session {
  readonly key: string;
  readonly controller: AbortController;
  opening: Promise<SearchIndex | null>;
  /** Set once the first sync is done: the index vault events and ingests use. */
  index: SearchIndex | null;
  /** The background embedding and its retries, once the index is open with an embedder. */
  embedding: EmbeddingPass | null;
  /** Set once the session ends: its index's worker going after `close` is no loss. */
  closing: boolean;
}

/** What an ingest takes from the index. */
export interface IngestIndex {
  readonly retriever: Retriever;
  readonly catalog: WikiCatalog;
}

const windowSchedule: Schedule = (ms, run) => {
  const id = window.setTimeout(run, ms);
  return () => window.clearTimeout(id);
};

export class IndexService {
  private session: Session | null = null;
  /** Paths changed since the last update, with the metadata cache Obsidian sent with the change. */
  private readonly pending = new Map<string, CachedMetadata | null>();
  private updateTimer: number | null = null;
  private flushTimer: number | null = null;
  private reopenTimer: number | null = null;
  private updating: Promise<void> = Promise.resolve();
  /** The shard writes in progress, one after another. */
  private writing: Promise<void> = Promise.resolve();
  private disposed = false;
  private readonly vault: ObsidianVault;

  constructor(private readonly options: IndexServiceOptions) {
    this.vault = new ObsidianVault(options.app);
  }

  /** Starts opening and syncing in the background (call from `onLayoutReady`). */
  start(): void {
    this.sessionForSettings();
  }

  /** The open index, when its first sync is done; null before, while it reopens, and once disposed (its worker goes). */
  private get index(): SearchIndex | null {
    return this.disposed ? null : (this.session?.index ?? null);
  }

  /**
   * The index once it is open and in step with the vault, for the settings in force; null when it
   * could not be opened. When the settings that shape the index changed, the index opened for the
   * old ones is cancelled (its sync stops at its next batch) and closed before the new one opens.
   */
  async ready(): Promise<SearchIndex | null> {
    for (;;) {
      const session = this.sessionForSettings();
      if (!session) return null;
      const index = await session.opening;
      // Superseded by another settings change while it opened: wait for the newest instead.
      if (this.session === session || this.disposed) return this.disposed ? null : index;
    }
  }

  /** The session for the settings in force, starting it (and cancelling the previous one) when they changed. */
  private sessionForSettings(): Session | null {
    if (this.disposed) return null;
    const key = this.settingsKey();
    if (this.session?.key === key) return this.session;
    const previous = this.session;
    previous?.controller.abort(new Error("The search index is reopened for new settings."));
    const session: Session = { key, controller: new AbortController(), opening: Promise.resolve(null), index: null, embedding: null, closing: false };
    this.session = session;
    // Never awaits a later session (a later one awaits this one): only the previous is awaited.
    session.opening = (async () => {
      if (previous) await this.close(previous);
      await this.options.recovered?.();
      if (session.controller.signal.aborted) return null;
      try {
        return await this.open(session);
      } catch (error) {
        this.options.status("");
        if (session.controller.signal.aborted) return null;
        // The user is told once why there is no search; any other failure goes to the console only, as before.
        if (error instanceof IndexStartError) this.tell(session, error.message);
        this.options.onError?.(error);
        return null;
      }
    })();
    return session;
  }

  /** Reopens the index now when the settings that shape it changed (call on every settings change). */
  settingsChanged(): void {
    if (this.reopenTimer !== null) window.clearTimeout(this.reopenTimer);
    // After a quiet time: typing a model name in the settings does not reopen the index per key.
    this.reopenTimer = window.setTimeout(() => {
      this.reopenTimer = null;
      if (this.session && this.session.key !== this.settingsKey()) this.sessionForSettings();
    }, this.options.reopenDelayMs ?? 1500);
  }

  /** Waits for a cancelled session to stop: its sync, its embedding and the update using it; then writes what it changed. */
  private async close(session: Session): Promise<void> {
    session.closing = true;
    await session.opening.catch(() => null);
    session.embedding?.stop();
    await session.embedding?.idle();
    await this.updating;
    if (session.index) await this.write(session.index, true);
  }

  /** Retrieval and the wiki catalogue for one ingest; null when the index is unavailable. */
  async forIngest(): Promise<IngestIndex | null> {
    const index = await this.ready();
    if (!index) return null;
    await this.settle();
    return { retriever: index, catalog: index.catalog(this.vault, { changed: () => this.changedByRun() }) };
  }

  /** The index for a question ("Ask the wiki"): up to date with every change made so far. */
  async retriever(): Promise<Retriever> {
    const index = await this.ready();
    if (!index) throw new Error("The search index could not be opened; see the developer console.");
    await this.settle();
    return index;
  }

  /** Settles when no background embedding pass is running (tests wait on it). */
  async embedded(): Promise<void> {
    await this.ready();
    await this.settle();
    await this.session?.embedding?.idle();
  }

  /**
   * Applies the changes still waiting for their quiet time, so a run sees the vault as it is, and
   * has the worker merge the segments the run's first search would otherwise merge first.
   */
  private async settle(): Promise<void> {
    if (this.updateTimer !== null && this.index) {
      window.clearTimeout(this.updateTimer);
      this.updateTimer = null;
      this.updating = this.updating.then(() => this.applyPending()).catch((error: unknown) => this.options.onError?.(error));
    }
    await this.updating;
    // A segment edited much since it last merged would be merged by the search: ahead of it now.
    await this.index?.compact();
  }

  private settingsKey(): string {
    const s = this.options.settings();
    return JSON.stringify([effectiveWikiFolder(s.wikiFolder), s.excludedFolders, embeddingKey(s)]);
  }

  /** A notice about vectors, unless the session it concerns was replaced meanwhile. */
  private tell(session: Session, message: string): void {
    if (this.session === session && !this.disposed) this.options.notify?.(message);
  }

  private async open(session: Session): Promise<SearchIndex> {
    const { signal } = session.controller;
    const index = await openAndSync({
      app: this.options.app,
      vault: this.vault,
      store: this.options.store,
      settings: this.options.settings(),
      signal,
      worker: this.options.worker,
      lost: (error) => this.lost(session, error),
      status: this.options.status,
      ...(this.options.embedder ? { embedder: this.options.embedder } : {}),
      tell: (message) => this.tell(session, message),
    });
    session.index = index;
    // Changes made while the sync ran are applied now (most are already in: their text hashes match).
    if (this.pending.size > 0) this.scheduleUpdate(0);
    if (index.vectors) {
      session.embedding = new EmbeddingPass({
        index,
        vectors: index.vectors,
        signal,
        status: this.options.status,
        changed: () => this.scheduleFlush(),
        notify: (message) => this.tell(session, message),
        onError: (error) => this.options.onError?.(error),
        schedule: this.options.schedule ?? windowSchedule,
      });
      session.embedding.request();
    }
    return index;
  }

  /**
   * The session's worker died, or sent what cannot be read: its index answers nothing more. The
   * user is told once, and the plugin goes on without search, as when the index cannot open.
   */
  private lost(session: Session, error: Error): void {
    if (this.session !== session || session.closing || this.disposed || !session.index) return;
    session.index = null;
    session.opening = Promise.resolve(null);
    session.embedding?.stop();
    this.options.status("");
    this.tell(session, error.message);
    this.options.onError?.(error);
  }

  /** An ingest or a lint fix wrote pages and indexed them: write the shards soon, embed them. */
  private changedByRun(): void {
    this.scheduleFlush();
    this.session?.embedding?.request();
  }

  /** A note was created or modified (vault event), or Obsidian parsed it (metadata cache event). */
  changed(file: unknown, cache?: CachedMetadata): void {
    if (!(file instanceof TFile) || file.extension.toLowerCase() !== "md") return;
    this.pending.set(file.path, cache ?? this.pending.get(file.path) ?? null);
    this.scheduleUpdate(this.options.updateDelayMs ?? 500);
  }

  deleted(file: unknown): void {
    if (!(file instanceof TFile)) return;
    this.left(file.path);
  }

  renamed(file: unknown, oldPath: string): void {
    if (!(file instanceof TFile)) return;
    this.left(oldPath);
    // A note moved into (or out of) an excluded folder is dropped (or indexed) by the update.
    this.changed(file);
  }

  /**
   * No note is at `path` any more. With the index open, it leaves the index now; while the index
   * opens or syncs (or reopens), the path waits with the other changes and the update after the
   * sync finds it gone: the sync may have read the note just before it went, or loaded it from a
   * shard, and nothing else would drop it before the next start.
   */
  private left(path: string): void {
    const index = this.index;
    if (!index) {
      this.pending.set(path, null);
      return;
    }
    this.pending.delete(path);
    // The note is out of the index before `apply` returns its promise.
    void index.apply([{ kind: "delete", path }]).then(
      ({ outcomes }) => {
        if (outcomes[0] === "changed") this.scheduleFlush();
      },
      // An index whose worker was lost has told the user so (onLost); the next one starts without the note.
      () => undefined,
    );
  }

  private scheduleUpdate(delay: number): void {
    if (this.disposed || !this.index) return;
    if (this.updateTimer !== null) window.clearTimeout(this.updateTimer);
    this.updateTimer = window.setTimeout(() => {
      this.updateTimer = null;
      this.updating = this.updating.then(() => this.applyPending()).catch((error: unknown) => this.options.onError?.(error));
    }, delay);
  }

  /** Indexes the pending notes one by one (each read here, indexed in the worker); stops when the index is reopened. */
  private async applyPending(): Promise<void> {
    const session = this.session;
    const index = session?.index;
    if (!session || !index) return;
    const batch = [...this.pending];
    this.pending.clear();
    let changed = false;
    for (const [path, cache] of batch) {
      // Reopened meanwhile: the new index's sync reads every note whose time or size changed.
      if (session.controller.signal.aborted) return;
      const file = this.options.app.vault.getFileByPath(path);
      if (!file) {
        const { outcomes } = await index.apply([{ kind: "delete", path }]);
        changed = outcomes[0] === "changed" || changed;
        continue;
      }
      const text = await this.options.app.vault.cachedRead(file).catch(() => null);
      if (text === null || session.controller.signal.aborted) continue;
      // Deleted or moved while it was read: its event has dropped it already, and its text must not come back.
      const inPlace = () => file.path === path && this.options.app.vault.getFileByPath(path) === file;
      const { outcomes } = await index.apply(
        // The links of this event's metadata cache; without one, the index asks the cache for them.
        [{ kind: "upsert", path, text, stat: { mtime: file.stat.mtime, size: file.stat.size }, links: cache && linksFromCache(cache) }],
        // Reopened, or the note changed, moved or went since it was read: its newer event deals with it.
        { stillCurrent: () => !session.controller.signal.aborted && !this.pending.has(path) && inPlace() },
      );
      const outcome = outcomes[0];
      // Written or removed meanwhile by something else (a run, a delete, a rename): read it again if it is still there.
      const still = outcome === "stale" ? this.options.app.vault.getFileByPath(path) : null;
      if (still) this.changed(still);
      changed = outcome === "changed" || outcome === "unchanged" || changed;
    }
    if (changed) {
      this.scheduleFlush();
      session.embedding?.request();
    }
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
    if (this.index) await this.write(this.index);
  }

  /**
   * Writes an index's changed shards (the worker encodes them, this thread writes the bytes it is
   * handed). One write at a time, each after the one before: a write that finds nothing left to do
   * must still not settle while an earlier one is writing, or `flush()` and `closed` would settle
   * before the shards are on disk. `closing`: the session ends, and its index with this write.
   */
  private write(index: SearchIndex, closing = false): Promise<void> {
    this.writing = this.writing.then<unknown>(() => (closing ? index.close() : index.flush())).then(
      () => undefined,
      (error: unknown) => this.options.onError?.(error),
    );
    return this.writing;
  }

  /** Settles once `dispose` has written what changed (tests wait on it; Obsidian's unload cannot). */
  closed: Promise<void> = Promise.resolve();

  /** On unload: no more timers, the running sync or embedding cancelled, and what changed is written. */
  dispose(): Promise<void> {
    this.disposed = true;
    if (this.updateTimer !== null) window.clearTimeout(this.updateTimer);
    if (this.flushTimer !== null) window.clearTimeout(this.flushTimer);
    if (this.reopenTimer !== null) window.clearTimeout(this.reopenTimer);
    this.options.status("");
    const session = this.session;
    session?.controller.abort(new Error("Obsidian unloads Synapse."));
    this.closed = session ? this.close(session) : Promise.resolve();
    return this.closed;
  }
}
