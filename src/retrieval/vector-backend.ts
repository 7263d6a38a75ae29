/**
 * Keeps the vector index in step with the text index when an embedder is configured: remembers
 * which notes changed, embeds their chunks in batches (only chunks whose key is not cached), loads
 * and writes the vector shards, and answers the vector side of a query. A failing embedding server
 * costs one clear error, kept in `error` and told to `onFailure`; the vector backend then stands
 * aside, and the index keeps working from text and graph, until `reconnect` finds the server
 * answering again (the plugin retries with backoff; a CLI run simply ends). Cancellation is never
 * swallowed.
 *
 * Vectors are paid for once: a flush's sweep never drops a vector an embedding pass still needs.
 * The vectors of a note that left (removed, renamed, or not in the text index when the index
 * opened — a text shard dropped as damaged or outdated) are retained, and still written to its
 * vector shard, until an embedding pass that began after it left has finished: that pass finds
 * them in the cache for the note's new path or restored text. The keys of the notes a running pass
 * has queued are kept too, until it commits them.
 */
import type { StateStore } from "../vault/state-store";
import { looksBinary } from "../core/note-admission";
import { contentHash } from "../core/content-hash";
import { stripProvenance } from "../core/provenance-strip";
import { chunkNote, type Chunk } from "./chunks";
import { EMBED_BATCH_SIZE, type Embedder } from "./embedder";
import { shardOf } from "./shards";
import { NO_VECTOR, VectorIndex, type VectorHit } from "./vector-index";
import { chunkKey } from "./vector-math";
import { VectorRetention } from "./vector-retention";
import { encodeVectorShard, loadVectorShards, vectorShardKey, type VectorNoteRecord } from "./vector-shards";

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
}

/** What a pass does with a pending note: embed it, skip it (not indexed), or withhold it (its text must not reach the model). */
export type Admission = "embed" | "skip" | "withhold";

interface Queued {
  readonly path: string;
  readonly hash: string;
  readonly keys: readonly string[];
  /** The note's change count when it was read: a change since keeps it pending. */
  readonly generation: number;
}

/**
 * What is embedded for a chunk: its own text (which opens with its heading line), nothing else —
 * not the note's title — so a renamed or moved note finds every vector in the cache. Synapse's
 * source markers and attribution lines are not embedded: a marker's path and hash are noise to the
 * model, and they change when any part of the section does or its note moves, which would embed
 * again a chunk whose words did not change. A chunk of nothing else gets no vector ("").
 */
function embedText(markdown: string, chunk: Chunk): string {
  return stripProvenance(markdown.slice(chunk.start, chunk.end));
}

/** One sentence for the user: the cause, and that search goes on without vectors. */
function offMessage(error: unknown): string {
  const cause = (error instanceof Error ? error.message : String(error)).trim().replace(/[.\s]*$/, "");
  return `Vector search is off for now (${cause}); search uses text and links only.`;
}

export class VectorBackend {
  readonly index = new VectorIndex();
  /** The notes that need vectors: changed or new, and indexed notes without vectors (kept as they come, not found by a scan). */
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
  /** Records of notes that left, kept for their vectors, and the keys of queued notes (see the file comment). */
  private readonly retention = new VectorRetention();
  private passesBegun = 0;

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

  /**
   * Loads the persisted vectors; `hashOf` gives the text index's hash of each note, so stale vectors
   * are redone, and `indexed` lists the text index's notes, so those without vectors are pending.
   */
  async load(store: StateStore, hashOf: (path: string) => string | undefined, indexed: Iterable<string>): Promise<void> {
    const loaded = await loadVectorShards(store, this.embedder.modelId, this.configuredModel);
    this.rejectedShards = loaded.rejected;
    for (const shard of loaded.shards) {
      try {
        for (const [key, vector] of shard.vectors) this.index.putQuantised(key, vector);
      } catch {
        this.rejectedShards += 1; // of another dimension than the shards before it: its notes are embedded again
        continue;
      }
      for (const note of shard.notes) {
        const textHash = hashOf(note.path);
        if (textHash === undefined) {
          // Not in the text index (yet): its text shard may have been dropped, and the sync re-indexes it.
          this.retention.retain(note, this.passesBegun);
          continue;
        }
        this.index.setNote(note.path, note.keys, note.hash);
        if (textHash !== note.hash) this.changed(note.path);
      }
    }
    for (const path of indexed) if (!this.index.has(path)) this.pending.add(path);
  }

  /** A pass finished: the records retained before it began leave their shards, and their vectors the next sweep. */
  private releaseBefore(pass: number): void {
    this.retention.releaseBefore(pass, (path) => this.dirty.add(shardOf(path)));
  }

