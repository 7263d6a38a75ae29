// Builds the Obsidian plugin bundle (main.js, CommonJS) and the headless CLI (dist/cli.mjs, ESM).
import esbuild from "esbuild";
import { builtinModules } from "node:module";

const production = process.argv.includes("production");
const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

const plugin = {
  entryPoints: ["src/main.ts"],
  bundle: true,
  format: "cjs",
  platform: "browser",
  target: "es2022",
  outfile: "main.js",
  external: ["obsidian", "electron", "@codemirror/*", "@lezer/*", ...nodeBuiltins],
  minify: production,
  sourcemap: production ? false : "inline",
  logLevel: "info",
  treeShaking: true,
};

const cli = {
  entryPoints: { cli: "src/cli/main.ts" },
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  outdir: "dist",
  outExtension: { ".js": ".mjs" },
  // The agent SDK ships a native binary and must stay a real package on disk.
  external: ["@anthropic-ai/claude-agent-sdk"],
  banner: { js: "#!/usr/bin/env node\nimport { createRequire as __synapseRequire } from 'node:module'; const require = __synapseRequire(import.meta.url);" },
  minify: false,
  sourcemap: false,
  logLevel: "info",
};

const which = process.argv.find((a) => a === "--plugin" || a === "--cli");
if (which !== "--cli") await esbuild.build(plugin);
if (which !== "--plugin") await esbuild.build(cli);
