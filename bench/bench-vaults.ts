/** The vaults and queries the retrieval benchmarks share: the corpus's notes, copies of them at scale, queries from their names. */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { CORPUS } from "../test/helpers/corpus";

export function listNotes(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((p) => p.endsWith(".md"))
    .sort();
}

/** Queries from the notes themselves: the words of every 25th note's file name, in every language. */
export function queriesFor(paths: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < paths.length && out.length < 200; i += 25) {
    const name = (paths[i] ?? "").split("/").pop()?.replace(/\.md$/, "") ?? "";
    const words = name.split(/[\s_-]+/).filter(Boolean).slice(0, 3).join(" ");
    if (words) out.push(words);
  }
  return out;
}

/** A vault of `count` notes on disk, made by copying the corpus notes into numbered folders. */
export function syntheticVault(count: number): string {
  const root = mkdtempSync(join(tmpdir(), "synapse-bench-50k-"));
  const sources = listNotes(CORPUS);
  for (let i = 0; i < count; i++) {
    const source = sources[i % sources.length] as string;
    const copy = Math.floor(i / sources.length);
    const path = join(root, `copy-${copy}`, source);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${readFileSync(join(CORPUS, source), "utf8")}\n\nCopy ${copy} of this note, number ${i}.\n`);
  }
  return root;
}
