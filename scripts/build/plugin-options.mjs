// The esbuild options of the Obsidian plugin bundle (main.js), shared by esbuild.config.mjs and the
// size benchmark (bench/plugin-size.ts), so the bench measures exactly what the build ships.
import { builtinModules } from "node:module";

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
    plugins: [noFetchPolyfill],
    minify: production,
    sourcemap: production ? false : "inline",
    logLevel: "info",
    treeShaking: true,
  };
}
