/**
 * The large corpus — Obsidian's help vault in 32 languages (obsidian-help), read in place and never
 * copied into the repository — for the tests and benchmarks that truly need thousands of real notes
 * (accuracy over every language, retrieval quality, scale). Everything else uses the notes written
 * for the project in test/fixtures/notes (fixture-notes.ts).
 *
 * Found in `SYNAPSE_CORPORA` (the folder holding obsidian-help), else in ../shared/corpora beside
 * the repository. Where it is absent (a fresh clone), the suites that need it are skipped
 * (`describeWithCorpus`, with-corpus.ts), and the test run and `npm run bench` say so in one line (`corpusNotice`).
 */
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

const REPOSITORY = resolve(import.meta.dirname, "../..");

/** The folder of corpora: `SYNAPSE_CORPORA`, else ../shared/corpora beside the repository. */
export const CORPORA = process.env.SYNAPSE_CORPORA ? resolve(process.env.SYNAPSE_CORPORA) : resolve(REPOSITORY, "../shared/corpora");

/** The obsidian-help corpus: one folder per language. */
export const CORPUS = join(CORPORA, "obsidian-help");

export const HAS_CORPUS = existsSync(join(CORPUS, "en"));

/** The one line a run prints when the corpus is absent; null when it is there. */
export function corpusNotice(what: string): string | null {
  return HAS_CORPUS ? null : `Skipped ${what}: no corpus at ${CORPUS} (set SYNAPSE_CORPORA to the folder holding obsidian-help).`;
}

/** Throws the notice as an error where the corpus is absent (a benchmark run on its own). */
export function requireCorpus(what: string): void {
  const notice = corpusNotice(what);
  if (notice) throw new Error(notice.replace(/^Skipped/, "Cannot run"));
}

/** The notes of one language folder ("" for all), sorted by path, at most `limit`. */
export function corpusNotes(language: string, limit = Number.POSITIVE_INFINITY): { path: string; text: string }[] {
  requireCorpus("a test or benchmark that reads the corpus");
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
