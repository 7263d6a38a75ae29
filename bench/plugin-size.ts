/**
 * Where main.js's bytes come from: the plugin bundle built again in memory with the build's own
 * options and esbuild's metafile, its output bytes summed per npm package (our code as "src/").
 */
import esbuild from "esbuild";
import { pluginOptions } from "../scripts/build/plugin-options.mjs";

export interface PackageBytes {
  readonly name: string;
  readonly bytes: number;
}

export interface BundleSize {
  /** Bytes of the minified bundle, as `npm run build` writes main.js. */
  readonly total: number;
  /** Largest first; what esbuild does not attribute to an input (its runtime helpers) is "(esbuild)". */
  readonly packages: readonly PackageBytes[];
  /** The bundled files that left bytes in main.js, as esbuild names them ("node_modules/zod/…"). */
  readonly inputs: readonly string[];
}

/** "node_modules/@scope/name/x.js" → "@scope/name"; our own files → "src/". */
export function packageOf(input: string): string {
  // The last node_modules in the path: a nested copy counts as the package it is.
  const match = /^(?:.*\/)?node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
  if (match?.[1]) return match[1];
  return input.startsWith("src/") ? "src/" : input;
}

export async function measureBundle(): Promise<BundleSize> {
  const result = await esbuild.build({ ...pluginOptions(true), write: false, metafile: true, logLevel: "error" });
  const output = result.metafile ? Object.values(result.metafile.outputs)[0] : undefined;
  const file = result.outputFiles?.[0];
  if (!output || !file) throw new Error("esbuild wrote no plugin bundle.");
  const perPackage = new Map<string, number>();
  let attributed = 0;
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    const name = packageOf(input);
    perPackage.set(name, (perPackage.get(name) ?? 0) + bytesInOutput);
    attributed += bytesInOutput;
  }
  const total = file.contents.byteLength;
  perPackage.set("(esbuild)", total - attributed);
  const packages = [...perPackage].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => b.bytes - a.bytes);
  const inputs = Object.entries(output.inputs).filter(([, input]) => input.bytesInOutput > 0).map(([path]) => path);
  return { total, packages, inputs };
}
