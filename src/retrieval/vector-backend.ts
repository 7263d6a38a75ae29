/**
 * Keeps the vector index in step with the text index when an embedder is configured: remembers
 * which notes changed, embeds their chunks in batches (only chunks whose key is not cached), loads
 * and writes the vector shards, and answers the vector side of a query. A failing embedding server
 * costs one clear error, kept in `error` and told to `onFailure`; the vector backend then stands
 * aside, and the index keeps working from text and graph, until `reconnect` finds the server
 * answering again (the plugin retries with backoff; a CLI run simply ends). Cancellation is never
 * swallowed.
 */
import type { StateStore } from "../vault/state-store";
import { contentHash } from "../wiki/content-hash";
import { parseNote, type Chunk } from "./chunker";
import { EMBED_BATCH_SIZE, type Embedder } from "./embedder";
import { shardOf } from "./shards";
import { NO_VECTOR, VectorIndex, type VectorHit } from "./vector-index";
import { chunkKey } from "./vector-math";
import { runPiecesSliced } from "./time-slice";
import { encodeVectorShardPieces, loadVectorShards, vectorShardKey, type VectorNoteRecord } from "./vector-shards";

export interface EmbedProgress {
  readonly done: number;
  readonly total: number;
}

export interface EmbedResult {
  /** Notes given vectors. */
  readonly notes: number;
  /** Chunks sent to the model (cache misses). */
  readonly embedded: number;
  /** Chunks found in the cache. */
  readonly reused: number;
  /** Why embedding stopped, when it did; the index then answers from text and graph. */
  readonly error: string | null;
}

export interface EmbedOptions {
  readonly signal?: AbortSignal;
  readonly progress?: (p: EmbedProgress) => void;
  /** Called before each note; on Obsidian's main thread it yields when the time slice is spent. */
  readonly checkpoint?: () => Promise<unknown>;
}

interface Queued {
  readonly path: string;
  readonly hash: string;
  readonly keys: readonly string[];
  /** The note's change count when it was read: a change since keeps it pending. */
  readonly generation: number;
}

/**
 * What is embedded for a chunk: its own text (which opens with its heading line), nothing else —
 * not the note's title — so a renamed or moved note finds every vector in the cache.
 */
function embedText(markdown: string, chunk: Chunk): string {
  return markdown.slice(chunk.start, chunk.end).trim();
}

/** One sentence for the user: the cause, and that search goes on without vectors. */
function offMessage(error: unknown): string {
  const cause = (error instanceof Error ? error.message : String(error)).trim().replace(/[.\s]*$/, "");
  return `Vector search is off for now (${cause}); search uses text and links only.`;
}

export class VectorBackend {
  readonly index = new VectorIndex();
  private readonly pending = new Set<string>();
  /** Changes seen per pending note, so a note edited while its old text was being embedded stays pending. */
  private readonly generations = new Map<string, number>();
  private readonly dirty = new Set<number>();
  /** Why vectors are off, in one sentence: the embedding failure since which they stand aside. */
  error: string | null = null;
  /** Told each time an embedding request fails (not on cancellation), with the sentence kept in `error`. */
  onFailure: ((message: string) => void) | null = null;
  /** Shards dropped when the index opened (damaged, outdated, or made by another model). */
  rejectedShards = 0;

  /**
   * @param configuredModel The model the settings choose (its `modelId`), or null for none: its
   *   vectors stay on disk while another model is tried. By default the embedder's own.
   */
  constructor(
    readonly embedder: Embedder,
    readonly configuredModel: string | null = embedder.modelId,
  ) {}

  get active(): boolean {
    return this.error === null;
  }

  private fail(error: unknown): void {
    this.error = offMessage(error);
    this.onFailure?.(this.error);
  }

  /**
   * After a failure: asks the embedding model for one small vector, and turns vectors back on when
   * it answers (then `embedPending` catches up with the notes changed meanwhile). Says whether it did.
   * Vectors stay off until the answer is in: a search meanwhile must not wait on a server that may
   * hang, nor fail a second time and count as another outage.
   */
  async reconnect(signal?: AbortSignal): Promise<boolean> {
    try {
      const vectors = await this.embedder.embed(["Synapse"], signal);
      if (vectors.length !== 1) throw new Error(`The embedding model returned ${vectors.length} vectors for 1 text.`);
      this.error = null;
      return true;
    } catch (error) {
      if (signal?.aborted) throw signal.reason ?? error;
      this.fail(error);
      return false;
    }
  }

  /** Loads the persisted vectors; `hashOf` gives the text index's hash of each note, so stale vectors are redone. */
  async load(store: StateStore, hashOf: (path: string) => string | undefined, checkpoint?: () => Promise<unknown>): Promise<void> {
    const loaded = await loadVectorShards(store, this.embedder.modelId, this.configuredModel, checkpoint);
    this.rejectedShards = loaded.rejected;
    for (const shard of loaded.shards) {
      await checkpoint?.();
      try {
        for (const [key, vector] of shard.vectors) this.index.putQuantised(key, vector);
      } catch {
        this.rejectedShards += 1; // of another dimension than the shards before it: its notes are embedded again
        continue;
      }
      for (const note of shard.notes) {
        const textHash = hashOf(note.path);
        if (textHash === undefined) {
          this.dirty.add(shardOf(note.path));
          continue;
        }
        this.index.setNote(note.path, note.keys, note.hash);
        if (textHash !== note.hash) this.changed(note.path);
      }
    }
  }

