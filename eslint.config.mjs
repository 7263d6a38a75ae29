import { readdirSync } from "node:fs";
import { defineConfig } from "eslint/config";
import obsidianmd from "eslint-plugin-obsidianmd";
import tseslint from "typescript-eslint";

// Node-only parts of the project: the headless CLI, the companion bridge, the Node vault,
// the desktop streaming transport, tests, benchmarks and scripts. They never load on mobile.
const nodeOnly = [
  "src/cli/**",
  "src/bridge/**",
  "src/vault/node-vault.ts",
  "src/vault/node-fs-ops.ts",
  "src/vault/node-guarded-write.ts",
  "src/vault/node-note-read.ts",
  "src/vault/node-state-store.ts",
  "src/node/**",
  "src/vault/device-id.ts",
  "src/vault/node-vault-settings.ts",
  "src/providers/transports/node-fetch.ts",
  "test/**",
  "bench/**",
  "scripts/**",
];

// Contracts that several composition roots share (the bridge protocol, the readiness report) live
// in src/core; no layer below the roots reaches into a root's folder for them.
// `import { z } from "zod"` keeps zod's whole namespace, all ~40 locales included, in main.js.
// (no-restricted-imports' importNames would also refuse the namespace import, so this is a selector.)
const ZOD_NAMED = { selector: "ImportDeclaration[source.value='zod'][importKind!='type'] > ImportSpecifier[imported.name='z'][importKind!='type']", message: 'Use `import * as z from "zod"`: the named `z` bundles every zod locale.' };

const ROOTS_ONLY = { group: ["**/bridge/*", "!**/providers/**"], message: "Import shared contracts from src/core, not from the bridge's root." };


// The layers of src/ (docs/contributing/architecture.md): composition roots on top (main.ts, with
// obsidian/ and ui/ for the plugin; cli/, with the MCP server in cli/mcp; bridge/), the Node
// adapters (node/), then the operations (query/, lint/), the domain (wiki/, then write/; retrieval/,
// providers/), the base (vault/, settings/) and core/ at the bottom. Each folder may import the
// folders listed for it; every other import between folders is an error.
const LAYERS = {
  "main.ts": ["obsidian", "ui", "cli", "bridge", "node", "batch", "query", "lint", "wiki", "write", "retrieval", "providers", "vault", "settings", "core"],
  obsidian: ["ui", "batch", "query", "lint", "wiki", "write", "retrieval", "providers", "vault", "settings", "core"],
  ui: ["obsidian", "batch", "query", "lint", "wiki", "write", "retrieval", "providers", "vault", "settings", "core"],
  cli: ["bridge", "node", "batch", "query", "lint", "wiki", "write", "retrieval", "providers", "vault", "settings", "core"],
  // A batch ingest (src/batch) runs the ingest over the providers' batch APIs; the plugin and the CLI drive it.
  batch: ["query", "lint", "wiki", "write", "retrieval", "providers", "vault", "settings", "core"],
  bridge: ["node", "query", "lint", "wiki", "write", "retrieval", "providers", "vault", "settings", "core"],
  query: ["wiki", "write", "retrieval", "providers", "vault", "settings", "core"],
  lint: ["wiki", "write", "retrieval", "providers", "vault", "settings", "core"],
  // The Node write context (the CLI's, the bridge's): Node's process, host and device, and the write path's contract.
  node: ["write", "vault", "settings", "core"],
  wiki: ["write", "retrieval", "vault", "settings", "core"],
  write: ["vault", "settings", "core"],
  retrieval: ["vault", "settings", "core"],
  providers: ["settings", "core"],
  vault: ["settings", "core"],
  settings: ["core"],
  core: [],
};
// Imports against the order, each one named with its reason. `except` lists the files of the lower
// folder that may be imported.
const LAYER_EXCEPTIONS = {
  // A provider that embeds implements retrieval's `Embedder` contract (a type, from its door).
  providers: { retrieval: ["./index.ts"] },
};
const folderGlob = (folder) => (folder.endsWith(".ts") ? `./src/${folder}` : `./src/${folder}/**`);
const layerZones = Object.entries(LAYERS).flatMap(([target, allowed]) =>
  Object.keys(LAYERS)
    .filter((from) => from !== target && !allowed.includes(from))
    .map((from) => ({
      target: folderGlob(target),
      from: folderGlob(from).replace(/\/\*\*$/, ""),
      ...(LAYER_EXCEPTIONS[target]?.[from] ? { except: LAYER_EXCEPTIONS[target][from] } : {}),
      message: `src/${target} sits below src/${from} (docs/contributing/architecture.md, "Layers").`,
    })),
);

