/**
 * The vault's search index: text (BM25 over chunks), graph (links, backlinks, tags) and, when an
 * embedding model is configured, vectors — kept up to date note by note and persisted in shards in
 * the vault's StateStore under `index/`. Obsidian-free: the plugin and the CLI both drive it.
 * Excluded folders are never indexed; a note moved into one is dropped at the next update.
 */
import { inFolders, isShareablePage } from "../core/perimeter";
import { indexPath, logPath } from "../core/wiki-paths";
import type { StateStore } from "../vault/state-store";
import type { VaultPort } from "../vault/vault-port";
import { DEFAULT_FUSION, type FusionParameters } from "./fusion";
import { GraphIndex, type LinkResolver } from "./graph-index";
import { flushIndex, type FlushResult } from "./index-flush";
import { fusedHits, searchCandidates, searchTextHits, type Candidates, type SearchSource } from "./index-search";
import { linkTargetOf, type LinkTarget } from "./link-target";
import { hostLinks, parseLinks, type HostLinks, type LinkExtractor } from "./links";
import type { Embedder } from "./embedder";
import { applyChanges, type ApplyOptions, type ApplyResult, type VaultChange } from "./index-apply";
import { indexCatalog, type CatalogOptions, type IndexCatalog } from "./catalog";
import type { IndexStats, SearchIndex } from "./search-index";
import { syncIndex, type SyncOptions, type SyncResult } from "./sync";
import type { FrontmatterReader, NoteFrontmatter } from "./note-frontmatter";
import { prepareNote, type CommitOutcome, type PreparedNote } from "./note-preparation";
import { packLinks, sameLinks, type PackedLinks } from "./packed-links";
import { EditLog } from "./edit-log";
import { checkLimit, checkQuery, scopeFilter } from "./scope";
import { eachShard, shardOf, type StoredNote } from "./shards";
import { TargetKeyMemo } from "./target-key-memo";
import { TextIndex, type TextHit } from "./text-index";
import type { RetrievalHit, Retriever, RetrieveOptions, Scope } from "./types";
import { VectorBackend, type Admission, type EmbedOptions, type EmbedResult } from "./vector-backend";

export interface VaultIndexOptions {
  readonly store: StateStore;
  /** Reads a note's current text, for snippets and chunk text (a VaultPort will do). */
  readonly reader: { read(path: string): Promise<string> };
  readonly wikiFolder: string;
  readonly excludedFolders: readonly string[];
  /**
   * The "Largest note" setting in bytes: a note over it is never sent to the embedding model, as
   * ingest never sends it to a model. Absent: no limit.
   */
  readonly maxNoteBytes?: number;
  /** Where links come from (default: the markdown parser). */
  readonly links?: LinkExtractor;
  /**
   * How a note's frontmatter values are read from its text: chunker.ts `readFrontmatter` (the
   * `yaml` package) in process, the values the main thread sent in the index's worker. No default:
   * the index itself bundles no YAML parser, so that its worker does not.
   */
  readonly frontmatter: FrontmatterReader;
  /** How link targets resolve (default: by path, then by file name, as Obsidian does). */
  readonly resolver?: LinkResolver;
  /** Where chunk vectors come from; absent or null, the index answers from text and graph alone. */
  readonly embedder?: Embedder | null;
  /**
   * The embedding model the settings choose (its `modelId`), or null when they choose none: its
   * vectors are kept on disk when `embedder` is another one (`--embed-model`). Absent: the
   * embedder's own, right when the embedder comes from the settings.
   */
  readonly configuredEmbeddingModel?: string | null;
}

export interface NoteState {
  readonly mtime: number;
  readonly size: number;
  readonly hash: string;
}

export type { LinkTarget };

const NO_LINKS: PackedLinks = packLinks({ links: [], embeds: [], tags: [], sources: [] });

const NO_EMBEDDINGS: EmbedResult = Object.freeze({ notes: 0, embedded: 0, reused: 0, error: null });

