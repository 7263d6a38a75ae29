/**
 * The 5,000-page wiki of the lint benchmark, written once into a temporary folder: pages of every
 * type with sources, aliases and links between them (some dangling), 500 source notes, and text
 * that reads like a wiki's as far as the duplicate check can tell — common words used often, a
 * page's subject words, and a long tail of rare words (Zipf-distributed, from a seeded generator
 * so every run writes the same wiki). A number of pages are rewritten copies of another page (a
 * fifth of their words changed, sentences reordered) under a longer name: the duplicates the
 * check must find.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { seededRandom } from "../test/helpers/seeded-random";

export const PAGES = 5000;
const NOTES = 500;
export const PLANTED_DUPLICATES = 25;
const TOPICS = 400;
const FOLDERS = ["entities", "concepts", "sources", "syntheses", "comparisons"] as const;
const TYPES = ["entity", "concept", "source", "synthesis", "comparison"] as const;
const COMMON = "the of and a to in is was for on that by with as it from at his an be which or are this were their also its has had first one after other but been they new most two into who more between used some such than when these while where all only over during".split(" ");


const SYLLABLES = "ka lo mi ne ru sa te vi do ha pe li mo nu ra si to ve da go bi fe ja ku lu ma no pi re so ta vo wi ze".split(" ");

function pseudoWord(n: number): string {
  let word = "";
  let k = n + 7;
  do {
    word += SYLLABLES[k % SYLLABLES.length];
    k = Math.floor(k / SYLLABLES.length);
  } while (k > 0);
  return word;
}

/** An index from 0 to size-1, small ones far more often (Zipf, exponent 1). */
function zipf(rand: () => number, size: number): number {
  return Math.min(size - 1, Math.floor(Math.exp(rand() * Math.log(size + 1)) - 1));
}

function pageText(rand: () => number, topic: number): string {
  const sentences: string[] = [];
  for (let s = 0; s < 14; s++) {
    const words: string[] = [];
    for (let w = 0; w < 18; w++) {
      const r = rand();
      if (r < 0.45) words.push(COMMON[zipf(rand, COMMON.length)] ?? "the");
      else if (r < 0.7) words.push(pseudoWord(100_000 + topic * 50 + zipf(rand, 50)));
      else words.push(pseudoWord(zipf(rand, 30_000)));
    }
    sentences.push(`${words.join(" ")}.`);
  }
  return sentences.join(" ");
}

/** A rewrite of a page: sentences reordered, a fifth of the words replaced. */
function rewrite(rand: () => number, text: string): string {
  const sentences = text.split(". ").sort(() => rand() - 0.5);
  return sentences.map((s) => s.split(" ").map((w) => (rand() < 0.2 ? pseudoWord(zipf(rand, 30_000)) : w)).join(" ")).join(". ");
}

function write(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

/**
 * `pages`: fewer for a quick look (test/bench/lint-wiki-maker.test.ts); the planted rewrites are
 * then copies of pages closer together.
 */
export function makeLintWiki(pages = PAGES): string {
  const root = mkdtempSync(join(tmpdir(), "synapse-bench-lint-"));
  const rand = seededRandom(12);
  // The last pages are rewrites of pages spread over the wiki.
  const plantedFrom = pages - PLANTED_DUPLICATES;
  const spread = Math.min(97, Math.floor(plantedFrom / PLANTED_DUPLICATES));
  const copyOf = (i: number) => (i >= plantedFrom ? (i - plantedFrom) * spread : -1);
  // A rewrite is a second page on its original's subject under a longer name, as a model writes
  // one when it misses the first page. Not "Topic 4975": two titles that differ in a number are
  // two subjects (World War I and II, distinguishing-marks.ts), never duplicates by similarity.
  const title = (i: number) => (copyOf(i) >= 0 ? `Topic ${copyOf(i)} overview` : `Topic ${i}`);
  const notes = Math.min(NOTES, Math.ceil(pages / 10));
  for (let n = 0; n < notes; n++) write(root, `notes/Note ${n}.md`, `# Note ${n}\n\nAbout [[${title(n * 10)}]] and [[${title(n * 10 + 1)}]].\n`);
  const index = ["# Wiki index", ""];
  const texts: string[] = [];
  for (let i = 0; i < pages; i++) {
    const kind = i % FOLDERS.length;
    const text = copyOf(i) >= 0 ? rewrite(rand, texts[copyOf(i)] ?? "") : pageText(rand, i % TOPICS);
    texts.push(text);
    const links = [1, 7, 31].map((d) => `[[${title((i + d) % pages)}]]`).join(", ");
    const dangling = i % 50 === 0 ? ` See [[${title(i)} typo]].` : "";
    const body = `# ${title(i)}\n\n${title(i)} relates to ${links}.${dangling}\n\n${text}\n`;
    const fm = `---\ntype: ${TYPES[kind]}\ntitle: ${title(i)}\nsources:\n  - notes/Note ${Math.floor(i / 10) % notes}.md\naliases:\n  - T${i}\ntags: []\n---\n\n`;
    write(root, `wiki/${FOLDERS[kind]}/${title(i)}.md`, fm + body);
    index.push(`- [[wiki/${FOLDERS[kind]}/${title(i)}|${title(i)}]]`);
  }
  write(root, "wiki/index.md", `${index.join("\n")}\n`);
  return root;
}
