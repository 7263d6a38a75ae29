/** The retrieval-quality benchmark's labels and metrics: honest queries, right arithmetic. */
import { describe, expect, it } from "vitest";
import { labelledQueries, plain } from "../../bench/quality-labels";
import { pairedDifference, scoreRanking } from "../../bench/quality-metrics";
import { tokenize } from "../../src/core/tokenize";
import { corpusNotes } from "../helpers/corpus";
import { describeWithCorpus } from "../helpers/with-corpus";

describeWithCorpus("the labelled queries made from the corpus", () => {
  const corpus = corpusNotes("en").map((n) => ({ path: `en/${n.path}`, text: n.text }));
  const byName = new Map(corpus.map((n) => [(n.path.split("/").pop() ?? "").replace(/\.md$/, "").toLowerCase(), n.path]));
  const resolve = (target: string) => byName.get((target.split("/").pop() ?? "").toLowerCase()) ?? null;
  const queries = labelledQueries(corpus, resolve);
  const noteText = new Map(corpus.map((n) => [n.path, n.text]));

  it("come in several kinds, each with a relevant note of the corpus", () => {
    expect(new Set(queries.map((q) => q.kind))).toEqual(new Set(["passage-en", "headings", "link-sentence", "link-label"]));
    for (const q of queries) for (const path of q.relevant) expect(noteText.has(path)).toBe(true);
  });

  it("never contain a word of the relevant note's title", () => {
    for (const q of queries) {
      const words = new Set(q.query.split(" "));
      for (const path of q.relevant) {
        const title = tokenize((path.split("/").pop() ?? "").replace(/\.md$/, ""));
        expect(title.filter((w) => words.has(w)), `${q.kind}: "${q.query}" → ${path}`).toEqual([]);
      }
    }
  });

  it("are the same on every run", () => {
    expect(labelledQueries(corpus, resolve)).toEqual(queries);
  });

  it("take a link's sentence from another note than the link's target", () => {
    const words = corpus.map((n) => ({ path: n.path, words: new Set(tokenize(plain(n.text))) }));
    for (const q of queries.filter((q) => q.kind === "link-sentence")) {
      const source = words.find((n) => !q.relevant.includes(n.path) && q.query.split(" ").every((w) => n.words.has(w)));
      expect(source, q.query).toBeDefined();
    }
  });
});

describe("the quality metrics", () => {
  it("score a ranking by the first relevant hit, recall at 5 and 10, and nDCG at 10", () => {
    const s = scoreRanking(["x", "a", "y", "z", "w", "b"], ["a", "b"]);
    expect(s.mrr10).toBeCloseTo(1 / 2);
    expect(s.recall5).toBeCloseTo(1 / 2);
    expect(s.recall10).toBeCloseTo(1);
    expect(s.ndcg10).toBeCloseTo((1 / Math.log2(3) + 1 / Math.log2(7)) / (1 + 1 / Math.log2(3)));
    expect(scoreRanking([], ["a"])).toEqual({ mrr10: 0, recall5: 0, recall10: 0, ndcg10: 0 });
    expect(scoreRanking(["a"], ["a"]).ndcg10).toBe(1);
    expect(() => scoreRanking(["a"], [])).toThrow(/relevant/);
  });

  it("call a paired difference noise when it is inside 1.96 standard errors", () => {
    const same = pairedDifference([1, 0, 1, 0], [0, 1, 0, 1]);
    expect(same.mean).toBe(0);
    expect(same.halfWidth).toBeGreaterThan(0);
    const better = pairedDifference([1, 1, 1, 1, 1, 1], [0, 0, 0, 0, 0, 0.5]);
    expect(better.mean).toBeGreaterThan(better.halfWidth);
    expect(() => pairedDifference([1], [1])).toThrow();
  });
});
