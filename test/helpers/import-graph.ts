/**
 * The imports between the files of src/, read from their import and export statements. Type-only
 * imports (`import type`, `export type`) are left out: they vanish in the build and cannot make a
 * module evaluate before another. Dynamic `import("./x")` counts, marked lazy.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

export interface ImportEdge {
  readonly from: string;
  readonly to: string;
  readonly lazy: boolean;
}

const STATIC = /^\s*(?:import|export)\s+(?!type\b)(?:[^"';]*?\sfrom\s+)?["']([^"']+)["']/gm;
const DYNAMIC = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? sourceFiles(full) : name.endsWith(".ts") ? [full] : [];
  });
}

function resolveImport(fromFile: string, spec: string): string | null {
  if (!spec.startsWith(".")) return null;
  const base = resolve(dirname(fromFile), spec);
  for (const candidate of [`${base}.ts`, join(base, "index.ts"), base]) if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return null;
}

/** Every import edge between files of `root` (paths relative to it, "providers/factory.ts"). */
export function importEdges(root: string): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of sourceFiles(root)) {
    // Drop `import { type A, type B }` lists that name only types, and comments.
    const text = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
    const add = (spec: string, lazy: boolean) => {
      const target = resolveImport(file, spec);
      if (target) edges.push({ from: relative(root, file), to: relative(root, target), lazy });
    };
    for (const match of text.matchAll(STATIC)) {
      const statement = match[0];
      const names = /\{([^}]*)\}/.exec(statement)?.[1];
      const onlyTypes = names !== undefined && !/^\s*(?:import|export)\s+[\w*]/.test(statement.replace(/^\s*(?:import|export)\s+\{/, "{")) &&
        names.split(",").map((n) => n.trim()).filter(Boolean).every((n) => n.startsWith("type "));
      if (!onlyTypes) add(match[1] ?? "", false);
    }
    for (const match of text.matchAll(DYNAMIC)) add(match[1] ?? "", true);
  }
  return edges;
}

/** The folder of a src/ file ("providers/openai/x.ts" → "providers"; "main.ts" → "main.ts"). */
export function folderOf(path: string): string {
  const slash = path.indexOf("/");
  return slash < 0 ? path : path.slice(0, slash);
}

/** Strongly connected components with more than one member (Tarjan), each sorted, largest first. */
export function cycles(nodes: Iterable<string>, edges: readonly { from: string; to: string }[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let counter = 0;
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter);
    counter += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string | undefined;
      do {
        w = stack.pop();
        if (w === undefined) break;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) out.push(component.sort());
    }
  };
  for (const v of nodes) if (!index.has(v)) visit(v);
  return out.sort((a, b) => b.length - a.length || (a[0] ?? "").localeCompare(b[0] ?? ""));
}