export class VaultIndex implements Retriever, SearchIndex {
  readonly text = new TextIndex();
  readonly graph: GraphIndex;
  private readonly notes = new Map<string, NoteState>();
  private readonly dirty = new Set<number>();
  private readonly extract: LinkExtractor;
  /** The vector backend, when an embedder is configured. */
  readonly vectors: VectorBackend | null;
  private readonly inWiki: (path: string) => boolean;
  private readonly inExcludedFolder: (path: string) => boolean;
  /** index.md and log.md: Synapse's bookkeeping, never a search result nor a model's context. */
  private readonly bookkeeping: ReadonlySet<string>;
  private wikiNotes = 0;
  /** Shards found corrupt or of an older format when the index was opened. */
  rejectedShards = 0;
  private readonly edits = new EditLog();
  private readonly searchSource: SearchSource;

  private constructor(private readonly options: VaultIndexOptions) {
    // The graph's edges lead to indexed notes only: a link Obsidian resolves into an excluded folder
    // (or to an attachment) is no neighbour, so traversal and graph expansion never name it.
    const outer = options.resolver;
    this.graph = new GraphIndex(outer ? { resolve: (target, from) => this.indexedOrNull(outer.resolve(target, from)) } : null);
    this.extract = options.links ?? parseLinks;
    this.vectors = options.embedder ? new VectorBackend(options.embedder, options.configuredEmbeddingModel === undefined ? options.embedder.modelId : options.configuredEmbeddingModel) : null;
    this.inWiki = scopeFilter({ kind: "wiki" }, options.wikiFolder);
    this.inExcludedFolder = inFolders(options.excludedFolders);
    this.bookkeeping = new Set([indexPath(options.wikiFolder), logPath(options.wikiFolder)]);
    this.searchSource = { text: this.text, vectors: this.vectors, reader: options.reader, hashOf: (path) => this.notes.get(path)?.hash, neighbourPaths: (path) => this.neighbourPaths(path) };
  }

  /** Loads the persisted shards; a missing, outdated or corrupt shard just leaves its notes to the next sync. */
  static async open(options: VaultIndexOptions): Promise<VaultIndex> {
    const index = new VaultIndex(options);
    // One memo of target name keys for the whole load: most targets recur across notes and shards.
    const keys = new TargetKeyMemo();
    // Each shard is registered as soon as it is decoded, so what the index does not keep of it dies
    // young instead of being copied by every collection of the load.
    const loaded = await eachShard(options.store, (stored) => {
      index.text.loadSegment(stored.shard, stored.notes, stored.frozen);
      for (const note of stored.notes) {
        index.register(note.path, note, note.links, keys);
        // A folder excluded since the shard was written: its notes leave the index (and the shard).
        if (index.excluded(note.path)) index.remove(note.path);
      }
    });
    index.rejectedShards = loaded.rejected;
    await index.vectors?.load(options.store, (path) => index.notes.get(path)?.hash, index.notes.keys());
    return index;
  }

  get size(): number {
    return this.notes.size;
  }

  /** Indexed pages in the wiki folder, counted as they come and go. */
  get wikiSize(): number {
    return this.wikiNotes;
  }

  paths(): string[] {
    return this.unsortedPaths().sort();
  }

  /** The indexed paths in no particular order: without the sort, which at 50,000 notes takes tens of milliseconds. */
  unsortedPaths(): string[] {
    return [...this.notes.keys()];
  }

  /**
   * The vault's notes the index knows exist but never indexes (excluded folders, index.md,
   * log.md) as the last sync listed them, and those seen since: a link to one is not dangling.
   */
  unindexedPaths(): IterableIterator<string> {
    return this.graph.otherPaths();
  }

  /** Whether `path` is one of `unindexedPaths`. */
  isUnindexed(path: string): boolean {
    return this.graph.isOther(path);
  }

  stateOf(path: string): NoteState | undefined {
    return this.notes.get(path);
  }

  /** Indexed notes and pages whose file name (without `.md`) is `basename`, compared as Obsidian compares names. */
  pathsNamed(basename: string): readonly string[] {
    return this.graph.notesNamed(basename);
  }

  /** Never indexed: excluded folders, and the wiki's index.md and log.md. */
  excluded(path: string): boolean {
    return this.inExcludedFolder(path) || this.bookkeeping.has(path);
  }

  /** Indexes a note's text (or drops it when it lies in an excluded folder); says whether anything changed. */
  upsert(path: string, markdown: string, stat: { readonly mtime: number; readonly size: number }): boolean {
    return this.commit(this.prepare(path, markdown, stat)) === "changed";
  }

