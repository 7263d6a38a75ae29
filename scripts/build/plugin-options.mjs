// The esbuild options of the Obsidian plugin bundle (main.js), shared by esbuild.config.mjs and the
// size benchmark (bench/plugin-size.ts), so the bench measures exactly what the build ships.
import { builtinModules } from "node:module";
import { gzipSync } from "node:zlib";
import esbuild from "esbuild";
import { anthropicUsedParts } from "./anthropic-used-parts.mjs";
import { openaiUsedParts } from "./openai-used-parts.mjs";

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

// ollama's browser entry imports the whatwg-fetch polyfill, which installs itself only where no
// `fetch` exists. Obsidian always has one, and Synapse hands the Ollama client its own fetch
// (requestUrl or the streaming transport), so the polyfill is dead weight in main.js.
const noFetchPolyfill = {
  name: "no-fetch-polyfill",
  setup(build) {
    build.onResolve({ filter: /^whatwg-fetch$/ }, () => ({ path: "whatwg-fetch", namespace: "synapse-empty" }));
    build.onLoad({ filter: /.*/, namespace: "synapse-empty" }, () => ({ contents: "", loader: "js" }));
  },
};

// The Anthropic SDK traces its calls with OpenTelemetry when the application has registered a tracer
// provider. Obsidian has none, so the SDK's tracing always takes its "no tracer" path; this stand-in
// gives exactly that path (no tracer, no propagated headers) without bundling @opentelemetry/api.
const OTEL_STAND_IN = `
const noTracer = { getTracer: () => undefined };
module.exports = {
  context: { active: () => ({}), with: (_context, fn, thisArg, ...args) => fn.apply(thisArg, args) },
  trace: { getTracerProvider: () => noTracer, setSpan: (context) => context, isSpanContextValid: () => false },
  propagation: { fields: () => [], inject: () => {} },
  SpanKind: { INTERNAL: 0, SERVER: 1, CLIENT: 2, PRODUCER: 3, CONSUMER: 4 },
  SpanStatusCode: { UNSET: 0, OK: 1, ERROR: 2 },
};`;
const noOpenTelemetry = {
  name: "no-opentelemetry",
  setup(build) {
    build.onResolve({ filter: /^@opentelemetry\/api$/ }, () => ({ path: "@opentelemetry/api", namespace: "synapse-otel" }));
    build.onLoad({ filter: /.*/, namespace: "synapse-otel" }, () => ({ contents: OTEL_STAND_IN, loader: "js" }));
  },
};

/**
 * The search index's Web Worker (src/retrieval/worker/entry.ts): a minified IIFE of its own, with
 * none of the plugin's SDKs. main.js carries it gzipped, as base64 (index-worker-script.ts).
 */
export function workerOptions() {
  return {
    entryPoints: ["src/retrieval/worker/entry.ts"],
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "es2022",
    charset: "utf8",
    minify: true,
    treeShaking: true,
    write: false,
    logLevel: "error",
  };
}

/** Builds the worker's script: its bytes, gzipped and as base64 (what main.js holds), and esbuild's metafile. */
export async function buildIndexWorker() {
  const result = await esbuild.build({ ...workerOptions(), metafile: true });
  const file = result.outputFiles?.[0];
  if (!file || !result.metafile) throw new Error("esbuild wrote no index worker.");
  const gzipped = gzipSync(file.contents, { level: 9 });
  return { script: file.contents, gzipped, base64: gzipped.toString("base64"), metafile: result.metafile };
}

/** The namespace of the inlined worker in main.js's metafile (bench/plugin-size.ts names its row by it). */
export const INLINED_WORKER_NAMESPACE = "synapse-index-worker";

// src/obsidian/index-worker-script.ts says "no worker script" when the sources run unbundled (the
// tests inject their own worker); the build puts the worker it has just built there instead.
const inlineIndexWorker = {
  name: "inline-index-worker",
  setup(build) {
    build.onResolve({ filter: /\/index-worker-script(\.ts)?$/ }, () => ({ path: "index-worker", namespace: INLINED_WORKER_NAMESPACE }));
    build.onLoad({ filter: /.*/, namespace: INLINED_WORKER_NAMESPACE }, async () => {
      const { base64 } = await buildIndexWorker();
      return { contents: `export const INDEX_WORKER_GZIP_BASE64 = ${JSON.stringify(base64)};`, loader: "js" };
    });
  },
};

/** @param {boolean} production */
export function pluginOptions(production) {
  return {
    entryPoints: ["src/main.ts"],
    bundle: true,
    format: "cjs",
    platform: "browser",
    target: "es2022",
    outfile: "main.js",
    external: ["obsidian", "electron", "@codemirror/*", "@lezer/*", ...nodeBuiltins],
    plugins: [inlineIndexWorker, noFetchPolyfill, noOpenTelemetry, openaiUsedParts, anthropicUsedParts],
    // UTF-8 as it is instead of \\u escapes: smaller, and Obsidian reads main.js as UTF-8.
    charset: "utf8",
    minify: production,
    sourcemap: production ? false : "inline",
    logLevel: "info",
    treeShaking: true,
  };
}
