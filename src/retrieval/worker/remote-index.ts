/**
 * A SearchIndex whose index runs in a worker (host.ts), on the main thread's side of the protocol
 * (protocol.ts). The main thread keeps what only it has — the state store's files, the note
 * reader, the embedder, the vault a sync reads, Obsidian's metadata cache and link resolver — and
 * answers the worker's calls for them; the worker does the indexing and searching, and hands over
 * each encoded shard for the main thread to write.
 *
 * Every request has an id and settles once, with its reply or, when the worker dies or sends what
 * cannot be read, with a clear index error: nothing waits for an answer that cannot come. A
 * cancelled request (its signal aborted) is cancelled in the worker and settles once the worker has
 * stopped it, as it would in process. `stats()`, `vectors` and the catalogue's lookups answer from
 * the counts and names each reply brings.
 */
import type { z } from "zod";
import { SynapseError } from "../../core/errors";
import type { StateStore } from "../../vault/state-store";
import type { VaultPort } from "../../vault/vault-port";
import { indexCatalog, type CatalogOptions, type IndexCatalog } from "../catalog";
import { readFrontmatter } from "../chunker";
import type { Embedder } from "../embedder";
import type { FlushResult } from "../index-flush";
import type { ApplyOptions, ApplyResult, VaultChange } from "../index-apply";
import type { LinkResolver } from "../graph-index";
import type { HostLinks } from "../links";
import type { IndexStats, SearchIndex, VectorControl } from "../search-index";
import type { SyncOptions, SyncResult } from "../sync";
import type { RetrievalHit, RetrieveOptions } from "../types";
import type { EmbedOptions, EmbedResult } from "../vector-backend";
import { CatalogMirror } from "./catalog-mirror";
import { errorData, errorFrom, Pending, transferable } from "./pending";
import { FromWorker, ReplyValue, type Call, type IndexPort, type IndexState, type RequestOp } from "./protocol";

export interface RemoteIndexOptions {
  readonly store: StateStore;
  /** Reads a note's current text, for snippets and chunk text. */
  readonly reader: { read(path: string): Promise<string> };
  readonly wikiFolder: string;
  readonly excludedFolders: readonly string[];
  readonly maxNoteBytes?: number;
  readonly embedder?: Embedder | null;
  readonly configuredEmbeddingModel?: string | null;
  /** The links the host parsed for a note (Obsidian's metadata cache): sent with its text when a sync reads it. */
  readonly knownLinks?: (path: string) => HostLinks | null;
  /**
   * How the catalogue's `linkExists` resolves links (Obsidian's resolver). The worker's graph
   * resolves with the index's own rules, which follow Obsidian's (link-resolution.ts).
   */
  readonly resolver?: LinkResolver;
  /** Told once when the index is lost (its worker died or sent what cannot be read), with the error every request now gets. */
  readonly onLost?: (error: SynapseError) => void;
}

/** The hooks a request's calls and events are answered with. */
interface Hooks {
  readonly vault?: VaultPort;
  readonly signal?: AbortSignal;
  readonly stillCurrent?: (path: string) => boolean;
  readonly progress?: (progress: { done: number; total: number }) => void;
  readonly embedProgress?: (progress: { done: number; total: number }) => void;
  readonly listing?: Promise<readonly string[]>;
}

interface Asked {
  readonly op: RequestOp;
  readonly hooks: Hooks;
}

const EMPTY_STATE: IndexState = { notes: 0, chunks: 0, rejectedShards: 0, wikiPages: 0, vectors: null };

class RemoteVectors implements VectorControl {
  error: string | null = null;
  onFailure: ((message: string) => void) | null = null;

  constructor(private readonly ask: (signal?: AbortSignal) => Promise<boolean>) {}

  get active(): boolean {
    return this.error === null;
  }

  reconnect(signal?: AbortSignal): Promise<boolean> {
    return this.ask(signal);
  }
}

