// Builds the Obsidian plugin bundle (main.js, CommonJS) and the headless CLI (dist/cli.mjs, ESM).
import esbuild from "esbuild";
import { rmSync } from "node:fs";
import { pluginOptions } from "./scripts/build/plugin-options.mjs";

const production = process.argv.includes("production");

const plugin = pluginOptions(production);

const cli = {
  entryPoints: { cli: "src/cli/main.ts" },
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  outdir: "dist",
  outExtension: { ".js": ".mjs" },
  // Each command and each SDK in its own chunk, read from disk only when imported: `--help` and
  // `--version` parse a few kilobytes instead of the whole 2.6 MB bundle.
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  // The agent SDK ships a native binary and must stay a real package on disk.
  external: ["@anthropic-ai/claude-agent-sdk"],
  banner: { js: "#!/usr/bin/env node\nimport { createRequire as __synapseRequire } from 'node:module'; const require = __synapseRequire(import.meta.url);" },
  minify: false,
  sourcemap: false,
  logLevel: "info",
};

const which = process.argv.find((a) => a === "--plugin" || a === "--cli");
if (which !== "--cli") await esbuild.build(plugin);
if (which !== "--plugin") {
  // Chunk names carry hashes: clear the old ones so dist/ holds one build.
  rmSync("dist/chunks", { recursive: true, force: true });
  await esbuild.build(cli);
}
