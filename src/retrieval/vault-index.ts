/**
 * The vault's search index: text (BM25 over chunks), graph (links, backlinks, tags) and, when an
 * embedding model is configured, vectors — kept up to date note by note and persisted in shards in
 * the vault's StateStore under `index/`. Obsidian-free: the plugin and the CLI both drive it.
 * Excluded folders are never indexed; a note moved into one is dropped at the next update.
 */
import { isExcluded, isShareablePage } from "../core/perimeter";
import { nameKey } from "../core/unicode";
import { contentHash } from "../wiki/content-hash";
import { indexPath, logPath } from "../wiki/index-log";
import type { StateStore } from "../vault/state-store";
import { parseNote } from "./chunker";
import { DEFAULT_FUSION, fuse, type FusionParameters } from "./fusion";
import { GraphIndex, type LinkResolver } from "./graph-index";
import { parseLinks, type LinkExtractor, type NoteLinks } from "./links";
import type { Embedder } from "./embedder";
import { writeNoteTerms } from "./note-terms";
import { countNoteTerms, EditLog, replay } from "./prepared-note";
import { checkLimit, checkQuery, scopeFilter } from "./scope";
import { encodeShardPieces, loadShards, shardKey, shardOf, type StoredNote } from "./shards";
import { runPieces, runPiecesSliced, type Pieces } from "./time-slice";
import { makeSnippet } from "./snippet";
import { TextIndex, type ChunkWriter, type TextHit } from "./text-index";
import { queryTerms } from "./compound-grams";
import { tokenize } from "./tokenize";
import type { RetrievalHit, Retriever, RetrieveOptions, Scope } from "./types";
import { VectorBackend, type EmbedOptions, type EmbedResult } from "./vector-backend";
import type { VectorHit } from "./vector-index";

export interface VaultIndexOptions {
  readonly store: StateStore;
  /** Reads a note's current text, for snippets and chunk text (a VaultPort will do). */
  readonly reader: { read(path: string): Promise<string> };
  readonly wikiFolder: string;
  readonly excludedFolders: readonly string[];
  /** Where links come from (default: the markdown parser). */
  readonly links?: LinkExtractor;
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
  /**
   * Called between the pieces of each persisted shard's decoding and before it is loaded into
   * memory; on Obsidian's main thread it yields when the time slice is spent
   * (src/retrieval/time-slice.ts), so a warm start never freezes it.
   */
  readonly checkpoint?: () => Promise<unknown>;
}

export interface NoteState {
  readonly mtime: number;
  readonly size: number;
  readonly hash: string;
}

/**
 * Where a link leads, as the index sees it. Only "missing" is a dangling link: a note in an
 * excluded folder exists (the user can open it), it is just never indexed, embedded or returned.
 */
export type LinkTarget =
  /** A note the index holds. */
  | { readonly kind: "indexed"; readonly path: string }
  /** A note that exists but is never indexed: in an excluded folder, or the wiki's index.md or log.md. */
  | { readonly kind: "excluded"; readonly path: string }
  /** A file that exists but is no note of the index (an image, a PDF, a canvas): Obsidian's resolver sees these. */
  | { readonly kind: "file"; readonly path: string }
  | { readonly kind: "missing" };

const MISSING: LinkTarget = Object.freeze({ kind: "missing" });

export interface FlushResult {
  readonly shardsWritten: number;
  readonly bytesWritten: number;
}

/**
 * A note made ready for the index by `prepare` (chunked, links extracted, terms counted), which
 * `commit` writes in one short step — unless the note was written or removed meanwhile.
 */
export interface PreparedNote {
  readonly path: string;
  readonly stat: { readonly mtime: number; readonly size: number };
  readonly hash: string;
  /** The count of edits when preparation began: an edit of this note since makes it stale. */
  readonly stamp: number;
  /** What the commit does: drop the note (excluded), record its new time (same text), or write it. */
  readonly change: "excluded" | "same" | { readonly links: NoteLinks; readonly write: (writer: ChunkWriter) => void };
}

/** What a commit did: wrote the note, found nothing to write, or refused a stale preparation. */
export type CommitOutcome = "changed" | "unchanged" | "stale";

