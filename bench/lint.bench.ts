/**
 * Lint's exact checks on a 5,000-page wiki on disk (target: under 5 s and under 300 MB). The wiki
 * is written once into a temporary folder: pages of every type with sources, links between them,
 * some dangling, and 500 source notes; the checks run in a fresh process so its peak memory is
 * lint's alone (a bare `node -e 0` peak is printed beside it).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { z } from "zod";
import type { BenchResult } from "./stats";

const PAGES = 5000;
const NOTES = 500;
const TARGET_MS = 5000;
const TARGET_MB = 300;
const FOLDERS = ["entities", "concepts", "sources", "syntheses", "comparisons"] as const;
const TYPES = ["entity", "concept", "source", "synthesis", "comparison"] as const;

const Output = z.object({ ms: z.number(), peakMb: z.number(), pages: z.number(), findings: z.number() });

function write(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

function makeWiki(): string {
  const root = mkdtempSync(join(tmpdir(), "synapse-bench-lint-"));
  for (let n = 0; n < NOTES; n++) write(root, `notes/Note ${n}.md`, `# Note ${n}\n\nAbout [[Topic ${n * 10}]] and [[Topic ${n * 10 + 1}]].\n`);
  const index = ["# Wiki index", ""];
  for (let i = 0; i < PAGES; i++) {
    const kind = i % FOLDERS.length;
    const links = [1, 7, 31].map((d) => `[[Topic ${(i + d) % PAGES}]]`).join(", ");
    const dangling = i % 50 === 0 ? ` See [[Topic ${i} typo]].` : "";
    const body = `# Topic ${i}\n\nTopic ${i} relates to ${links}.${dangling}\n\n${"A sentence of ordinary length about this topic and its history. ".repeat(12)}\n`;
    const fm = `---\ntype: ${TYPES[kind]}\ntitle: Topic ${i}\nsources:\n  - notes/Note ${Math.floor(i / 10) % NOTES}.md\naliases:\n  - T${i}\ntags: []\n---\n\n`;
    write(root, `wiki/${FOLDERS[kind]}/Topic ${i}.md`, fm + body);
    index.push(`- [[wiki/${FOLDERS[kind]}/Topic ${i}|Topic ${i}]]`);
  }
  write(root, "wiki/index.md", `${index.join("\n")}\n`);
  return root;
}

function peakOfBareNode(): number {
  const run = spawnSync(process.execPath, ["-e", "console.log(process.resourceUsage().maxRSS / 1024)"], { encoding: "utf8" });
  return Number(run.stdout.trim());
}

export function benchLint(): BenchResult[] {
  const root = makeWiki();
  try {
    const runs = [0, 1, 2].map(() => {
      const child = spawnSync(process.execPath, ["--import", "tsx", join(import.meta.dirname, "lint-wiki.ts"), root], { encoding: "utf8" });
      if (child.status !== 0) throw new Error(`lint-wiki.ts failed: ${child.stderr}`);
      return Output.parse(JSON.parse(child.stdout.trim().split("\n").pop() ?? "") as unknown);
    });
    const best = runs.reduce((a, b) => (b.ms < a.ms ? b : a));
    const peak = Math.max(...runs.map((r) => r.peakMb));
    return [
      { name: `lint: exact checks, ${best.pages} pages on disk (best of 3)`, value: best.ms, unit: "ms", target: `< ${TARGET_MS} ms`, pass: best.ms < TARGET_MS, note: `${best.findings} findings` },
      { name: "lint: peak memory of that process", value: peak, unit: "MB", target: `< ${TARGET_MB} MB`, pass: peak < TARGET_MB, note: `a bare node process peaks at ${peakOfBareNode().toFixed(0)} MB` },
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
