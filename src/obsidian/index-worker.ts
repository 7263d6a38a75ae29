/**
 * Starts the search index's Web Worker. main.js carries the worker's script gzipped, as base64
 * (index-worker-script.ts, filled in by the build): it is decompressed with `DecompressionStream`,
 * handed to `new Worker` as a Blob URL, and the URL is revoked once the worker has said anything
 * (it has read its script then) or failed. Where Worker or DecompressionStream is missing, or the
 * script does not run, starting fails with `IndexStartError`: the plugin then tells the user and
 * goes on without search; it never builds the index on the main thread instead.
 *
 * The factory is a dependency of the index service: tests give one that serves the index in
 * process over a MessageChannel, through the same protocol.
 */
import { SynapseError } from "../core/errors";
import type { IndexPort } from "../retrieval";

/** A started worker, as the index service holds it. */
export interface IndexWorker {
  readonly port: IndexPort;
  /** Ends the worker (the index is closed, lost, or never opened). */
  terminate(): void;
  /** Called once if the worker fails after it started (an error it did not catch, a message that could not be read). */
  onLost(listener: (error: Error) => void): void;
}

export type IndexWorkerFactory = () => Promise<IndexWorker>;

/** The search index could not start in its worker: the plugin works on without search. */
export class IndexStartError extends SynapseError {
  constructor(reason: string, options: { cause?: unknown } = {}) {
    super("unavailable", `Search index could not start: ${reason.replace(/[.\s]*$/, "")}. Synapse works on without search until Obsidian restarts or the index settings change.`, options);
  }
}

/** What `new Worker` returns, as far as the plugin uses it. */
export interface WebWorkerLike {
  postMessage(message: unknown, transfer?: ArrayBuffer[]): void;
  addEventListener(type: "message", listener: (event: { readonly data: unknown }) => void): void;
  addEventListener(type: "error", listener: (event: { readonly message?: unknown }) => void): void;
  addEventListener(type: "messageerror", listener: () => void): void;
  terminate(): void;
}

/** The browser's parts the worker needs; by default the window's own (tests pass their own). */
export interface WorkerEnvironment {
  readonly Worker?: new (url: string, options?: { name?: string }) => WebWorkerLike;
  readonly DecompressionStream?: new (format: "gzip") => { readonly writable: WritableStream<Uint8Array>; readonly readable: ReadableStream<Uint8Array<ArrayBuffer>> };
  readonly Blob: typeof Blob;
  readonly URL: Pick<typeof URL, "createObjectURL" | "revokeObjectURL">;
}

function browserEnvironment(): WorkerEnvironment {
  return window as unknown as WorkerEnvironment;
}

/** Base64 → bytes (`atob`: no Node Buffer on mobile). */
function fromBase64(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Gunzips `bytes` through a DecompressionStream; the pieces it yields, in order. */
export async function gunzip(bytes: Uint8Array, Decompression: NonNullable<WorkerEnvironment["DecompressionStream"]>): Promise<Uint8Array<ArrayBuffer>[]> {
  const stream = new Decompression("gzip");
  const writer = stream.writable.getWriter();
  // Written while the output is read: a stream with a full queue waits for its reader.
  const written = writer.write(bytes).then(() => writer.close());
  const pieces: Uint8Array<ArrayBuffer>[] = [];
  const reader = stream.readable.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    pieces.push(value);
  }
  await written;
  return pieces;
}

/**
 * The factory of the plugin: the worker script `base64` (gzipped) started as a Web Worker. `null`
 * (the sources run without a build) fails every start, as a missing Worker does.
 */
export function webIndexWorker(base64: string | null, environment: () => WorkerEnvironment = browserEnvironment): IndexWorkerFactory {
  return async () => {
    const env = environment();
    if (base64 === null) throw new IndexStartError("this copy of Synapse was built without its worker script");
    if (typeof env.Worker !== "function") throw new IndexStartError("this device offers no Web Workers");
    if (typeof env.DecompressionStream !== "function") throw new IndexStartError("this device cannot decompress the worker's script (no DecompressionStream)");
    let url: string;
    try {
      const script = new env.Blob(await gunzip(fromBase64(base64), env.DecompressionStream), { type: "text/javascript" });
      url = env.URL.createObjectURL(script);
    } catch (error) {
      throw new IndexStartError(`its worker's script could not be unpacked (${error instanceof Error ? error.message : String(error)})`, { cause: error });
    }
    let worker: WebWorkerLike;
    try {
      worker = new env.Worker(url, { name: "Synapse search index" });
    } catch (error) {
      env.URL.revokeObjectURL(url);
      throw new IndexStartError(`its worker did not start (${error instanceof Error ? error.message : String(error)})`, { cause: error });
    }
    return started(worker, () => env.URL.revokeObjectURL(url));
  };
}

/** A Web Worker as an IndexWorker: the URL revoked at its first word or failure, one loss reported. */
function started(worker: WebWorkerLike, revoke: () => void): IndexWorker {
  let revoked = false;
  const revokeOnce = () => {
    if (revoked) return;
    revoked = true;
    revoke();
  };
  const listeners: ((error: Error) => void)[] = [];
  let lost: Error | null = null;
  const lose = (error: Error) => {
    revokeOnce();
    if (lost) return;
    lost = error;
    for (const listener of listeners) listener(error);
  };
  worker.addEventListener("message", () => revokeOnce());
  // An ErrorEvent names what failed; a script that could not even load gives a bare Event.
  worker.addEventListener("error", (event) => lose(new Error(typeof event.message === "string" && event.message !== "" ? event.message : "its worker's script did not run")));
  worker.addEventListener("messageerror", () => lose(new Error("its worker sent a message that could not be read")));
  return {
    port: worker,
    terminate: () => {
      revokeOnce();
      worker.terminate();
    },
    onLost: (listener) => {
      if (lost) listener(lost);
      else listeners.push(listener);
    },
  };
}
