/**
 * The rest of src/ reaches retrieval through one module, src/retrieval/index.ts, type imports
 * included (ESLint's `import/no-restricted-paths` says so file by file; this says it in the tests).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = join(import.meta.dirname, "../../src");
const RETRIEVAL = join(SRC, "retrieval");
const DOOR = join(RETRIEVAL, "index.ts");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? sourceFiles(full) : name.endsWith(".ts") ? [full] : [];
  });
}

/** Every relative module a file names: imports, type imports, re-exports and dynamic imports. */
function namedModules(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specs = [...text.matchAll(/\bfrom\s+["'](\.[^"']+)["']|\bimport\(\s*["'](\.[^"']+)["']\s*\)/g)].map((m) => m[1] ?? m[2] ?? "");
  return specs.map((spec) => resolve(dirname(file), spec));
}

const insideRetrieval = (target: string) => target === RETRIEVAL || target.startsWith(`${RETRIEVAL}/`);
const isDoor = (target: string) => target === RETRIEVAL || target === DOOR.replace(/\.ts$/, "");

describe("retrieval's door", () => {
  it("is the only retrieval module the rest of src/ imports", () => {
    const outside = sourceFiles(SRC).filter((file) => !insideRetrieval(file));
    const through = outside.flatMap((file) => namedModules(file).filter((target) => insideRetrieval(target) && !isDoor(target)).map((target) => `${relative(SRC, file)} → ${relative(SRC, target)}`));
    expect(through).toEqual([]);
    // The door is used, so the check above looks at real imports.
    expect(outside.some((file) => namedModules(file).some(isDoor))).toBe(true);
  });
});
