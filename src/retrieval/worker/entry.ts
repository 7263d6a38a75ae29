/**
 * The search index's Web Worker: its script's entry, bundled on its own (with no zod and no yaml,
 * test/architecture/worker-bundle.test.ts) and started by the plugin. It serves one index over the
 * worker's own scope until the plugin terminates it.
 */
import type { IndexPort } from "./protocol";
import { serveIndex } from "./host";

/**
 * The worker global's side of the channel, typed here alone: the project compiles against the DOM
 * library, whose `self` is a Window (whose `postMessage` takes a target origin), not a worker scope.
 */
interface WorkerScope {
  postMessage(message: unknown, transfer: Transferable[]): void;
  addEventListener(type: "message", listener: (event: MessageEvent<unknown>) => void): void;
}

const scope = self as unknown as WorkerScope;

serveIndex({
  postMessage: (message, transfer = []) => scope.postMessage(message, transfer),
  addEventListener: (_type, listener) => scope.addEventListener("message", (event) => listener({ data: event.data })),
} satisfies IndexPort);
