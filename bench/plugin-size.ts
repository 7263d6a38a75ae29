/**
 * Where main.js's bytes come from: the plugin bundle built again in memory with the build's own
 * options and esbuild's metafile, its output bytes summed per npm package (our code as "src/").
 */
import esbuild from "esbuild";
import { pluginOptions } from "../scripts/build/plugin-options.mjs";
import type { BenchResult } from "./stats";

/** main.js's budget: a decimal 1.0 MB, minified (test/bench/plugin-size.test.ts holds it). */
export const SIZE_LIMIT_BYTES = 1_000_000;

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

/**
 * "node_modules/@scope/name/x.js" → "@scope/name"; our own files → "src/". A build plugin's
 * stand-in ("synapse-otel:@opentelemetry/api") counts as the package it stands in for.
 */
export function packageOf(input: string): string {
  const path = input.replace(/^[\w-]+:/, "");
  // The last node_modules in the path: a nested copy counts as the package it is.
  const match = /^(?:.*\/)?node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (match?.[1]) return match[1];
  return path.startsWith("src/") ? "src/" : path;
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

/** main.js's size against its budget, then one row per package, largest first: a package that grows shows up here first. */
export function sizeResults(bundle: BundleSize): BenchResult[] {
  return [
    {
      name: "plugin: main.js size (minified)",
      value: bundle.total / 1_000_000,
      unit: "MB",
      target: `≤ ${SIZE_LIMIT_BYTES.toLocaleString("en")} bytes`,
      pass: bundle.total <= SIZE_LIMIT_BYTES,
      note: `${bundle.total.toLocaleString("en")} bytes`,
    },
    ...bundle.packages.map((p) => ({
      name: `plugin: main.js bytes from ${p.name}`,
      value: p.bytes / 1000,
      unit: "KB",
      note: `${((100 * p.bytes) / bundle.total).toFixed(1)} %${p.name === "src/" ? ", Synapse's own code" : ""}`,
    })),
  ];
}
