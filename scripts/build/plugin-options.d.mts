import type { BuildOptions } from "esbuild";

/** The esbuild options of main.js; `production` minifies and drops the source map. */
export function pluginOptions(production: boolean): BuildOptions;
