/**
 * The search index behind a message port: the worker's side of the protocol (protocol.ts). It runs
 * a real VaultIndex, whose store, note reader, embedder and sync vault are ports that call the main
 * thread (host-ports.ts), answers each request with one reply carrying the index's counts and what
 * changed of its catalogue, and aborts a request the main thread cancels.
 *
 * Off the main thread nothing needs to yield for a frame: the index runs its algorithms without
 * checkpoints or time slices, and awaits only the main thread's answers. Requests run as they come,
 * as calls on one index in process would, each in order up to its first await.
 */
import { hostLinks, type HostLinks } from "../links";
import type { NoteFrontmatter } from "../note-frontmatter";
import { applyChanges } from "../index-apply";
import { VaultIndex } from "../vault-index";
import { remoteEmbedder, remoteReader, remoteStore, remoteVault, type CallMain } from "./host-ports";
import { errorData, errorFrom, Pending } from "./pending";
import { readInbound } from "./inbound";
import type { CatalogDelta, IndexPort, IndexState, Request, Service, ToWorker } from "./protocol";
import { CATALOG_PIECE, PATH_GONE, PATH_INDEXED, PATH_UNINDEXED } from "./protocol-names";

/** A request's answer, and which paths it may have moved in or out of the catalogue ("all": look at every one). */
type Reply = { readonly value: unknown; readonly touched?: readonly string[] | "all" };

class IndexHost {
  private index: VaultIndex | null = null;
  private readonly calls = new Pending<Service>();
  private readonly running = new Map<number, AbortController>();
  private readonly requestOfSignal = new WeakMap<AbortSignal, number>();
  /** The host links the main thread sent with a note's text, until the note is prepared. */
  private readonly links = new Map<string, HostLinks>();
  /** The frontmatter values the main thread read from a note's text, until the note is prepared. */
  private readonly frontmatter = new Map<string, NoteFrontmatter>();
  /** Each path's place in the catalogue as last told to the main thread. */
  private readonly told = new Map<string, number>();

  constructor(private readonly port: IndexPort) {}

  receive(data: unknown): void {
    // Only the envelope is checked (inbound.ts says why): the main thread is this plugin's own.
    const inbound = readInbound(data);
    if (!inbound.ok) {
      const error = errorData(new Error(`The search index's worker received a message it cannot read (${inbound.why}).`));
      if (inbound.request !== null) this.port.postMessage({ type: "reply", id: inbound.request, ok: false, error, state: null });
      else this.port.postMessage({ type: "fatal", error });
      return;
    }
    const { message } = inbound;
    if (message.type === "cancel") this.running.get(message.id)?.abort(new Error("Cancelled."));
    else if (message.type === "answer") this.answered(message);
    else void this.serve(message);
  }

  private answered(message: Extract<ToWorker, { type: "answer" }>): void {
    const service = this.calls.entry(message.id);
    if (service === undefined) return;
    if (!message.ok) return this.calls.reject(message.id, errorFrom(message.error));
    // The answer's value is of the type protocol.ts gives the call: remote-index.ts builds it so.
    this.calls.resolve(message.id, message.value);
  }

  private readonly call: CallMain = (service, args, request, transfer) => {
    const { id, answer } = this.calls.begin(service);
    this.port.postMessage({ type: "call", id, request, service, ...args }, transfer ?? []);
    return answer as never;
  };

  private async serve(request: Request): Promise<void> {
    const controller = new AbortController();
    this.running.set(request.id, controller);
    this.requestOfSignal.set(controller.signal, request.id);
    try {
      const reply = await this.run(request, controller.signal);
      this.tellCatalog(reply.touched);
      this.port.postMessage({ type: "reply", id: request.id, ok: true, value: reply.value, state: this.state() });
    } catch (error) {
      // What the failing request changed is told too: an aborted sync may have indexed half the vault.
      if (request.op === "sync" || request.op === "apply") this.tellCatalog("all");
      this.port.postMessage({ type: "reply", id: request.id, ok: false, error: errorData(error), state: this.index ? this.state() : null });
    } finally {
      this.running.delete(request.id);
    }
  }

  private opened(): VaultIndex {
    if (!this.index) throw new Error("The search index is not open.");
    return this.index;
  }