export class RemoteIndex implements SearchIndex {
  private readonly requests = new Pending<Asked>();
  private readonly mirror: CatalogMirror;
  private current: IndexState = EMPTY_STATE;
  /** Why the index can answer nothing more: the worker died, sent what cannot be read, or the index was closed. */
  private ended: Error | null = null;
  readonly vectors: RemoteVectors | null;

  private constructor(
    private readonly port: IndexPort,
    private readonly options: RemoteIndexOptions,
    private readonly end: () => void,
  ) {
    this.mirror = new CatalogMirror(options.resolver);
    this.vectors = options.embedder ? new RemoteVectors((signal) => this.ask("reconnect", {}, signal ? { signal } : {})) : null;
    port.addEventListener("message", (event) => this.receive(event.data));
  }

  /**
   * Opens the index in the worker at the other end of `port` (loading its shards through this
   * thread's store). `end` lets the worker go once the index is closed or lost (a Worker's `terminate`).
   */
  static async open(port: IndexPort, options: RemoteIndexOptions, end: () => void = () => undefined): Promise<RemoteIndex> {
    const index = new RemoteIndex(port, options, end);
    const embedder = options.embedder ?? null;
    await index.ask("open", {
      options: {
        wikiFolder: options.wikiFolder,
        excludedFolders: [...options.excludedFolders],
        ...(options.maxNoteBytes !== undefined ? { maxNoteBytes: options.maxNoteBytes } : {}),
        embeddingModel: embedder?.modelId ?? null,
        ...(options.configuredEmbeddingModel !== undefined ? { configuredEmbeddingModel: options.configuredEmbeddingModel } : {}),
        knownLinks: options.knownLinks !== undefined,
      },
    });
    return index;
  }

  /** The worker is gone (it crashed, or its script failed): every request waiting is rejected, and every later one. */
  lost(cause: unknown): void {
    if (this.ended) return;
    const reason = cause instanceof Error ? cause.message : String(cause);
    const ended = new SynapseError("unavailable", `The search index stopped working (${reason.replace(/[.\s]*$/, "")}); it opens again when Obsidian restarts or the settings change.`, { cause });
    this.ended = ended;
    this.requests.rejectAll(ended);
    this.end();
    this.options.onLost?.(ended);
  }

  apply(changes: readonly VaultChange[], options: ApplyOptions = {}): Promise<ApplyResult> {
    const hooks: Hooks = options.stillCurrent ? { stillCurrent: options.stillCurrent } : {};
    // The frontmatter is read here, where the YAML parser is: the worker bundles none.
    const sent = changes.map((change) => (change.kind === "delete" ? { ...change } : { ...change, frontmatter: change.frontmatter ?? readFrontmatter(change.kind === "upsert" ? change.path : change.to, change.text) }));
    return this.ask("apply", { changes: sent, stillCurrent: options.stillCurrent !== undefined }, hooks);
  }