  /**
   * The first half of `upsert`, whose result `commit` writes: the note is hashed, chunked and its
   * links extracted in this call (the plugin's extractor reads the metadata cache the change
   * brought, `links`, else the extractor's).
   */
  prepare(path: string, markdown: string, stat: { readonly mtime: number; readonly size: number }, links?: HostLinks | null, known?: NoteFrontmatter | null): PreparedNote {
    const extract = links ? hostLinks(() => links) : this.extract;
    const frontmatter = known ? () => known : this.options.frontmatter;
    return prepareNote(path, markdown, stat, { stamp: this.edits.stamp(), excluded: this.excluded(path), indexedHash: this.notes.get(path)?.hash, extract, frontmatter });
  }

  /** Writes a prepared note into the index, unless it was written or removed since its preparation began. */
  commit(note: PreparedNote): CommitOutcome {
    const { path, stat, hash, change } = note;
    if (this.edits.since(path, note.stamp)) return "stale";
    if (change === "excluded") {
      const removed = this.remove(path);
      this.sawUnindexed([path]);
      return removed ? "changed" : "unchanged";
    }
    this.dirty.add(shardOf(path));
    if (change.kind === "same") {
      const held = this.graph.packedLinksOf(path);
      if (held !== undefined && sameLinks(held, change.links)) {
        this.notes.set(path, { mtime: stat.mtime, size: stat.size, hash });
        return "unchanged";
      }
      // The text as indexed, the links not: they came from another version of the note (SameText).
      this.edits.edited(path);
      this.register(path, { mtime: stat.mtime, size: stat.size, hash }, change.links);
      return "changed";
    }
    this.edits.edited(path);
    this.vectors?.changed(path);
    this.register(path, { mtime: stat.mtime, size: stat.size, hash }, change.links);
    this.text.write(path, change.write);
    return "changed";
  }

  remove(path: string): boolean {
    this.edits.edited(path);
    this.graph.forgetOther(path);
    if (!this.notes.has(path)) return false;
    this.notes.delete(path);
    if (this.inWiki(path)) this.wikiNotes -= 1;
    this.text.remove(path);
    this.graph.remove(path);
    this.vectors?.remove(path);
    this.dirty.add(shardOf(path));
    return true;
  }

  /**
   * The vault's notes that are never indexed, as a sync listed them (replacing what it knew), so
   * that a link to one of them is known to lead somewhere without the note being indexed.
   */
  setUnindexed(paths: readonly string[]): void {
    this.graph.setOthers(paths.filter((path) => this.excluded(path)));
  }

  private sawUnindexed(paths: readonly string[]): void {
    for (const path of paths) if (this.excluded(path)) this.graph.addOther(path);
  }

  private indexedOrNull(path: string | null): string | null {
    return path !== null && this.notes.has(path) ? path : null;
  }

  /**
   * Where a wikilink written in `from` leads: an indexed note, a note that exists but is excluded,
   * another file, or nowhere. Lint and ingest call a link dangling only when it is "missing".
   * The plugin answers with Obsidian's resolver; the CLI with the index's own
   * (link-resolution.ts), over the indexed notes and the excluded ones the last sync listed.
   */
  linkTarget(target: string, from: string): LinkTarget {
    return linkTargetOf(target, from, { resolver: this.options.resolver, graph: this.graph, indexed: (path) => this.notes.has(path), excluded: (path) => this.excluded(path) });
  }

  /**
   * Everything about a note but its text postings: state, name, wiki count, links. `keys`: a memo
   * of target name keys shared by a whole load of shards.
   */
  private register(path: string, state: NoteState, links: PackedLinks, keys: TargetKeyMemo | null = null): void {
    if (!this.notes.has(path) && this.inWiki(path)) this.wikiNotes += 1;
    this.notes.set(path, { mtime: state.mtime, size: state.size, hash: state.hash });
    this.graph.set(path, links, keys);
  }

