/**
 * A Web Worker for tests of the built main.js, backed by a node:worker_threads thread: what the
 * plugin hands `new Worker` (a Blob URL of the script it unpacked) is read back and run in a real
 * thread, with `self` standing for the worker's scope. So the bundle's own worker script — the one
 * Obsidian would start — serves the index, and nothing of the sources stands in for it.
 */
import { Worker as NodeWorker } from "node:worker_threads";

/** The scripts behind the Blob URLs made while installed, by URL. */
const scripts = new Map<string, Promise<string>>();
let made = 0;
const started = new Set<NodeWorker>();

// The worker scope's two members the index's entry uses, over the thread's parent port.
const SCOPE = `const { parentPort } = require("node:worker_threads");
globalThis.self = globalThis;
globalThis.postMessage = (message, transfer) => parentPort.postMessage(message, transfer ?? []);
globalThis.addEventListener = (type, listener) => { if (type === "message") parentPort.on("message", (data) => listener({ data })); };
`;

type Listener = (event: { readonly data?: unknown; readonly message?: unknown }) => void;

class ThreadWorker {
  private readonly thread: Promise<NodeWorker>;

  constructor(url: string) {
    const script = scripts.get(url);
    if (!script) throw new Error(`No script behind ${url}`);
    this.thread = script.then((code) => {
      const thread = new NodeWorker(SCOPE + code, { eval: true });
      started.add(thread);
      void thread.once("exit", () => started.delete(thread));
      return thread;
    });
  }

  postMessage(message: unknown, transfer: ArrayBuffer[] = []): void {
    void this.thread.then((thread) => thread.postMessage(message, transfer));
  }

  addEventListener(type: "message" | "error" | "messageerror", listener: Listener): void {
    void this.thread.then((thread) => {
      if (type === "message") thread.on("message", (data: unknown) => listener({ data }));
      else if (type === "error") thread.on("error", (error: Error) => listener({ message: error.message }));
      else thread.on("messageerror", () => listener({}));
    });
  }

  terminate(): void {
    void this.thread.then((thread) => thread.terminate());
  }
}

/** Puts `Worker` and a recording `URL.createObjectURL` on the global scope; the returned function undoes both and ends every thread. */
export function installThreadWorkers(): () => Promise<void> {
  const scope = globalThis as { Worker?: unknown };
  const hadWorker = "Worker" in scope;
  const previousWorker = scope.Worker;
  const create = Object.getOwnPropertyDescriptor(URL, "createObjectURL");
  const revoke = Object.getOwnPropertyDescriptor(URL, "revokeObjectURL");
  scope.Worker = ThreadWorker;
  URL.createObjectURL = (blob: Blob) => {
    const url = `blob:synapse-test/${(made += 1)}`;
    scripts.set(url, blob.text());
    return url;
  };
  URL.revokeObjectURL = (url: string) => void scripts.delete(url);
  return async () => {
    if (hadWorker) scope.Worker = previousWorker;
    else delete scope.Worker;
    if (create) Object.defineProperty(URL, "createObjectURL", create);
    if (revoke) Object.defineProperty(URL, "revokeObjectURL", revoke);
    await Promise.all([...started].map((thread) => thread.terminate()));
  };
}