  /** A note's text changed (or it is new): its vectors are redone at the next `embedPending`. */
  changed(path: string): void {
    this.pending.add(path);
    this.generations.set(path, (this.generations.get(path) ?? 0) + 1);
  }

  /** A note left the index: its record is retained (on disk too) until the next pass, which may find its vectors again. */
  remove(path: string): void {
    this.pending.delete(path);
    this.generations.delete(path);
    const keys = this.index.keysOf(path);
    if (keys) {
      this.retention.retain({ path, hash: this.index.hashOf(path) ?? "", keys }, this.passesBegun);
      // Its shard is written again with the record retained: a flush under way may have taken the
      // dirty shards and the retained records before it left, and would write the shard without it.
      this.dirty.add(shardOf(path));
    }
    this.index.remove(path);
  }

  /** The notes that need vectors: those that changed, and indexed notes that have none. */
  needing(): string[] {
    return [...this.pending];
  }

  /**
   * Embeds the notes that need vectors and that `admit` lets through; a withheld note loses its
   * vectors (`remove`).
   */
  async embedNeeded(
    admit: (path: string) => Admission,
    reader: { read(path: string): Promise<string> },
    options: EmbedOptions = {},
  ): Promise<EmbedResult> {
    if (!this.active) return { notes: 0, embedded: 0, reused: 0, error: this.error };
    const paths: string[] = [];
    for (const path of this.needing()) {
      const admission = admit(path);
      if (admission === "embed") paths.push(path);
      else if (admission === "withhold") this.remove(path);
      else this.pending.delete(path);
    }
    return this.embedPending(paths, reader, options);
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
    if (!this.active) return { notes, embedded, reused, error: this.error };
    const pass = ++this.passesBegun;
    if (paths.length === 0) {
      this.releaseBefore(pass);
      return { notes, embedded, reused, error: this.error };
    }
    const modelId = this.embedder.modelId;
    const queue: Queued[] = [];
    const toEmbed = new Map<string, string>();
    const commit = () => {
      while (queue.length > 0) {
        const next = queue[0] as Queued;
        if (next.keys.some((k) => k !== NO_VECTOR && !this.index.cached(k))) break;
        queue.shift();
        this.index.setNote(next.path, next.keys, next.hash);
        this.retention.unpin(next.keys);
        this.retention.release(next.path);
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
        options.signal?.throwIfAborted();
        options.progress?.({ done: i, total: paths.length });
        const path = paths[i] as string;
        // Taken before the read: a change during the read keeps the note pending.
        const generation = this.generations.get(path) ?? 0;
        let markdown: string;
        try {
          markdown = await reader.read(path);
        } catch {
          continue; // gone (the next sync removes it), or unreadable for now: it stays pending
        }
        if (looksBinary(markdown)) {
          // Ingest refuses a binary file named like a note; its bytes never reach the embedder either.
          this.remove(path);
          continue;
        }
        const keys: string[] = [];
        for (const chunk of chunkNote(markdown)) {
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
        this.retention.pin(keys);
        commit();
        await send(false);
      }
      await send(true);
      if (queue.length > 0) throw new Error(`${queue.length} notes were embedded but their vectors could not be kept`);
      this.releaseBefore(pass);
      options.progress?.({ done: paths.length, total: paths.length });
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason ?? error;
      this.fail(error);
    } finally {
      for (const left of queue) this.retention.unpin(left.keys);
    }
    return { notes, embedded, reused, error: this.error };
  }

  /** Writes the vector shards that changed; `members` lists each shard's notes. */
  async flush(store: StateStore, members: (shard: number) => readonly string[]): Promise<{ shardsWritten: number; bytesWritten: number }> {
    const shards = [...this.dirty].sort((a, b) => a - b);
    this.dirty.clear();
    this.index.sweep((key) => this.retention.pinned(key));
    const retainedIn = this.retention.byShard(new Set(shards));
    let bytes = 0;
    for (const shard of shards) {
      const notes: VectorNoteRecord[] = [];
      for (const path of members(shard)) {
        const keys = this.index.keysOf(path);
        if (keys) notes.push({ path, hash: this.index.hashOf(path) ?? "", keys });
      }
      // A retained record is written as it was read: the note it names has no vectors in the index.
      for (const { path, hash, keys } of retainedIn.get(shard) ?? []) notes.push({ path, hash, keys });
      const dims = this.index.dimensions;
      if (notes.length === 0 || dims === null) {
        await store.remove(vectorShardKey(this.embedder.modelId, shard));
        continue;
      }
      const encoded = encodeVectorShard(this.embedder.modelId, dims, notes, (key) => this.index.vector(key));
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
