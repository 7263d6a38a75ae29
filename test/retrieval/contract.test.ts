import { describe, expect, it } from "vitest";
import { aVault, indexed } from "./index-builder";
import { traverse } from "../../src/retrieval/graph-traverse";

const notes = {
  "notes/coffee.md": "# Coffee\n\nBrewing coffee with a pour-over gives a clean cup.\n\n## Grinding\n\nGrind the beans medium-fine.",
  "notes/tea.md": "---\ntitle: Green tea\naliases: [Sencha]\ntags: [drinks]\n---\n# Steeping\n\nSteep green tea at 80 degrees, not boiling.",
  "wiki/Pour-over.md": "---\ntype: concept\n---\nA pour-over is a manual coffee brewing method. See [[coffee]].",
  "wiki/Café culture.md": "Cafés serve espresso and pour-over; café culture spread from Vienna.",
  "private/diary.md": "My secret coffee diary.",
  "notes/code.md": "```js\nconst brew = 'espresso';\n```\nSome [[Pour-over|manual method]] notes.",
};

describe("the retrieval contract", () => {
  it("orders hits by descending score and freezes them", async () => {
    const index = await indexed(aVault(notes));
    const hits = await index.retrieve("coffee brewing", { scope: { kind: "all" }, limit: 10 });
    expect(hits.length).toBeGreaterThan(1);
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!.score).toBeGreaterThanOrEqual(hits[i]!.score);
    expect(Object.isFrozen(hits)).toBe(true);
    expect(Object.isFrozen(hits[0])).toBe(true);
    expect(() => (hits as unknown as unknown[]).push(1)).toThrow();
  });

  it("respects the scope: wiki, notes, chosen folders", async () => {
    const index = await indexed(aVault(notes));
    const wiki = await index.retrieve("coffee", { scope: { kind: "wiki" }, limit: 10 });
    expect(wiki.length).toBeGreaterThan(0);
    expect(wiki.every((h) => h.path.startsWith("wiki/"))).toBe(true);
    const mine = await index.retrieve("coffee", { scope: { kind: "notes" }, limit: 10 });
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((h) => !h.path.startsWith("wiki/"))).toBe(true);
    const folder = await index.retrieve("coffee", { scope: { kind: "folders", folders: ["private"] }, limit: 10 });
    expect(folder.map((h) => h.path)).toEqual(["private/diary.md"]);
  });

  it("never indexes or returns excluded folders, whatever the scope", async () => {
    const index = await indexed(aVault(notes), { excludedFolders: ["Private"] });
    for (const scope of [{ kind: "all" as const }, { kind: "folders" as const, folders: ["private"] }]) {
      const hits = await index.retrieve("secret diary", { scope, limit: 10 });
      expect(hits.map((h) => h.path)).not.toContain("private/diary.md");
    }
    expect(index.paths()).not.toContain("private/diary.md");
  });

  it("boosts titles and aliases and folds diacritics", async () => {
    const index = await indexed(aVault(notes));
    expect((await index.retrieve("sencha", { scope: { kind: "all" }, limit: 1 }))[0]?.path).toBe("notes/tea.md");
    expect((await index.retrieve("cafe", { scope: { kind: "all" }, limit: 1 }))[0]?.path).toBe("wiki/Café culture.md");
  });

  it("finds code words and link labels, gives the chunk's heading and a highlighted snippet", async () => {
    const index = await indexed(aVault(notes));
    expect((await index.retrieve("espresso", { scope: { kind: "notes" }, limit: 5 })).map((h) => h.path)).toContain("notes/code.md");
    const [hit] = await index.retrieve("grind beans", { scope: { kind: "all" }, limit: 1 });
    expect(hit?.path).toBe("notes/coffee.md");
    expect(hit?.heading).toBe("Grinding");
    expect(hit?.snippet).toContain("**Grind**");
    expect(hit?.text).toContain("medium-fine");
  });

  it("brings in a page linked from the best matches even without shared words", async () => {
    const vault = aVault({
      "notes/a.md": "Quantum chromodynamics explained. See [[Gluon field]].",
      "wiki/Gluon field.md": "A field that binds particles.",
      "notes/other.md": "Nothing relevant.",
    });
    const index = await indexed(vault);
    const paths = (await index.retrieve("quantum chromodynamics", { scope: { kind: "all" }, limit: 5 })).map((h) => h.path);
    expect(paths[0]).toBe("notes/a.md");
    expect(paths).toContain("wiki/Gluon field.md");
    expect(paths).not.toContain("notes/other.md");
  });

  it("refuses bad arguments with one clear sentence", async () => {
    const index = await indexed(aVault(notes));
    await expect(index.retrieve("x", { scope: { kind: "all" }, limit: 0 })).rejects.toThrow(/limit must be a whole number/);
    await expect(index.retrieve("x", { scope: { kind: "all" }, limit: 1.5 })).rejects.toThrow(/limit/);
    await expect(index.retrieve("x", { scope: { kind: "folders", folders: [] }, limit: 3 })).rejects.toThrow(/at least one folder/);
    await expect(index.retrieve("x", { scope: { kind: "nope" } as never, limit: 3 })).rejects.toThrow(/Unknown scope/);
    await expect(index.retrieve(42 as never, { scope: { kind: "all" }, limit: 3 })).rejects.toThrow(/query must be text/);
    expect(() => traverse(index.graph, "notes/a.md", -1)).toThrow(/depth/);
    expect(() => traverse(index.graph, "", 1)).toThrow(/path of a note/);
  });

  it("answers an empty or unknown query with nothing", async () => {
    const index = await indexed(aVault(notes));
    expect(await index.retrieve("", { scope: { kind: "all" }, limit: 5 })).toEqual([]);
    expect(await index.retrieve("zzzqqq", { scope: { kind: "all" }, limit: 5 })).toEqual([]);
  });
});

describe("the graph", () => {
  it("knows links, embeds, backlinks, sources and tags, but not links inside code", async () => {
    const index = await indexed(
      aVault({
        "a.md": "---\ntags: [Topic]\nsources: [\"[[src]]\"]\n---\nSee [[b]] and ![[c]].\n```\n[[not-a-link]]\n```\n#extra",
        "b.md": "Back to [[a|the first]].",
        "c.md": "embedded",
        "src.md": "source note",
        "not-a-link.md": "x",
        "d.md": "#topic here",
      }),
    );
    const n = index.graph.neighbours("a.md");
    expect(n.map((x) => `${x.path}:${x.relation}`)).toEqual(["b.md:link", "c.md:embed", "src.md:source"]);
    expect(index.graph.neighbours("c.md").map((x) => `${x.path}:${x.relation}`)).toEqual(["a.md:backlink"]);
    expect(index.graph.withTag("#TOPIC")).toEqual(["a.md", "d.md"]);
    expect(index.graph.neighbours("a.md", { tags: true }).map((x) => x.path)).toContain("d.md");
    expect(traverse(index.graph, "b.md", 2).map((h) => `${h.path}@${h.depth}`)).toEqual(["a.md@1", "c.md@2", "src.md@2"]);
  });
});