  private async run(request: Request, signal: AbortSignal): Promise<Reply> {
    switch (request.op) {
      case "open": {
        if (this.index) throw new Error("The search index is open already.");
        const { options } = request;
        const embedder = options.embeddingModel === null ? null : remoteEmbedder(this.call, options.embeddingModel, (s) => (s ? (this.requestOfSignal.get(s) ?? null) : null));
        const index = await VaultIndex.open({
          store: remoteStore(this.call),
          reader: remoteReader(this.call),
          wikiFolder: options.wikiFolder,
          excludedFolders: options.excludedFolders,
          ...(options.maxNoteBytes !== undefined ? { maxNoteBytes: options.maxNoteBytes } : {}),
          ...(options.knownLinks ? { links: hostLinks((path) => this.takeLinks(path)) } : {}),
          frontmatter: (path) => this.takeFrontmatter(path),
          embedder,
          ...(options.configuredEmbeddingModel !== undefined ? { configuredEmbeddingModel: options.configuredEmbeddingModel } : {}),
        });
        if (index.vectors) index.vectors.onFailure = (message) => this.port.postMessage({ type: "vectorFailure", message });
        this.index = index;
        return { value: null, touched: "all" };
      }
      case "apply": {
        const index = this.opened();
        const result = await applyChanges(index, request.changes, request.stillCurrent ? { stillCurrent: (path) => this.call("stillCurrent", { path }, request.id) } : {});
        const touched = request.changes.flatMap((change) => (change.kind === "rename" ? [change.from, change.to] : [change.path]));
        return { value: result, touched };
      }
      case "sync": {
        const index = this.opened();
        const { options } = request;
        const vault = remoteVault(this.call, request.id, options.vault, { links: this.links, frontmatter: this.frontmatter });
        const progress = (part: "sync" | "embed") => (p: { done: number; total: number }) => this.port.postMessage({ type: "progress", id: request.id, part, done: p.done, total: p.total });
        try {
          const result = await index.sync(vault, {
            signal,
            ...(options.batchSize !== undefined ? { batchSize: options.batchSize } : {}),
            ...(options.flush !== undefined ? { flush: options.flush } : {}),
            ...(options.embed !== undefined ? { embed: options.embed } : {}),
            ...(options.only ? { only: options.only } : {}),
            progress: progress("sync"),
            embedProgress: progress("embed"),
          });
          return { value: result, touched: "all" };
        } finally {
          this.links.clear();
          this.frontmatter.clear();
        }
      }
      case "compact":
        await this.opened().compact();
        return { value: null };
      case "embedPending": {
        const result = await this.opened().embedPending({ signal, progress: (p) => this.port.postMessage({ type: "progress", id: request.id, part: "embed", done: p.done, total: p.total }) });
        return { value: result };
      }
      case "flush":
        return { value: await this.opened().flush() };
      case "close":
        return { value: await this.opened().close() };
      case "retrieve":
        return { value: await this.opened().retrieve(request.query, { ...request.options, signal }) };
      case "reconnect":
        return { value: (await this.opened().vectors?.reconnect(signal)) ?? false };
    }
  }

  private takeLinks(path: string): HostLinks | null {
    const found = this.links.get(path) ?? null;
    this.links.delete(path);
    return found;
  }

  /** The values sent with the note's text by the read that brought it; every read the sync makes brings them. */
  private takeFrontmatter(path: string): NoteFrontmatter {
    const found = this.frontmatter.get(path);
    if (!found) throw new Error(`The search index's worker has no frontmatter for "${path}": the main thread sends it with every note's text.`);
    this.frontmatter.delete(path);
    return found;
  }

  private state(): IndexState {
    const index = this.opened();
    return { ...index.stats(), wikiPages: index.wikiSize };
  }

  /** Tells what changed of the catalogue — of the paths touched, or of every path after an open or a sync — in pieces. */
  private tellCatalog(touched: readonly string[] | "all" | undefined): void {
    const index = this.index;
    if (!index || touched === undefined) return;
    const placeOf = (path: string) => (index.stateOf(path) ? PATH_INDEXED : index.isUnindexed(path) ? PATH_UNINDEXED : PATH_GONE);
    const changed: string[] = [];
    const places: number[] = [];
    const tell = (path: string, place: number) => {
      if ((this.told.get(path) ?? PATH_GONE) === place) return;
      changed.push(path);
      places.push(place);
      if (place === PATH_GONE) this.told.delete(path);
      else this.told.set(path, place);
    };
    if (touched === "all") {
      // Straight from the index's own tables: a map of every path's place first would cost a
      // vault-sized map (50,000 entries) per open and per sync.
      for (const path of [...this.told.keys()]) if (placeOf(path) === PATH_GONE) tell(path, PATH_GONE);
      for (const path of index.unsortedPaths()) tell(path, PATH_INDEXED);
      for (const path of index.unindexedPaths()) tell(path, PATH_UNINDEXED);
    } else for (const path of touched) tell(path, placeOf(path));
    for (let start = 0; start < changed.length; start += CATALOG_PIECE) {
      const delta: CatalogDelta = { paths: changed.slice(start, start + CATALOG_PIECE).join("\u0000"), places: Uint8Array.from(places.slice(start, start + CATALOG_PIECE)) };
      this.port.postMessage({ type: "catalog", delta }, [delta.places.buffer]);
    }
  }
}

/** Serves one search index over `port` (the worker's own scope, or a MessagePort in tests) until the worker ends. */
export function serveIndex(port: IndexPort): void {
  const host = new IndexHost(port);
  port.addEventListener("message", (event) => host.receive(event.data));
}