/**
 * Notes up to this long are tokenised straight into the index when committed (a few milliseconds
 * at most, less than counting their terms first would cost); longer ones are counted in pieces.
 */
export const ONE_STEP_CHARS = 32 * 1024;
// eslint-disable-next-line require-yield -- a preparation done at once is a single piece: nothing to yield between
function* prepared<T>(value: T): Pieces<T> {
  return value;
}

const NO_EMBEDDINGS: EmbedResult = Object.freeze({ notes: 0, embedded: 0, reused: 0, error: null });

/** Notes registered between two checkpoints when a shard is loaded. */
const REGISTER_PIECE = 32;

/** What a retrieval fuses: each backend's ranking of notes, before fusion and graph expansion. */
export interface Candidates {
  readonly terms: readonly string[];
  /** The best chunk of each note, best first. */
  readonly text: readonly TextHit[];
  /** The best chunk of each note by cosine, best first (empty without vectors). */
  readonly vector: readonly VectorHit[];
  /** Each list holds every match, not only the best `depth` (fusion scales scores by it). */
  readonly textComplete: boolean;
  readonly vectorComplete: boolean;
  /** The scope's filter, excluded folders included. */
  readonly accept: (path: string) => boolean;
}

export class VaultIndex implements Retriever {
  readonly text = new TextIndex();
  readonly graph: GraphIndex;
  private readonly notes = new Map<string, NoteState>();
  /** Indexed paths by the key of their file name, so "is there a note called X" costs one lookup. */
  private readonly byName = new Map<string, Set<string>>();
  private readonly dirty = new Set<number>();
  private readonly extract: LinkExtractor;
  /** The vector backend, when an embedder is configured. */
  readonly vectors: VectorBackend | null;
  private readonly inWiki: (path: string) => boolean;
  /** index.md and log.md: Synapse's bookkeeping, never a search result nor a model's context. */
  private readonly bookkeeping: ReadonlySet<string>;
  private wikiNotes = 0;
  /** Shards found corrupt or of an older format when the index was opened. */
  rejectedShards = 0;
  private readonly edits = new EditLog();

  private constructor(private readonly options: VaultIndexOptions) {
    // The graph's edges lead to indexed notes only: a link Obsidian resolves into an excluded folder
    // (or to an attachment) is no neighbour, so traversal and graph expansion never name it.
    const outer = options.resolver;
    this.graph = new GraphIndex(outer ? { resolve: (target, from) => this.indexedOrNull(outer.resolve(target, from)) } : null);
    this.extract = options.links ?? parseLinks;
    this.vectors = options.embedder ? new VectorBackend(options.embedder, options.configuredEmbeddingModel === undefined ? options.embedder.modelId : options.configuredEmbeddingModel) : null;
    this.inWiki = scopeFilter({ kind: "wiki" }, options.wikiFolder);
    this.bookkeeping = new Set([indexPath(options.wikiFolder), logPath(options.wikiFolder)]);
  }

