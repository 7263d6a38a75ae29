/** Fusion and graph expansion: what the measured defaults must keep doing (no timing here; quality figures are in `npm run bench`). */
import { describe, expect, it } from "vitest";
import { checkFusion, combSum, DEFAULT_FUSION, fuse, reciprocalRankFusion, type FusionParameters, type Ranked } from "../../src/retrieval/fusion";
import { aVault, indexed } from "./index-builder";

const list = (...hits: [string, number][]): { hits: Ranked[]; weight: number } => ({ hits: hits.map(([path, score]) => ({ path, score })), weight: 1 });
const everything = () => true;
const noGraph = () => [];

describe("retrieval through the graph", () => {
  // A tiny labelled set: the query's words are in the note that links to the answer, not in the answer.
  const notes = {
    "notes/Espresso.md": "# Espresso\n\nA good espresso shot has a thick crema. Dial it in with the [[Burr mill]].",
    "notes/Burr mill.md": "# Burr mill\n\nTwo conical plates set the particle size.",
    "notes/Milk.md": "# Milk\n\nSteamed milk sits under the crema of a cappuccino, never on an espresso shot.",
    "notes/Unrelated.md": "# Unrelated\n\nA crema-coloured wall paint.",
  };

  it("ranks a note found only through a link above an unrelated note", async () => {
    const index = await indexed(aVault(notes));
    const ranking = (await index.retrieve("espresso crema shot", { scope: { kind: "all" }, limit: 10 })).map((h) => h.path);
    expect(ranking[0]).toBe("notes/Espresso.md");
    expect(ranking).toContain("notes/Burr mill.md");
    expect(ranking.indexOf("notes/Burr mill.md")).toBeLessThan(ranking.indexOf("notes/Unrelated.md"));
  });

  it("finds the linked note only through the graph: with no graph share it is not there", async () => {
    const index = await indexed(aVault(notes));
    const ranking = (await index.retrieve("espresso crema shot", { scope: { kind: "all" }, limit: 10 }, { ...DEFAULT_FUSION, graphShare: 0 })).map((h) => h.path);
    expect(ranking).not.toContain("notes/Burr mill.md");
  });
});

describe("fuse", () => {
  it("keeps a clear best text match first when two weaker matches link each other (plain RRF k = 60 did not)", () => {
    // The failure the benchmark measured: RRF's scores are nearly flat (1/61, 1/62, 1/63, …), so a
    // quarter of a seed's score lent to a linked text hit lifts a linked pair over the best hit.
    const text = list(["best.md", 20], ["second.md", 8], ["third.md", 7], ["tail.md", 1]);
    const neighbours = (p: string) => (p === "second.md" ? ["third.md"] : p === "third.md" ? ["second.md"] : []);
    const old: FusionParameters = { method: "rrf", k: 60, graphShare: 0.25, graphSeeds: 5 };
    expect(fuse([text], neighbours, everything, old)[0]?.[0]).toBe("second.md");
    expect(fuse([text], neighbours, everything)[0]?.[0]).toBe("best.md");
  });

  it("lends only to accepted neighbours and only from the seeds", () => {
    const text = list(["a.md", 10], ["b.md", 9], ["c.md", 1]);
    const neighbours = (p: string) => ({ "a.md": ["in.md", "out.md"], "c.md": ["late.md"] })[p] ?? [];
    const ranking = fuse([text], neighbours, (p) => p !== "out.md", { ...DEFAULT_FUSION, graphSeeds: 2 }).map(([p]) => p);
    expect(ranking).toContain("in.md");
    expect(ranking).not.toContain("out.md");
    expect(ranking).not.toContain("late.md"); // c.md is not among the top 2 seeds
  });

  it("orders equal scores by path, whatever the input order", () => {
    const ranked = fuse([list(["b.md", 1]), list(["a.md", 1])], noGraph, everything, { ...DEFAULT_FUSION, method: "rrf", graphShare: 0 }).map(([p]) => p);
    expect(ranked).toEqual(["a.md", "b.md"]);
  });

  it("sums reciprocal ranks across lists, each by its weight", () => {
    const fused = reciprocalRankFusion([list(["x.md", 5], ["y.md", 4]), { ...list(["y.md", 0.9]), weight: 2 }], 10);
    expect(fused.get("x.md")).toBeCloseTo(1 / 11);
    expect(fused.get("y.md")).toBeCloseTo(1 / 12 + 2 / 11);
  });

  it("CombSUM puts each list's best at its weight and a note in both lists above one in either", () => {
    const fused = combSum([list(["both.md", 10], ["text.md", 10], ["low.md", 1]), list(["vec.md", 0.8], ["both.md", 0.7], ["far.md", 0.1])]);
    expect(fused.get("text.md")).toBeCloseTo(1);
    expect(fused.get("vec.md")).toBeCloseTo(1);
    expect(fused.get("both.md") ?? 0).toBeGreaterThan(1);
    expect(combSum([list()]).size).toBe(0);
  });

  it("CombSUM scales a cut list from its last score, a complete one from 0, so a small wiki's weaker match keeps its score", () => {
    const hits = list(["a.md", 10], ["b.md", 6], ["c.md", 2]);
    const cut = combSum([hits]);
    expect(cut.get("c.md")).toBe(0);
    expect(cut.get("b.md")).toBeCloseTo(0.5);
    const complete = combSum([{ ...hits, complete: true }]);
    expect(complete.get("c.md")).toBeCloseTo(0.2);
    expect(complete.get("b.md")).toBeCloseTo(0.6);
    expect(combSum([{ ...list(["only.md", 3]), complete: false }]).get("only.md")).toBe(1);
  });

  it.each<[string, Partial<FusionParameters>, RegExp]>([
    ["an unknown method", { method: "mean" as FusionParameters["method"] }, /fusion method/],
    ["a negative k", { k: -1 }, /k must be/],
    ["a graph share above 1", { graphShare: 1.5 }, /graph share/],
    ["a share that is not a number", { graphShare: Number.NaN }, /graph share/],
    ["a fractional seed count", { graphSeeds: 2.5 }, /graph seeds/],
  ])("rejects %s with a clear error", (_, change, message) => {
    expect(() => checkFusion({ ...DEFAULT_FUSION, ...change })).toThrow(message);
    expect(() => fuse([], noGraph, everything, { ...DEFAULT_FUSION, ...change })).toThrow(message);
  });
});