  sync(vault: VaultPort, options: SyncOptions = {}): Promise<SyncResult> {
    return this.ask(
      "sync",
      {
        options: {
          ...(options.batchSize !== undefined ? { batchSize: options.batchSize } : {}),
          ...(options.flush !== undefined ? { flush: options.flush } : {}),
          ...(options.embed !== undefined ? { embed: options.embed } : {}),
          ...(options.only ? { only: { folders: [...options.only.folders], ...(options.only.notes ? { notes: [...options.only.notes] } : {}) } } : {}),
          vault: { readWithStat: vault.readWithStat !== undefined, statMany: vault.statMany !== undefined },
        },
      },
      {
        vault,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.progress ? { progress: options.progress } : {}),
        ...(options.embedProgress ? { embedProgress: options.embedProgress } : {}),
        ...(options.listing ? { listing: options.listing } : {}),
      },
    );
  }

  /** The worker merges at its own pace; the main thread has nothing to yield for. */
  async compact(): Promise<void> {
    await this.ask("compact", {});
  }

  embedPending(options: EmbedOptions = {}): Promise<EmbedResult> {
    return this.ask("embedPending", {}, { ...(options.signal ? { signal: options.signal } : {}), ...(options.progress ? { embedProgress: options.progress } : {}) });
  }

  flush(): Promise<FlushResult> {
    return this.ask("flush", {});
  }

  /** Writes what changed, then lets the worker go. */
  async close(): Promise<unknown> {
    const flushed = await this.ask("close", {});
    if (!this.ended) {
      this.ended = new SynapseError("unavailable", "The search index is closed.");
      this.end();
    }
    return flushed;
  }

  stats(): IndexStats {
    const { notes, chunks, rejectedShards, vectors } = this.current;
    // The vectors' error as last told: a failure event may have come after the last reply.
    return { notes, chunks, rejectedShards, vectors: vectors && { ...vectors, error: this.vectors ? this.vectors.error : vectors.error } };
  }

  catalog(vault: Pick<VaultPort, "stat" | "read">, options: CatalogOptions = {}): IndexCatalog {
    const state = () => this.current;
    const source = {
      get wikiSize() {
        return state().wikiPages;
      },
      pathsNamed: (basename: string) => this.mirror.pathsNamed(basename),
      linkTarget: (target: string, from: string) => this.mirror.linkTarget(target, from),
      apply: (changes: readonly VaultChange[]) => this.apply(changes),
    };
    return indexCatalog(source, vault, options);
  }

  retrieve(query: string, options: RetrieveOptions): Promise<readonly RetrievalHit[]> {
    return this.ask("retrieve", { query, options: { scope: options.scope, limit: options.limit } }, options.signal ? { signal: options.signal } : {});
  }

  private ask<Op extends RequestOp>(op: Op, payload: Record<string, unknown>, hooks: Hooks = {}): Promise<z.infer<(typeof ReplyValue)[Op]>> {
    if (this.ended) return Promise.reject(this.ended);
    const { signal } = hooks;
    // The reason as the caller gave it, as an aborted run in process throws it.
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    const { id, answer } = this.requests.begin({ op, hooks });
    const cancel = () => this.port.postMessage({ type: "cancel", id });
    signal?.addEventListener("abort", cancel, { once: true });
    try {
      this.port.postMessage({ type: "request", id, op, ...payload });
    } catch (error) {
      // A change that cannot be cloned (it is not data): this request fails, the index goes on.
      this.requests.reject(id, error);
    }
    return answer.then(
      (value) => {
        signal?.removeEventListener("abort", cancel);
        if (signal?.aborted) throw signal.reason;
        return value as z.infer<(typeof ReplyValue)[Op]>;
      },
      (error: unknown) => {
        signal?.removeEventListener("abort", cancel);
        throw signal?.aborted && error !== this.ended ? signal.reason : error;
      },
    );
  }

  private receive(data: unknown): void {
    if (this.ended) return;
    const parsed = FromWorker.safeParse(data);
    if (!parsed.success) return this.lost(new Error(`its worker sent a message Synapse cannot read: ${parsed.error.issues[0]?.message ?? "unknown shape"}`));
    const message = parsed.data;
    switch (message.type) {
      case "reply": {
        const asked = this.requests.entry(message.id);
        if (message.state) this.current = message.state;
        if (this.vectors && message.state?.vectors) this.vectors.error = message.state.vectors.error;
        if (!asked) return;
        if (!message.ok) return this.requests.reject(message.id, errorFrom(message.error));
        const value = (ReplyValue[asked.op] as z.ZodType).safeParse(message.value);
        if (value.success) this.requests.resolve(message.id, value.data);
        else this.requests.reject(message.id, new SynapseError("unavailable", `The search index answered "${asked.op}" with a value Synapse cannot read.`));
        return;
      }
      case "catalog":
        this.mirror.apply(message.delta);
        return;
      case "progress": {
        const hooks = this.requests.entry(message.id)?.hooks;
        (message.part === "sync" ? hooks?.progress : hooks?.embedProgress)?.({ done: message.done, total: message.total });
        return;
      }
      case "vectorFailure":
        if (!this.vectors) return;
        this.vectors.error = message.message;
        this.vectors.onFailure?.(message.message);
        return;
      case "fatal":
        return this.lost(errorFrom(message.error));
      case "call":
        void this.serve(message);
        return;
    }
  }

  /** Answers one of the worker's calls, with the hooks of the request it names. */
  private async serve(call: Call): Promise<void> {
    const hooks = call.request === null ? {} : (this.requests.entry(call.request)?.hooks ?? {});
    try {
      const { value, transfer } = await this.answer(call, hooks);
      if (!this.ended) this.port.postMessage({ type: "answer", id: call.id, ok: true, value }, transfer);
    } catch (error) {
      if (!this.ended) this.port.postMessage({ type: "answer", id: call.id, ok: false, error: errorData(error) });
    }
  }

  private async answer(call: Call, hooks: Hooks): Promise<{ value: unknown; transfer: ArrayBuffer[] }> {
    const plain = (value: unknown) => ({ value, transfer: [] });
    const { store } = this.options;
    const vault = (): VaultPort => {
      if (!hooks.vault) throw new Error("No sync is running for this call.");
      return hooks.vault;
    };
    const links = (path: string) => this.options.knownLinks?.(path) ?? null;
    switch (call.service) {
      case "vault.list": {
        if (call.folder === "" && hooks.listing) return plain([...(await hooks.listing)]);
        // Unsorted where the vault can: the worker sorts (host-ports.ts), off this thread.
        const listed = vault();
        return plain(await (listed.listInAnyOrder ? listed.listInAnyOrder(call.folder) : listed.list(call.folder)));
      }
      case "vault.stat":
        return plain(await vault().stat(call.path));
      case "vault.read": {
        const text = await vault().read(call.path);
        return plain({ text, links: links(call.path), frontmatter: readFrontmatter(call.path, text) });
      }
      case "vault.readWithStat": {
        const note = await vault().readWithStat?.(call.path);
        return plain(note ? { stat: note.stat, text: note.text, links: links(call.path), frontmatter: readFrontmatter(call.path, note.text) } : null);
      }
      case "vault.statMany":
        return plain(await (vault().statMany?.(call.paths) ?? Promise.all(call.paths.map((path) => vault().stat(path)))));
      case "note.read":
        return plain(await this.options.reader.read(call.path));
      case "store.read":
        return plain(await store.read(call.key));
      case "store.readBytes": {
        const bytes = await store.readBytes(call.key);
        if (!bytes) return plain(null);
        // A shard is read for the worker alone: its buffer moves there.
        const { array, buffer } = transferable(bytes);
        return { value: array, transfer: [buffer] };
      }
      case "store.write":
        await store.write(call.key, call.content);
        return plain(null);
      case "store.append":
        await store.append(call.key, call.text);
        return plain(null);
      case "store.remove":
        await store.remove(call.key);
        return plain(null);
      case "store.list":
        return plain(await store.list(call.prefix));
      case "store.createExclusive":
        return plain(await store.createExclusive(call.key, call.content));
      case "embed": {
        const embedder = this.options.embedder;
        if (!embedder) throw new Error("No embedding model is configured.");
        // Copied first: an embedder may hand out vectors it keeps (a cache), and a moved buffer is gone from here.
        const vectors = (await embedder.embed(call.texts, hooks.signal)).map((vector) => new Float32Array(vector));
        return { value: vectors, transfer: vectors.map((v) => v.buffer) };
      }
      case "stillCurrent":
        return plain(hooks.stillCurrent ? hooks.stillCurrent(call.path) : true);
    }
  }
}