  /** A note's text changed (or it is new): its vectors are redone at the next `embedPending`. */
  changed(path: string): void {
    this.pending.add(path);
    this.generations.set(path, (this.generations.get(path) ?? 0) + 1);
  }

  remove(path: string): void {
    this.pending.delete(path);
    this.generations.delete(path);
    if (this.index.remove(path)) this.dirty.add(shardOf(path));
  }

  /** The notes that need vectors: those that changed, and indexed notes that have none. */
  needing(indexed: Iterable<string>): string[] {
    const out = new Set(this.pending);
    for (const path of indexed) if (!this.index.has(path)) out.add(path);
    return [...out].sort();
  }

  /**
   * Embeds the chunks of `paths` that no cached vector covers, `EMBED_BATCH_SIZE` texts per request.
   * A note is committed once all its chunks have vectors, so a failure half-way loses nothing done.
   */
  async embedPending(
    paths: readonly string[],
    reader: { read(path: string): Promise<string> },
    options: EmbedOptions = {},
  ): Promise<EmbedResult> {
    let notes = 0;
    let embedded = 0;
    let reused = 0;
    if (!this.active || paths.length === 0) return { notes, embedded, reused, error: this.error };
    const modelId = this.embedder.modelId;
    const queue: Queued[] = [];
    const toEmbed = new Map<string, string>();
    const commit = () => {
      while (queue.length > 0) {
        const next = queue[0] as Queued;
        if (next.keys.some((k) => k !== NO_VECTOR && !this.index.cached(k))) break;
        queue.shift();
        this.index.setNote(next.path, next.keys, next.hash);
        if ((this.generations.get(next.path) ?? 0) === next.generation) {
          this.pending.delete(next.path);
          this.generations.delete(next.path);
        }
        this.dirty.add(shardOf(next.path));
        notes += 1;
      }
    };
    const send = async (all: boolean) => {
      while (toEmbed.size >= EMBED_BATCH_SIZE || (all && toEmbed.size > 0)) {
        const batch = [...toEmbed.entries()].slice(0, EMBED_BATCH_SIZE);
        const vectors = await this.embedder.embed(batch.map(([, text]) => text), options.signal);
        if (vectors.length !== batch.length) throw new Error(`The embedding model returned ${vectors.length} vectors for ${batch.length} texts.`);
        batch.forEach(([key], i) => {
          this.index.put(key, vectors[i] ?? new Float32Array(0));
          toEmbed.delete(key);
        });
        embedded += batch.length;
        commit();
      }
    };
    try {
      for (let i = 0; i < paths.length; i++) {
        await options.checkpoint?.();
        options.signal?.throwIfAborted();
        options.progress?.({ done: i, total: paths.length });
        const path = paths[i] as string;
        // Taken before the read: a change during the read keeps the note pending.
        const generation = this.generations.get(path) ?? 0;
        let markdown: string;
        try {
          markdown = await reader.read(path);
        } catch {
          this.pending.delete(path); // gone: the next sync removes it
          this.generations.delete(path);
          continue;
        }
        const parsed = parseNote(path, markdown);
        const keys: string[] = [];
        for (const chunk of parsed.chunks) {
          const text = embedText(markdown, chunk);
          if (text === "") {
            keys.push(NO_VECTOR);
            continue;
          }
          const key = await chunkKey(modelId, text);
          keys.push(key);
          if (this.index.cached(key) || toEmbed.has(key)) reused += 1;
          else toEmbed.set(key, text);
        }
        queue.push({ path, hash: contentHash(markdown), keys, generation });
        commit();
        await send(false);
      }
      await send(true);
      options.progress?.({ done: paths.length, total: paths.length });
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason ?? error;
      this.fail(error);
    }
    return { notes, embedded, reused, error: this.error };
  }

  /** Writes the vector shards that changed; `members` lists each shard's notes; `checkpoint` runs before each and between the pieces of its encoding. */
  async flush(store: StateStore, members: (shard: number) => readonly string[], checkpoint?: () => Promise<unknown>): Promise<{ shardsWritten: number; bytesWritten: number }> {
    const shards = [...this.dirty].sort((a, b) => a - b);
    this.dirty.clear();
    this.index.sweep();
    let bytes = 0;
    for (const shard of shards) {
      await checkpoint?.();
      const notes: VectorNoteRecord[] = [];
      for (const path of members(shard)) {
        const keys = this.index.keysOf(path);
        if (keys) notes.push({ path, hash: this.index.hashOf(path) ?? "", keys });
      }
      const dims = this.index.dimensions;
      if (notes.length === 0 || dims === null) {
        await store.remove(vectorShardKey(this.embedder.modelId, shard));
        continue;
      }
      const encoded = await runPiecesSliced(
        encodeVectorShardPieces(this.embedder.modelId, dims, notes, (key) => this.index.vector(key)),
        checkpoint,
      );
      bytes += encoded.byteLength;
      await store.write(vectorShardKey(this.embedder.modelId, shard), encoded);
    }
    return { shardsWritten: shards.length, bytesWritten: bytes };
  }

  /** The vector side of a query, or nothing when vectors are off, empty or the model fails. */
  async search(query: string, limit: number, accept: (path: string) => boolean, signal?: AbortSignal): Promise<VectorHit[]> {
    if (!this.active || this.index.noteCount === 0 || query.trim() === "") return [];
    try {
      const [vector] = await this.embedder.embed([query], signal);
      if (!vector) return [];
      return this.index.search(vector, limit, accept);
    } catch (error) {
      if (signal?.aborted) throw signal.reason ?? error;
      this.fail(error);
      return [];
    }
  }
}
