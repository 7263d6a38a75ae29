/**
 * The search index both ways it runs: in process (`openIndex`, the door) and in a "worker" — the
 * host (src/retrieval/worker/host.ts) at one end of a node:worker_threads MessageChannel, the
 * RemoteIndex at the other — so one contract test runs over both.
 */
import { MessageChannel, type MessagePort } from "node:worker_threads";
import { openIndex, type OpenOptions, type SearchIndex } from "../../../src/retrieval";
import type { IndexPort } from "../../../src/retrieval/worker/protocol";
import { RemoteIndex } from "../../../src/retrieval/worker/remote-index";
import { serveIndex } from "../../../src/retrieval/worker/host";

/** A node MessagePort as the protocol's port; `sent` records what went out with its transfer list. */
export function portOf(port: MessagePort, sent?: { message: unknown; transfer: readonly ArrayBuffer[] }[]): IndexPort {
  return {
    postMessage: (message, transfer = []) => {
      sent?.push({ message, transfer });
      port.postMessage(message, transfer);
    },
    addEventListener: (_type, listener) => port.on("message", (data: unknown) => listener({ data })),
  };
}

export interface Channel {
  readonly main: IndexPort;
  readonly worker: IndexPort;
  /** What the worker's end posted. */
  readonly fromWorker: { message: unknown; transfer: readonly ArrayBuffer[] }[];
  close(): void;
}

export function channel(): Channel {
  const { port1, port2 } = new MessageChannel();
  const fromWorker: { message: unknown; transfer: readonly ArrayBuffer[] }[] = [];
  return {
    main: portOf(port1),
    worker: portOf(port2, fromWorker),
    fromWorker,
    close: () => {
      port1.close();
      port2.close();
    },
  };
}

export type Opener = (options: OpenOptions) => Promise<SearchIndex>;

export const inProcess: Opener = (options) => openIndex(options);

export const inWorker: Opener = async (options) => {
  const ends = channel();
  serveIndex(ends.worker);
  return RemoteIndex.open(ends.main, options, () => ends.close());
};

export const OPENERS: readonly (readonly [string, Opener])[] = [
  ["in process", inProcess],
  ["in a worker", inWorker],
];
