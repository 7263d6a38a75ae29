/**
 * One cold plugin start, in its own process (run by plugin.bench.ts): evaluate main.js and call
 * onload once, as Obsidian does, then print `{"evalMs","onloadMs"}` as the last line.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { evaluateBundle } from "../test/obsidian/load-bundle";
import { installDom } from "./plugin.bench";

const ROOT = process.cwd();
installDom();
const require = createRequire(join(ROOT, "package.json"));
(require("obsidian-test-mocks/setup") as { setup(): void }).setup();
const mocks = require("obsidian-test-mocks/obsidian") as { App: { createConfigured__(): { asOriginalType__(): unknown } } };
const manifest = JSON.parse(readFileSync(join(ROOT, "manifest.json"), "utf8")) as unknown;
const source = readFileSync(join(ROOT, "main.js"), "utf8");
const evalStart = performance.now();
const module = evaluateBundle(source, (id) => (id === "obsidian" ? mocks : require(id)));
const evalMs = performance.now() - evalStart;
const SynapsePlugin = module.exports.default as new (app: unknown, manifest: unknown) => { onload(): Promise<void> };
const plugin = new SynapsePlugin(mocks.App.createConfigured__().asOriginalType__(), manifest);
const start = performance.now();
await plugin.onload();
const onloadMs = performance.now() - start;
process.stdout.write(`${JSON.stringify({ evalMs, onloadMs })}\n`);
process.exit(0);
