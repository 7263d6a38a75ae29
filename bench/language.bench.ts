/**
 * The Offline provider's language guess over every note of the corpus (Obsidian's help in 32
 * languages; `pt-br` counts as Portuguese, `zh-TW` as Chinese). bench/RESULTS.md's accuracy figure is
 * this one; the unit test measures every fifth note.
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { guessLanguage } from "../src/providers/offline/language";
import { CORPUS, corpusNotes, requireCorpus } from "../test/helpers/corpus";
import type { BenchResult } from "./stats";

const TARGET = 0.99;

export function benchLanguage(): BenchResult[] {
  requireCorpus("the language benchmark");
  const folders = readdirSync(CORPUS).filter((name) => /^[a-z]{2}(-[a-zA-Z]{2})?$/.test(name) && statSync(join(CORPUS, name)).isDirectory());
  const expected = (folder: string) => (folder === "pt-br" ? "pt" : folder === "zh-TW" ? "zh" : folder);
  let total = 0;
  let right = 0;
  for (const folder of folders) {
    for (const note of corpusNotes(folder)) {
      total++;
      if (guessLanguage(note.text) === expected(folder)) right++;
    }
  }
  const share = right / total;
  return [
    {
      name: "offline: language guess, right",
      value: share * 100,
      unit: "%",
      target: `≥ ${TARGET * 100} %`,
      pass: share >= TARGET,
      note: `${right} of ${total} notes in ${new Set(folders.map(expected)).size} languages`,
    },
  ];
}
