/** The search index's worker under Node (node:worker_threads), for bench/index-worker.ts: the host over the parent port. */
import { parentPort } from "node:worker_threads";
import { serveIndex } from "../src/retrieval/worker/host";

const port = parentPort;
if (!port) throw new Error("Run as a worker thread.");
serveIndex({ postMessage: (message, transfer = []) => port.postMessage(message, transfer), addEventListener: (_type, listener) => port.on("message", (data: unknown) => listener({ data })) });
