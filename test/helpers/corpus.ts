/** Notes from ../shared/corpora/obsidian-help (read-only), located from the repository root. */
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const CANDIDATES = [
  new URL("../../../shared/corpora/obsidian-help", import.meta.url).pathname,
  new URL("../../../../shared/corpora/obsidian-help", import.meta.url).pathname,
];

export const CORPUS = CANDIDATES.find((dir) => existsSync(dir)) ?? CANDIDATES[0] ?? "";

export function corpusNotes(language: string, limit = Number.POSITIVE_INFINITY): { path: string; text: string }[] {
  const root = join(CORPUS, language);
  const out: { path: string; text: string }[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      if (out.length >= limit) return;
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith(".md")) out.push({ path: full.slice(root.length + 1), text: readFileSync(full, "utf8") });
    }
  };
  walk(root);
  return out;
}