  /** Loads the persisted shards; a missing, outdated or corrupt shard just leaves its notes to the next sync. */
  static async open(options: VaultIndexOptions): Promise<VaultIndex> {
    const index = new VaultIndex(options);
    const loaded = await loadShards(options.store, options.checkpoint);
    index.rejectedShards = loaded.rejected;
    for (const stored of loaded.shards) {
      await options.checkpoint?.();
      index.text.loadSegment(stored.shard, stored.notes, stored.frozen);
      // Registering a note's links costs tens of µs (name keys of every target): a 50,000-note
      // shard's ~200 notes are registered in pieces, with a checkpoint between them.
      for (let i = 0; i < stored.notes.length; i++) {
        if (i > 0 && i % REGISTER_PIECE === 0) await options.checkpoint?.();
        const note = stored.notes[i] as StoredNote;
        index.register(note.path, note, note.links);
      }
      // A folder excluded since the shard was written: its notes leave the index (and the shard).
      for (const note of stored.notes) if (index.excluded(note.path)) index.remove(note.path);
    }
    await index.vectors?.load(options.store, (path) => index.notes.get(path)?.hash, options.checkpoint);
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

  stateOf(path: string): NoteState | undefined {
    return this.notes.get(path);
  }

  /** Indexed notes and pages whose file name (without `.md`) is `basename`, compared as Obsidian compares names. */
  pathsNamed(basename: string): readonly string[] {
    return [...(this.byName.get(nameKey(basename)) ?? [])].sort();
  }

  /** Never indexed: excluded folders, and the wiki's index.md and log.md. */
  excluded(path: string): boolean {
    return isExcluded(path, this.options.excludedFolders) || this.bookkeeping.has(path);
  }

  /** Indexes a note's text (or drops it when it lies in an excluded folder); says whether anything changed. */
  upsert(path: string, markdown: string, stat: { readonly mtime: number; readonly size: number }): boolean {
    return this.commit(runPieces(this.prepare(path, markdown, stat))) === "changed";
  }

  /**
   * `upsert` for Obsidian's main thread: a large note's terms are counted in pieces with
   * `checkpoint` between them (it yields when the time slice is spent), then written in one short
   * step. A note written or removed meanwhile is left as that edit left it ("stale").
   */
  async upsertSliced(path: string, markdown: string, stat: { readonly mtime: number; readonly size: number }, checkpoint?: () => Promise<unknown>): Promise<CommitOutcome> {
    return this.commit(await runPiecesSliced(this.prepare(path, markdown, stat), checkpoint));
  }

  /**
   * The expensive part of `upsert`, as pieces whose result `commit` writes. The note is chunked
   * and its links extracted at once, before the first piece ends (the plugin's extractor reads
   * the metadata cache of the event being applied); the terms of a note longer than
   * ONE_STEP_CHARS are counted in pieces, a shorter one's are written by the commit.
   */
  prepare(path: string, markdown: string, stat: { readonly mtime: number; readonly size: number }): Pieces<PreparedNote> {
    const note = { path, stat: { mtime: stat.mtime, size: stat.size }, stamp: this.edits.stamp() };
    if (this.excluded(path)) return prepared({ ...note, hash: "", change: "excluded" });
    const hash = contentHash(markdown);
    if (this.notes.get(path)?.hash === hash) return prepared({ ...note, hash, change: "same" });
    const parsed = parseNote(path, markdown);
    const links = this.extract(path, markdown, parsed);
    if (markdown.length <= ONE_STEP_CHARS) return prepared({ ...note, hash, change: { links, write: (writer) => writeNoteTerms(markdown, parsed, writer) } });
    return (function* (): Pieces<PreparedNote> {
      const chunks = yield* countNoteTerms(markdown, parsed);
      return { ...note, hash, change: { links, write: (writer) => replay(chunks, writer) } };
    })();
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
    if (change === "same") {
      this.notes.set(path, { mtime: stat.mtime, size: stat.size, hash });
      return "unchanged";
    }
    this.edits.edited(path);
    this.vectors?.changed(path);
    this.register(path, { mtime: stat.mtime, size: stat.size, hash }, change.links);
    this.text.write(path, change.write);
    return "changed";
  }

  /**
   * Whether notes written since the last call made a segment ask for a merge. Code that writes on
   * Obsidian's main thread runs `mergePieces` then, with its checkpoint between the pieces; code that
   * does not lets the segment merge itself inside a later write, in one step.
   */
  get mergeWanted(): boolean {
    return this.text.mergeWanted;
  }

  mergePieces(): Pieces<void> {
    return this.text.mergePieces();
  }

  /**
   * Merges, in pieces, the segments a search would merge at once first (after many edits or
   * removals): the plugin runs it before handing the index to an ingest or a question.
   */
  searchMergePieces(): Pieces<void> {
    return this.text.searchMergePieces();
  }

  /** Records a new modification time for a note whose text did not change. */
  touch(path: string, stat: { readonly mtime: number; readonly size: number }): void {
    const known = this.notes.get(path);
    if (!known) return;
    this.notes.set(path, { ...known, mtime: stat.mtime, size: stat.size });
    this.dirty.add(shardOf(path));
  }

  remove(path: string): boolean {
    this.edits.edited(path);
    this.graph.forgetOther(path);
    if (!this.notes.has(path)) return false;
    this.notes.delete(path);
    this.forgetName(path);
    if (this.inWiki(path)) this.wikiNotes -= 1;
    this.text.remove(path);
    this.graph.remove(path);
    this.vectors?.remove(path);
    this.dirty.add(shardOf(path));
    return true;
  }

  /**
   * A note moved or renamed. Its file name is part of its title, which weighs in every chunk, so it
   * is indexed again from its text rather than carried over.
   */
  rename(from: string, to: string, markdown: string, stat: { readonly mtime: number; readonly size: number }): void {
    // A note that was not indexed (it lay in an excluded folder) is new to the index where it lands.
    if (this.notes.has(from)) this.remove(from);
    this.upsert(to, markdown, stat);
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
    const outer = this.options.resolver;
    if (outer) {
      const path = outer.resolve(target, from);
      if (path === null) return MISSING;
      if (this.notes.has(path)) return Object.freeze({ kind: "indexed", path });
      return Object.freeze({ kind: this.excluded(path) ? "excluded" : "file", path });
    }
    const path = this.graph.locate(target, from);
    if (path === null) return MISSING;
    return Object.freeze({ kind: this.notes.has(path) ? "indexed" : "excluded", path });
  }

  private nameOf(path: string): string {
    return nameKey(path.slice(path.lastIndexOf("/") + 1).replace(/\.md$/i, ""));
  }

  private forgetName(path: string): void {
    const key = this.nameOf(path);
    const paths = this.byName.get(key);
    paths?.delete(path);
    if (paths?.size === 0) this.byName.delete(key);
  }

  /** Everything about a note but its text postings: state, name, wiki count, links. */
  private register(path: string, state: NoteState, links: NoteLinks): void {
    if (!this.notes.has(path) && this.inWiki(path)) this.wikiNotes += 1;
    this.notes.set(path, { mtime: state.mtime, size: state.size, hash: state.hash });
    const key = this.nameOf(path);
    this.byName.set(key, (this.byName.get(key) ?? new Set()).add(path));
    this.graph.set(path, links);
  }

  /**
   * Embeds the chunks of new and changed notes (and of indexed notes without vectors) that the
   * cache does not hold, leaving out pages drawn from excluded notes. Without an embedder, or after
   * the embedder failed this session, does nothing.
   */
  async embedPending(options: EmbedOptions = {}): Promise<EmbedResult> {
    if (!this.vectors) return NO_EMBEDDINGS;
    const paths: string[] = [];
    for (const path of this.vectors.needing(this.notes.keys())) {
      if (!this.notes.has(path) || this.excluded(path)) continue;
      if (this.shareable(path)) paths.push(path);
      else this.vectors.remove(path); // its text would reach the embedding model
    }
    return this.vectors.embedPending(paths, this.options.reader, options);
  }

  /**
   * May this note's text go to the embedding model? Not a page drawn from a note in an excluded
   * folder (its frontmatter `sources`): it carries that note's words, as the perimeter says.
   */
  private shareable(path: string): boolean {
    return isShareablePage(this.graph.linksOf(path)?.sources ?? [], this.options.excludedFolders);
  }

  /**
   * Writes the text and vector shards that changed since the last flush. `checkpoint` runs before
   * each shard and between the pieces of its encoding (the plugin yields there when the slice is spent).
   */
  async flush(options: { readonly checkpoint?: () => Promise<unknown> } = {}): Promise<FlushResult> {
    const { checkpoint } = options;
    let members: Map<number, string[]> | null = null;
    const membersOf = (shard: number): string[] => {
      if (!members) {
        members = new Map();
        for (const path of this.notes.keys()) {
          const s = shardOf(path);
          const list = members.get(s);
          if (list) list.push(path);
          else members.set(s, [path]);
        }
      }
      return members.get(shard) ?? [];
    };
    const vectors = this.vectors ? await this.vectors.flush(this.options.store, membersOf, checkpoint) : { shardsWritten: 0, bytesWritten: 0 };
    const shards = [...this.dirty].sort((a, b) => a - b);
    this.dirty.clear();
    if (shards.length === 0) return vectors;
    let bytes = vectors.bytesWritten;
    for (const shard of shards) {
      await checkpoint?.();
      // The segment's delta merges into its base in pieces; `segment` then finds nothing left to merge.
      await runPiecesSliced(this.text.settlePieces(shard), checkpoint);
      const segment = this.text.segment(shard);
      if (segment.notes.length === 0) {
        await this.options.store.remove(shardKey(shard));
        continue;
      }
      // The notes are read now, before any yield: encoding copies them in its first piece.
      const encoded = await runPiecesSliced(
        encodeShardPieces(
          segment.notes.map(([path, chunks]) => this.stored(path, chunks)),
          segment.frozen,
        ),
        checkpoint,
      );
      bytes += encoded.byteLength;
      await this.options.store.write(shardKey(shard), encoded);
    }
    return { shardsWritten: shards.length + vectors.shardsWritten, bytesWritten: bytes };
  }

  private stored(path: string, chunks: StoredNote["chunks"]): StoredNote {
    const state = this.notes.get(path) as NoteState;
    const links: NoteLinks = this.graph.linksOf(path) ?? { links: [], embeds: [], tags: [], sources: [] };
    return { path, ...state, chunks, links };
  }

  /** Text hits alone (BM25), best chunk first. */
  searchText(query: string, options: { readonly scope: Scope; readonly limit: number }): readonly TextHit[] {
    checkQuery(query);
    checkLimit(options.limit);
    const accept = this.accept(options.scope);
    return Object.freeze(this.text.search(queryTerms(query, tokenize(query)), options.limit, accept).map((h) => Object.freeze(h)));
  }

  private accept(scope: Scope): (path: string) => boolean {
    const inScope = scopeFilter(scope, this.options.wikiFolder);
    return (path) => inScope(path) && !this.excluded(path);
  }

  /**
   * The text and vector rankings `retrieve` fuses, each deep enough (3 × limit, at least 30) for
   * fusion and graph expansion to reorder them. Public for the retrieval-quality benchmark, which
   * fuses the same candidates under every configuration it compares.
   */
  async candidates(query: string, options: RetrieveOptions): Promise<Candidates> {
    checkQuery(query);
    checkLimit(options.limit);
    const accept = this.accept(options.scope);
    const terms = queryTerms(query, tokenize(query));
    const depth = Math.max(options.limit * 3, 30);
    const text: TextHit[] = [];
    const seen = new Set<string>();
    const chunks = this.text.search(terms, depth, accept);
    for (const hit of chunks) {
      if (seen.has(hit.path)) continue;
      seen.add(hit.path);
      text.push(hit);
    }
    const vector = this.vectors ? await this.vectors.search(query, depth, accept, options.signal) : [];
    return { terms, text, vector, accept, textComplete: chunks.length < depth, vectorComplete: vector.length < depth };
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
    const { terms, text, vector, accept, textComplete, vectorComplete } = await this.candidates(query, options);
    const bestChunk = new Map(text.map((h) => [h.path, h.ordinal]));
    const vectorChunk = new Map(vector.map((h) => [h.path, h.ordinal]));
    const ranked = fuse(
      [
        { hits: text, weight: 1, complete: textComplete },
        { hits: vector, weight: 1, complete: vectorComplete },
      ],
      (p) => this.neighbourPaths(p),
      accept,
      fusion,
    );
    const hits: RetrievalHit[] = [];
    for (const [path, score] of ranked) {
      if (hits.length >= options.limit) break;
      options.signal?.throwIfAborted();
      const hit = await this.hitFor(path, score, bestChunk.get(path) ?? vectorChunk.get(path) ?? 0, terms);
      if (hit) hits.push(hit);
    }
    return Object.freeze(hits);
  }

  private async hitFor(path: string, score: number, ordinal: number, terms: readonly string[]): Promise<RetrievalHit | null> {
    let markdown: string;
    try {
      markdown = await this.options.reader.read(path);
    } catch {
      return null; // gone since it was indexed: the next sync drops it
    }
    let found: { heading: string; start: number; end: number } | undefined = this.text.chunksOf(path)[ordinal];
    if (!found || contentHash(markdown) !== this.notes.get(path)?.hash) found = parseNote(path, markdown).chunks[ordinal];
    const text = found ? markdown.slice(found.start, found.end) : markdown;
    return Object.freeze({ path, heading: found?.heading ?? "", score, snippet: makeSnippet(text, terms), text });
  }
}
