/**
 * Notes written for the project's tests (test/fixtures/notes), one folder per language, a few
 * short notes in each script the code must handle — Latin (en, de, fr, es), CJK (ja, zh, ko),
 * Cyrillic (ru), Arabic (ar), Hebrew (he), Thai (th), Devanagari (hi) — with frontmatter, headings,
 * wikilinks, embeds and block ids. They are in the repository, so the tests that read them run
 * anywhere; the large corpus is for the few that need thousands of notes (corpus.ts).
 */
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

export const FIXTURE_NOTES = resolve(import.meta.dirname, "../fixtures/notes");

/** Every language folder of the fixture notes. */
export function fixtureLanguages(): string[] {
  return readdirSync(FIXTURE_NOTES)
    .filter((name) => statSync(join(FIXTURE_NOTES, name)).isDirectory())
    .sort();
}

/** The notes of one language folder, paths relative to it, sorted by path. */
export function fixtureNotes(language: string): { path: string; text: string }[] {
  const root = join(FIXTURE_NOTES, language);
  const out: { path: string; text: string }[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith(".md")) out.push({ path: full.slice(root.length + 1), text: readFileSync(full, "utf8") });
    }
  };
  walk(root);
  return out;
}

/** One fixture note by its path below test/fixtures/notes ("de/Verknüpfen/Interne Links.md"). */
export function fixtureNote(path: string): { path: string; text: string } {
  return { path, text: readFileSync(join(FIXTURE_NOTES, path), "utf8") };
}
