/**
 * The search index's worker script, gzipped, as base64. The build puts the worker it has just
 * built here (scripts/build/plugin-options.mjs, `inlineIndexWorker`); the sources run unbundled —
 * the tests — have none, and inject a worker of their own.
 */
export const INDEX_WORKER_GZIP_BASE64: string | null = null;
