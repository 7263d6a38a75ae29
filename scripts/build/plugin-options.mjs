// The esbuild options of the Obsidian plugin bundle (main.js), shared by esbuild.config.mjs and the
// size benchmark (bench/plugin-size.ts), so the bench measures exactly what the build ships.
import { builtinModules } from "node:module";
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
    plugins: [noFetchPolyfill, noOpenTelemetry, openaiUsedParts, anthropicUsedParts],
    // UTF-8 as it is instead of \\u escapes: smaller, and Obsidian reads main.js as UTF-8.
    charset: "utf8",
    minify: production,
    sourcemap: production ? false : "inline",
    logLevel: "info",
    treeShaking: true,
  };
}