  /**
   * Embeds the chunks of new and changed notes (and of indexed notes without vectors) that the
   * cache does not hold, leaving out pages drawn from excluded notes. Without an embedder, or after
   * the embedder failed this session, does nothing.
   */
  async embedPending(options: EmbedOptions = {}): Promise<EmbedResult> {
    if (!this.vectors) return NO_EMBEDDINGS;
    // A page whose text would carry an excluded note's words to the embedding model is withheld.
    // A note over the size limit is withheld like one ingest refuses (binary ones are caught at the read).
    const admit = (path: string): Admission => {
      const state = this.notes.get(path);
      if (!state || this.excluded(path)) return "skip";
      if (this.options.maxNoteBytes !== undefined && state.size > this.options.maxNoteBytes) return "withhold";
      return this.shareable(path) ? "embed" : "withhold";
    };
    return this.vectors.embedNeeded(admit, this.options.reader, options);
  }

  /**
   * May this note's text go to the embedding model? Not a page drawn from a note in an excluded
   * folder (its frontmatter `sources`): it carries that note's words, as the perimeter says.
   */
  private shareable(path: string): boolean {
    return isShareablePage(this.graph.linksOf(path)?.sources ?? [], this.options.excludedFolders);
  }

  /** Writes the text and vector shards that changed since the last flush. */
  flush(): Promise<FlushResult> {
    return flushIndex({
      store: this.options.store,
      text: this.text,
      vectors: this.vectors,
      paths: () => this.notes.keys(),
      takeDirty: () => {
        const shards = [...this.dirty];
        this.dirty.clear();
        return shards;
      },
      stored: (path, chunks) => this.stored(path, chunks),
    });
  }

  private stored(path: string, chunkCount: number): StoredNote {
    const state = this.notes.get(path) as NoteState;
    return { path, ...state, chunkCount, links: this.graph.packedLinksOf(path) ?? NO_LINKS };
  }

  apply(changes: readonly VaultChange[], options: ApplyOptions = {}): Promise<ApplyResult> {
    return applyChanges(this, changes, options);
  }

  sync(vault: VaultPort, options: SyncOptions = {}): Promise<SyncResult> {
    return syncIndex(this, vault, options);
  }

  /** Merges ahead the segments a search would merge first (after many edits or removals). */
  compact(): Promise<void> {
    this.text.compact();
    return Promise.resolve();
  }

  /** In process, closing is the last flush: the index holds nothing else to let go of. */
  close(): Promise<unknown> {
    return this.flush();
  }

  stats(): IndexStats {
    const vectors = this.vectors;
    return {
      notes: this.notes.size,
      chunks: this.text.chunkCount,
      rejectedShards: this.rejectedShards,
      vectors: vectors && { notes: vectors.index.noteCount, rejectedShards: vectors.rejectedShards, error: vectors.error },
    };
  }

  catalog(vault: Pick<VaultPort, "stat" | "read">, options: CatalogOptions = {}): IndexCatalog {
    return indexCatalog(this, vault, options);
  }

  /** Text hits alone (BM25): the best notes, each as its best chunk, best first. */
  searchText(query: string, options: { readonly scope: Scope; readonly limit: number }): readonly TextHit[] {
    checkQuery(query);
    checkLimit(options.limit);
    return searchTextHits(this.searchSource, query, options.limit, this.accept(options.scope));
  }

  private accept(scope: Scope): (path: string) => boolean {
    const inScope = scopeFilter(scope, this.options.wikiFolder);
    return (path) => inScope(path) && !this.excluded(path);
  }

  /**
   * The text and vector rankings `retrieve` fuses, each of notes (as their best chunk) and deep
   * enough (3 × limit notes, at least 30) for fusion and graph expansion to reorder them. Public for the retrieval-quality benchmark, which
   * fuses the same candidates under every configuration it compares.
   */
  async candidates(query: string, options: RetrieveOptions): Promise<Candidates> {
    checkQuery(query);
    checkLimit(options.limit);
    return searchCandidates(this.searchSource, query, options, this.accept(options.scope));
  }

  /** A note's graph neighbours (links, embeds, sources, backlinks), as graph expansion follows them. */
  neighbourPaths(path: string): readonly string[] {
    return this.graph.neighbours(path).map((n) => n.path);
  }

  /**
   * Fused text, vector and graph results. `fusion` is for measurement (the benchmark compares
   * settings); everything else uses the measured defaults.
   */
  async retrieve(query: string, options: RetrieveOptions, fusion: FusionParameters = DEFAULT_FUSION): Promise<readonly RetrievalHit[]> {
    return fusedHits(this.searchSource, await this.candidates(query, options), options, fusion);
  }
}
