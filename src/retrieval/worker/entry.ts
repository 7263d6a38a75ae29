/**
 * The search index's Web Worker script (built on its own by scripts/build/plugin-options.mjs and
 * inlined into main.js): the index served over the worker's own scope, which posts and receives
 * messages exactly as a port does.
 */
import { serveIndex } from "./host";
import type { IndexPort } from "./protocol";

serveIndex(globalThis as unknown as IndexPort);
