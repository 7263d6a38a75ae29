import type { BuildOptions, Metafile } from "esbuild";

/** The esbuild options of main.js; `production` minifies and drops the source map. */
export function pluginOptions(production: boolean): BuildOptions;

/** The esbuild options of the search index's Web Worker (a minified IIFE, built in memory). */
export function workerOptions(): BuildOptions;

/** The worker's script, gzipped, as base64 (inlined into main.js), and its metafile. */
export function buildIndexWorker(): Promise<{ script: Uint8Array; gzipped: Uint8Array; base64: string; metafile: Metafile }>;

/** The namespace of the inlined worker in main.js's metafile. */
export const INLINED_WORKER_NAMESPACE: string;
