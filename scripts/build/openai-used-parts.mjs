// The parts of the openai SDK that main.js bundles. The client constructs every resource of the API
// in its constructor, so bundling the client bundles them all (Assistants and threads, Responses,
// Realtime, Admin, evals, vector stores…), and chat completions carry the SDK's stream(), parse()
// and runTools() helpers. The plugin calls chat.completions.create (streaming or not; it reads the
// chunks itself), embeddings and models (the readiness check), and, for the batch path, files and
// batches. What else the client imports is replaced by a stand-in of the same name: the client
// still builds, an unused resource is an object without methods, and a helper says it is not here.
// The CLI build keeps the whole SDK.
import { dirname, join, relative, sep } from "node:path";

const RESOURCES_USED = new Set(["chat", "embeddings", "models", "files", "batches", "shared"]);

const unavailable = (what) => `() => { throw new Error("${what} is not part of the Synapse plugin's openai client (scripts/build/openai-used-parts.mjs)."); }`;

/** chat.completions' helpers, by the file completions.mjs imports them from: each export as a stand-in. */
const CHAT_HELPERS = {
  "lib/ChatCompletionRunner.mjs": `export class ChatCompletionRunner { static runTools = ${unavailable("chat.completions.runTools")}; }`,
  "lib/ChatCompletionStreamingRunner.mjs": `export class ChatCompletionStreamingRunner { static runTools = ${unavailable("chat.completions.runTools")}; }`,
  "lib/ChatCompletionStream.mjs": `export class ChatCompletionStream { static createChatCompletion = ${unavailable("chat.completions.stream")}; }`,
  "lib/parser.mjs": `export const parseChatCompletion = ${unavailable("chat.completions.parse")};\nexport const validateInputTools = ${unavailable("chat.completions.parse")};`,
  "lib/RunnableFunction.mjs": `export class ParsingToolFunction { constructor() { (${unavailable("ParsingToolFunction")})(); } }`,
};

const pascalCase = (name) => name.replace(/(?:^|-)(\w)/gu, (_, letter) => letter.toUpperCase());
/** "a\\b" → "a/b", so the rules below read the same on Windows. */
const posix = (path) => path.split(sep).join("/");

/** The stand-in for `path` imported by `importer` (both inside the package at `root`), or undefined to bundle the real module. */
function standIn(root, importer, path) {
  const from = posix(relative(root, importer));
  const target = posix(relative(root, path));
  if (from === "client.mjs" || from === "resources/index.mjs") {
    // A resource is resources/x.mjs or resources/x/x.mjs, and its class is X.
    const match = /^resources\/([\w-]+)(?:\/([\w-]+))?\.mjs$/u.exec(target);
    const name = match?.[1];
    if (!name || (match[2] !== undefined && match[2] !== name) || name === "index" || RESOURCES_USED.has(name)) return undefined;
    return `export class ${pascalCase(name)} { constructor(client) { this._client = client; } }`;
  }
  if (from === "resources/chat/completions/completions.mjs") return CHAT_HELPERS[target];
  return undefined;
}

/** The esbuild plugin of the plugin build that keeps only the openai parts Synapse uses. */
export const openaiUsedParts = {
  name: "openai-used-parts",
  setup(build) {
    build.onResolve({ filter: /^\.\.?\/.*\.mjs$/ }, (args) => {
      const root = /(?:^|[/\\])node_modules[/\\]openai[/\\]/u.exec(args.importer);
      if (!root) return undefined;
      const path = join(dirname(args.importer), args.path);
      const contents = standIn(args.importer.slice(0, root.index + root[0].length), args.importer, path);
      // The real path keeps the stand-in's bytes counted as openai's in the size bench.
      return contents === undefined ? undefined : { path, namespace: "synapse-openai-stand-in", pluginData: { contents } };
    });
    build.onLoad({ filter: /.*/, namespace: "synapse-openai-stand-in" }, (args) => ({ contents: args.pluginData.contents, loader: "js" }));
  },
};
