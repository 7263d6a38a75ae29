/**
 * The search index's worker is bundled on its own and inlined into main.js, so what it pulls in is
 * paid for twice in the plugin's size. Its module graph holds no zod (the worker imports only the
 * protocol's types, retrieval/worker/inbound.ts) and no yaml (the main thread reads frontmatter
 * for it, retrieval/note-frontmatter.ts); this bundles its entry as the plugin would and holds the
 * result under a size limit.
 */
import esbuild from "esbuild";
import { describe, expect, it } from "vitest";

const ENTRY = "src/retrieval/worker/entry.ts";
/** Minified bytes the worker may take; it was 285 KB with zod and yaml, about 87 KB without. */
const LIMIT = 120_000;
const BANNED = ["node_modules/zod/", "node_modules/yaml/"];

async function bundle(): Promise<esbuild.Metafile> {
  const result = await esbuild.build({ entryPoints: [ENTRY], bundle: true, minify: true, platform: "browser", format: "iife", write: false, metafile: true, logLevel: "silent" });
  return result.metafile;
}

describe("the index's worker bundle", () => {
  it("imports neither zod nor yaml, and stays under its size limit", async () => {
    const metafile = await bundle();
    const banned = Object.keys(metafile.inputs).filter((path) => BANNED.some((name) => path.includes(name)));
    expect(banned, "the worker's module graph reaches a package it must not bundle").toEqual([]);
    const [output] = Object.values(metafile.outputs);
    const bytes = output?.bytes ?? Number.POSITIVE_INFINITY;
    console.log(`worker bundle: ${(bytes / 1000).toFixed(1)} KB minified (limit ${LIMIT / 1000} KB)`);
    expect(bytes).toBeLessThanOrEqual(LIMIT);
  });
});