// Retrieval has one door, src/retrieval/index.ts (docs/contributing/retrieval.md): every other part
// of src/ imports that module only, so the rest of the folder (segments, shards, the update
// protocol's steps) can change freely. test/ and bench/ are outside the zone on purpose: tests check
// the internals themselves, and the benchmarks measure them (the quality benchmark fuses the
// index's own candidates under each setting).
const retrievalDoor = {
  target: readdirSync(new URL("./src", import.meta.url)).filter((name) => name !== "retrieval").map(folderGlob),
  from: "./src/retrieval",
  except: ["./index.ts"],
  message: "Import retrieval through its door, src/retrieval/index.ts (docs/contributing/retrieval.md).",
};

export default defineConfig([
  { ignores: ["node_modules/**", "dist/**", "main.js", "coverage/**", "examples/**", ".tmp/**", "*.config.mjs", "*.config.ts"] },
  // The recommended set's first block has no `files`; scope it to code so JSON files parse as JSON.
  ...obsidianmd.configs.recommended.map((c) => (c.files || c.language ? c : { ...c, files: ["**/*.{ts,mts,js,mjs,cjs}"] })),
  {
    files: ["**/*.{ts,mts}"],
    settings: { "import/resolver": { node: { extensions: [".ts", ".mjs", ".js"] } } },
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ["eslint.config.mjs"] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // TypeScript itself reports undefined names, with the right globals per file.
      "no-undef": "off",
      "@typescript-eslint/no-explicit-any": "error",
      "no-restricted-syntax": ["error", ZOD_NAMED],
      "import/no-restricted-paths": ["error", { zones: [...layerZones, retrievalDoor] }],
      "no-restricted-imports": [
        "error",
        { paths: [{ name: "gray-matter", message: "gray-matter evaluates ---js frontmatter; use the yaml package." }] },
      ],
    },
  },
  {
    // The pure core imports neither Obsidian nor Node built-ins (DESIGN.md layers).
    files: ["src/core/**/*.ts", "src/wiki/**/*.ts", "src/write/**/*.ts", "src/settings/**/*.ts", "src/proposals/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [{ name: "obsidian", message: "Core code stays Obsidian-free; use the ports." }],
          patterns: [{ group: ["node:*"], message: "Core code stays free of Node built-ins." }, ROOTS_ONLY],
        },
      ],
    },
  },
  {
    files: ["src/providers/**/*.ts", "src/obsidian/**/*.ts", "src/ui/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { paths: [{ name: "gray-matter", message: "gray-matter evaluates ---js frontmatter; use the yaml package." }], patterns: [ROOTS_ONLY] },
      ],
    },
  },
  {
    // Node programs and the desktop-only streaming transport (loaded behind Platform.isDesktopApp):
    // they must use Node modules, the global fetch of Node and the console by design.
    files: nodeOnly,
    rules: {
      "obsidianmd/no-nodejs-modules": "off",
      "no-restricted-globals": "off",
      "obsidianmd/prefer-window-timers": "off",
      "obsidianmd/no-global-this": "off",
      "no-console": "off",
      // The recommended set reports console use through this wrapper; keep its eval check only.
      "obsidianmd/rule-custom-message": "off",
      "no-new-func": "error",
      "obsidianmd/ui/sentence-case": "off",
      "obsidianmd/hardcoded-config-path": "off",
    },
  },
  {
    // Plain Node scripts (not type-checked by TypeScript).
    files: ["scripts/**/*.mjs"],
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly", Buffer: "readonly" } },
  },
  {
    // Runtime-neutral code runs in Obsidian and in Node (CLI, bridge), where there is no `window`;
    // it only uses timers that exist in both.
    files: ["src/core/**/*.ts", "src/providers/**/*.ts", "src/wiki/**/*.ts", "src/write/**/*.ts", "src/proposals/**/*.ts"],
    rules: { "obsidianmd/prefer-window-timers": "off" },
  },
  {
    // vitest's asymmetric matchers (expect.stringContaining…) are typed `any` by design.
    files: ["test/**/*.ts"],
    rules: { "@typescript-eslint/no-unsafe-assignment": "off" },
  },
  {
    // The manifest rule reads the TypeScript parser's JSON mode AST.
    files: ["manifest.json"],
    languageOptions: { parser: tseslint.parser },
    plugins: { obsidianmd },
    rules: { "obsidianmd/validate-manifest": "error" },
  },
]);
