/**
 * The search index in a worker thread (node:worker_threads) behind a RemoteIndex, as the plugin
 * runs it in a Web Worker: the host (bench/index-worker-node.ts) bundled by esbuild as the plugin's
 * worker script is (a worker thread does not take tsx's loader), every message it sends timed on
 * this thread (main-thread-tasks.ts).
 *
 * A browser gives each message from a worker a task of its own, so the page can paint and answer
 * input between two; Node hands every message queued on a worker's port to its listener in one
 * turn of its loop (a thousand at least), which would make the catalogue's pieces of one reply,
 * say, one long task that Obsidian never has. Here each message is handed on in a turn of its own
 * (setImmediate), in order, as the browser does.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import esbuild from "esbuild";
import { RemoteIndex, type RemoteIndexOptions } from "../src/retrieval/worker/remote-index";
import type { MainThreadTasks } from "./main-thread-tasks";

let script: Promise<string> | null = null;

/** The worker's script, bundled once per process: await it before a measured phase, which the bundling is no part of. */
export function workerScript(): Promise<string> {
  script ??= (async () => {
    const outfile = join(mkdtempSync(join(tmpdir(), "synapse-index-worker-")), "index-worker.cjs");
    await esbuild.build({ entryPoints: [new URL("./index-worker-node.ts", import.meta.url).pathname], bundle: true, platform: "node", format: "cjs", outfile, logLevel: "error" });
    return outfile;
  })();
  return script;
}

/** `handle` called with each message in a turn of the event loop of its own, in the order they came. */
function oneATurn(handle: (data: unknown) => void): (data: unknown) => void {
  let queue: unknown[] = [];
  let next = 0;
  const handOn = () => {
    handle(queue[next]);
    queue[next++] = undefined;
    if (next < queue.length) setImmediate(handOn);
    else {
      queue = [];
      next = 0;
    }
  };
  return (data) => {
    queue.push(data);
    if (queue.length === next + 1) setImmediate(handOn);
  };
}

/** Starts a worker thread and opens the index in it (its shards loaded through `options.store`). */
export async function openInWorkerThread(options: RemoteIndexOptions, tasks: MainThreadTasks): Promise<RemoteIndex> {
  // No tsx in the worker: its script is bundled JavaScript, as the plugin's is.
  const worker = new Worker(await workerScript(), { execArgv: [] });
  const port = {
    postMessage: (message: unknown, transfer: ArrayBuffer[] = []) => worker.postMessage(message, transfer),
    addEventListener: (_type: "message", listener: (event: { readonly data: unknown }) => void) => {
      worker.on("message", oneATurn(tasks.handler((data) => listener({ data }))));
    },
  };
  const index = await RemoteIndex.open(port, options, () => void worker.terminate());
  worker.on("error", (error) => index.lost(error));
  return index;
}
