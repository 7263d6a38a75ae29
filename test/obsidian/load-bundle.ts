/**
 * Evaluates the built `main.js` the way Obsidian does: a CommonJS module whose `require` is the
 * app's. The caller decides what `require` returns (the mocks for "obsidian", and whether Node's
 * built-ins exist, as on desktop, or throw, as on mobile).
 */
import { runInThisContext } from "node:vm";

export interface BundleModule {
  exports: Record<string, unknown>;
}

export function evaluateBundle(source: string, require: (id: string) => unknown): BundleModule {
  const module: BundleModule = { exports: {} };
  const wrapper = runInThisContext(`(function (require, module, exports) {\n${source}\n})`, { filename: "main.js" }) as (
    require: (id: string) => unknown,
    module: BundleModule,
    exports: Record<string, unknown>,
  ) => void;
  wrapper(require, module, module.exports);
  return module;
}

/** A `require` for a phone: Node's built-ins are not there. */
export function mobileRequire(obsidian: unknown, calls: string[] = []): (id: string) => unknown {
  return (id) => {
    calls.push(id);
    if (id === "obsidian") return obsidian;
    throw new Error(`Cannot find module '${id}' (there is no Node.js on mobile)`);
  };
}
