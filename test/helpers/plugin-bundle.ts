/**
 * Modules of src/ bundled the way main.js bundles them (the plugin's own esbuild options and build
 * plugins, scripts/build/plugin-options.mjs) and evaluated as CommonJS, so a test can drive what
 * the plugin really ships — the SDKs with their unused parts left out — instead of the packages
 * as installed.
 */
import { createRequire } from "node:module";
import { runInThisContext } from "node:vm";
import esbuild from "esbuild";
import { pluginOptions } from "../../scripts/build/plugin-options.mjs";

/** `source` is an entry module's text (its imports relative to the repository root). */
export async function bundleAsPlugin(source: string): Promise<Record<string, unknown>> {
  const { entryPoints: _entry, outfile: _outfile, ...options } = pluginOptions(true);
  const result = await esbuild.build({ ...options, stdin: { contents: source, resolveDir: process.cwd(), loader: "ts" }, write: false, logLevel: "error" });
  const module = { exports: {} as Record<string, unknown> };
  const wrapper = runInThisContext(`(function (require, module, exports) {\n${result.outputFiles?.[0]?.text ?? ""}\n})`, { filename: "plugin-bundle.js" }) as (
    require: NodeJS.Require,
    module: { exports: Record<string, unknown> },
    exports: Record<string, unknown>,
  ) => void;
  wrapper(createRequire(import.meta.url), module, module.exports);
  return module.exports;
}
