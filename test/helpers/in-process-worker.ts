/**
 * The plugin's index worker, in process: the real host (`serveIndex`) at one end of a
 * node:worker_threads MessageChannel, the plugin's RemoteIndex at the other, so plugin tests run
 * the index through the same protocol as Obsidian's Web Worker. Also, for tests that look inside,
 * the VaultIndex each worker opened (`indexBehind`), and a hook that runs before each call the
 * worker makes to the main thread is delivered (a note read, a shard written, `stillCurrent`): a
 * test can act at that point of the worker's work — the event a time slice's yield used to be.
 */
import { MessageChannel } from "node:worker_threads";
import type { IndexWorker, IndexWorkerFactory } from "../../src/obsidian/index-worker";
import type { IndexPort, SearchIndex } from "../../src/retrieval";
import { serveIndex } from "../../src/retrieval/worker/host";
import type { Call } from "../../src/retrieval/worker/protocol";
import { VaultIndex } from "../../src/retrieval/vault-index";

/** The VaultIndex opened behind each main-thread port. */
const behind = new WeakMap<IndexPort, Promise<VaultIndex>>();

// Which port's worker is handling an "open" request right now: the host calls VaultIndex.open
// synchronously as it receives it, so the index it opens is that worker's.
let opening: IndexPort | null = null;
const open = VaultIndex.open.bind(VaultIndex);
VaultIndex.open = (options) => {
  const index = open(options);
  if (opening) behind.set(opening, index);
  return index;
};

export interface InProcessWorkerOptions {
  /** Runs before a call of the worker reaches the main thread; the call (and every message after it) waits for it. */
  readonly onCall?: (call: Call) => Promise<void> | void;
  /** Each worker started, as it starts (a test ends one, or watches it terminated). */
  readonly started?: (worker: InProcessWorker) => void;
}

export interface InProcessWorker extends IndexWorker {
  readonly terminated: boolean;
  /** Makes the worker fail as a Web Worker's uncaught error would. */
  fail(error: Error): void;
}

export function inProcessWorker(options: InProcessWorkerOptions = {}): IndexWorkerFactory {
  return () => {
    const { port1, port2 } = new MessageChannel();
    // A test need not close the plugin for its process to end.
    port1.unref();
    port2.unref();
    const workerEnd: IndexPort = {
      postMessage: (message, transfer = []) => port2.postMessage(message, transfer),
      addEventListener: (_type, listener) =>
        port2.on("message", (data: unknown) => {
          const isOpen = typeof data === "object" && data !== null && (data as { op?: unknown }).op === "open";
          if (isOpen) opening = main;
          try {
            listener({ data });
          } finally {
            if (isOpen) opening = null;
          }
        }),
    };
    let delivered: Promise<void> = Promise.resolve();
    const main: IndexPort = {
      postMessage: (message, transfer = []) => port1.postMessage(message, transfer),
      addEventListener: (_type, listener) =>
        port1.on("message", (data: unknown) => {
          const hook = options.onCall;
          if (!hook) return listener({ data });
          // In order: a call the hook holds holds every message after it.
          delivered = delivered.then(async () => {
            if ((data as { type?: unknown }).type === "call") await hook(data as Call);
            listener({ data });
          });
        }),
    };
    serveIndex(workerEnd);
    const lost: ((error: Error) => void)[] = [];
    const worker: InProcessWorker = {
      port: main,
      terminated: false,
      terminate: () => {
        (worker as { terminated: boolean }).terminated = true;
        port1.close();
        port2.close();
      },
      onLost: (listener) => void lost.push(listener),
      fail: (error) => {
        for (const listener of lost) listener(error);
      },
    };
    options.started?.(worker);
    return Promise.resolve(worker);
  };
}

/** The VaultIndex behind an index an in-process worker serves (its tables, its graph), for tests that look inside. */
export function indexBehind(index: SearchIndex): Promise<VaultIndex> {
  // RemoteIndex keeps its port private: a test may look where src/ may not.
  const port = (index as unknown as { port?: IndexPort }).port;
  const found = port ? behind.get(port) : undefined;
  if (!found) throw new Error("This index is not served by an in-process worker.");
  return found;
}
