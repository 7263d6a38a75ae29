/**
 * Duplicates by similarity: the threshold on pages written for it and on real pages (the Obsidian
 * Help vault), the prefix filter held to the naive comparison of every pair, lint's findings
 * without any index, and cancellation and time slices of the long pass.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isExcluded } from "../../src/core/perimeter";
import { DUPLICATE_SIMILARITY, similarVectors } from "../../src/lint/near-duplicates";
import { runLint, type LintReport } from "../../src/lint/run-lint";
import { MIN_WORDS } from "../../src/lint/similar-pages";
import { loadSnapshot } from "../../src/lint/snapshot";
import { comparedText, cosine, TermCounter, termVectors, vectorsOf } from "../../src/lint/term-vectors";
import { DEFAULT_SETTINGS } from "../../src/settings/schema";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import { corpusNotes } from "../helpers/corpus";
import { itWithCorpus } from "../helpers/with-corpus";
import { SIMILAR_PAIRS, SIMILAR_WIKI } from "./similar-wiki";
import { removedBy } from "../helpers/fixes";

const lintDeps = (files: Record<string, string>) => ({ vault: new MemoryVault(files), store: new MemoryStateStore(), settings: DEFAULT_SETTINGS });
const bySimilarity = (report: LintReport) =>
  report.findings.filter((f) => f.check === "duplicate" && f.message.includes("alike in their words")).map((f) => `${f.page} ← ${removedBy(f.fixes[0])}`).sort();

describe("duplicates by similarity of words", () => {
  it("the threshold separates pages about one subject in other words from pages that are only related", async () => {
    const snapshot = await loadSnapshot(new MemoryVault(SIMILAR_WIKI), "wiki", (p) => isExcluded(p, []));
    const pages = snapshot.pages.filter((p) => !p.ignored.has("duplicate"));
    const counter = new TermCounter();
    const counted = pages.map((p) => counter.count(comparedText(p)));
    const vectors = await termVectors(counted, counter.terms);
    const long = (i: number) => (counted[i]?.words ?? 0) >= MIN_WORDS;
    const scores = new Map<string, number>();
    for (let i = 0; i < pages.length; i++) {
      for (let j = i + 1; j < pages.length; j++) {
        if (long(i) && long(j)) scores.set([pages[i]?.title, pages[j]?.title].sort().join(" + "), cosine(vectors[i] ?? vectors[0]!, vectors[j] ?? vectors[0]!));
      }
    }
    const same = ["Ada Lovelace + Augusta Ada King", "Tea + Tea drink"];
    for (const pair of same) expect(scores.get(pair)).toBeGreaterThanOrEqual(DUPLICATE_SIMILARITY + 0.1);
    // Pages that share people, places and terms (Ada, Babbage, the Engine; tea and chai) stay far below.
    for (const [pair, score] of scores) if (!same.includes(pair)) expect(score, pair).toBeLessThan(0.45);
  });

  it("lint reports exactly the planted pairs, with the merge fix and no search index, leaving alone stubs and pages marked as kept apart", async () => {
    const report = await runLint(lintDeps(SIMILAR_WIKI));
    expect(report.error).toBeNull();
    expect(bySimilarity(report)).toEqual(SIMILAR_PAIRS);
    const finding = report.findings.find((f) => f.page === "wiki/entities/Ada Lovelace.md" && f.check === "duplicate");
    expect(finding?.message).toMatch(/^"Ada Lovelace" and "Augusta Ada King" say nearly the same thing \(\d+% alike in their words\)\.$/);
    expect(finding?.fixes).toEqual([{ kind: "merge-duplicates", label: 'Merge "Augusta Ada King" into this page', safe: false, params: { keep: "wiki/entities/Ada Lovelace.md", remove: "wiki/entities/Augusta Ada King.md" } }]);
  });

  itWithCorpus("among the 173 real pages of the Obsidian Help vault, finds only the planted pairs", async () => {
    const files: Record<string, string> = { ...SIMILAR_WIKI };
    for (const note of corpusNotes("en")) {
      const body = note.text.replace(/^---\n[\s\S]*?\n---\n/, "");
      files[`wiki/concepts/${note.path}`] = `---\ntype: concept\ntitle: ${JSON.stringify(note.path.replace(/\.md$/, ""))}\nsources: [notes/history.md]\n---\n\n${body}`;
    }
    expect(Object.keys(files).length).toBeGreaterThan(150);
    expect(bySimilarity(await runLint(lintDeps(files)))).toEqual(SIMILAR_PAIRS);
  });

  it("the prefix filter finds exactly the pairs that comparing every pair finds", async () => {
    const word = fc.constantFrom("ada", "engine", "tea", "leaf", "the", "of", "and", "babbage", "london", "1815", "water", "a", "is", "machine", "chai");
    const text = fc.array(word, { minLength: 0, maxLength: 30 }).map((w) => w.join(" "));
    await fc.assert(
      fc.asyncProperty(fc.array(text, { minLength: 0, maxLength: 25 }), fc.double({ min: 0.05, max: 1, noNaN: true }), async (texts, threshold) => {
        const vectors = await vectorsOf(texts);
        const naive: string[] = [];
        for (let i = 0; i < vectors.length; i++) {
          for (let j = i + 1; j < vectors.length; j++) {
            const [a, b] = [vectors[i], vectors[j]];
            if (a && b && cosine(a, b) >= threshold) naive.push(`${i}-${j}`);
          }
        }
        const fast = (await similarVectors(vectors, threshold)).map((p) => `${p.a}-${p.b}`);
        expect(fast).toEqual(naive);
      }),
      { numRuns: 300 },
    );
  });

  it("refuses a threshold outside (0, 1] in one sentence", async () => {
    await expect(similarVectors([], 0)).rejects.toThrow(/^The similarity threshold must be in \(0, 1\], not 0\.$/);
  });
});

describe("the long pass: cancel and time slices", () => {
  // Named by words, not numbers: titles that differ in a number are different subjects and never duplicates.
  const FRUITS = "apple banana cherry damson sorb fig grape guava kiwi lemon lime mango melon nectarine olive papaya peach pear plum quince raisin rhubarb sloe tangerine ugli date apricot currant berry medlar".split(" ");
  const many = Object.fromEntries(FRUITS.map((fruit, i) => [`wiki/concepts/Page ${fruit}.md`, `---\ntype: concept\ntitle: Page ${fruit}\nsources: [notes/history.md]\n---\n\n${SIMILAR_WIKI["wiki/concepts/Chai.md"]?.split("---\n\n")[1] ?? ""} Number ${i}.\n`]));

  it("yields between slices (by the injected clock) and a cancel during the pass cancels the lint, writing nothing", async () => {
    let clock = 0;
    let yields = 0;
    const controller = new AbortController();
    const files = { ...SIMILAR_WIKI, ...many };
    const vault = new MemoryVault(files);
    const report = await runLint(
      { vault, store: new MemoryStateStore(), settings: DEFAULT_SETTINGS, now: () => (clock += 20), yieldNow: () => {
        yields++;
        if (yields === 5) controller.abort();
        return Promise.resolve();
      } },
      { signal: controller.signal, fix: "all" },
    );
    expect(yields).toBe(5);
    expect(report.error).toEqual({ kind: "cancelled", message: "The run was cancelled." });
    expect(report.fixed).toEqual([]);
    expect(await Promise.all(Object.keys(files).map((p) => vault.read(p)))).toEqual(Object.values(files));
  });

  it("without a cancel, yields as the slices fill and still finds every pair", async () => {
    let clock = 0;
    let yields = 0;
    const report = await runLint({ ...lintDeps({ ...SIMILAR_WIKI, ...many }), now: () => (clock += 20), yieldNow: () => Promise.resolve(void yields++) });
    expect(yields).toBeGreaterThan(30);
    // The thirty "Page <fruit>" and Chai differ by one number in their text: every two of the 31 alike, beside the planted pairs.
    expect(bySimilarity(report)).toHaveLength(SIMILAR_PAIRS.length + (31 * 30) / 2);
  });
});
