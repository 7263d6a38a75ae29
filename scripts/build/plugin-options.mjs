// The esbuild options of the Obsidian plugin bundle (main.js), shared by esbuild.config.mjs and the
// size benchmark (bench/plugin-size.ts), so the bench measures exactly what the build ships.
import { builtinModules } from "node:module";
import { dirname, join, relative, sep } from "node:path";

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
    build.onResolve({ filter: /^@opentelemetry\/api$/ }, () => ({ path: "otel", namespace: "synapse-otel" }));
    build.onLoad({ filter: /.*/, namespace: "synapse-otel" }, () => ({ contents: OTEL_STAND_IN, loader: "js" }));
  },
};

// The openai client constructs every resource of the API in its constructor, so bundling the client
// bundles them all: Assistants and threads, Responses, Realtime, Admin, evals, vector stores…
// The plugin calls chat completions (the requests, streaming or not), embeddings and models (the
// readiness check), and the batch path files and batches. Every other top-level resource that the
// client or its resource index imports is replaced by an empty resource of the same name: the client
// still builds, and its property holds an object with no methods. The CLI build keeps the whole SDK.
const OPENAI_RESOURCES_USED = new Set(["chat", "embeddings", "models", "files", "batches", "shared"]);
const pascalCase = (name) => name.replace(/(?:^|-)(\w)/gu, (_, letter) => letter.toUpperCase());
const openaiUsedResources = {
  name: "openai-used-resources",
  setup(build) {
    build.onResolve({ filter: /^\.\/(?:resources\/)?[\w-]+(?:\/[\w-]+)?\.mjs$/ }, (args) => {
      const root = /(?:^|[/\\])node_modules[/\\]openai[/\\]/u.exec(args.importer);
      if (!root) return undefined;
      const packageRoot = args.importer.slice(0, root.index + root[0].length);
      const importer = relative(packageRoot, args.importer).split(sep).join("/");
      if (importer !== "client.mjs" && importer !== "resources/index.mjs") return undefined;
      const path = join(dirname(args.importer), args.path);
      // A resource is "x.mjs" or "x/x.mjs" under resources/, and its class is X.
      const match = /^([\w-]+)(?:\/([\w-]+))?\.mjs$/u.exec(relative(join(packageRoot, "resources"), path).split(sep).join("/"));
      const name = match?.[1];
      if (!name || (match[2] !== undefined && match[2] !== name) || name === "index" || OPENAI_RESOURCES_USED.has(name)) return undefined;
      // The real path keeps the stand-in's bytes counted as openai's in the size bench.
      return { path, namespace: "synapse-openai-unused", pluginData: { className: pascalCase(name) } };
    });
    build.onLoad({ filter: /.*/, namespace: "synapse-openai-unused" }, (args) => ({
      contents: `export class ${args.pluginData.className} { constructor(client) { this._client = client; } }`,
      loader: "js",
    }));
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
    plugins: [noFetchPolyfill, noOpenTelemetry, openaiUsedResources],
    // UTF-8 as it is instead of \\u escapes: smaller, and Obsidian reads main.js as UTF-8.
    charset: "utf8",
    minify: production,
    sourcemap: production ? false : "inline",
    logLevel: "info",
    treeShaking: true,
  };
}
