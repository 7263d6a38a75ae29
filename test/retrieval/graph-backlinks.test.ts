/**
 * Backlinks come from a table kept with the graph (built per name on first use, dropped when a note
 * of that name or a note linking to it changes). Whatever the edits, the table must say exactly what
 * resolving every note's links says, and what a graph built afresh says.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GraphIndex } from "../../src/retrieval/graph-index";
import type { NoteLinks } from "../../src/retrieval/links";

/** "Café" in both Unicode spellings: a macOS vault decomposes names, people type them composed. */
const NAMES = ["Alpha", "beta", "Gamma ray", "delta", "Caf\u00e9", "Cafe\u0301"];
const FOLDERS = ["", "one/", "one/two/", "Other/"];
const aPath = fc.tuple(fc.constantFrom(...FOLDERS), fc.constantFrom(...NAMES)).map(([f, n]) => `${f}${n}.md`);
/** Targets as people write them: a bare name in any case, a partial or full path, with or without `.md`. */
const aTarget = fc.tuple(fc.constantFrom(...FOLDERS), fc.constantFrom(...NAMES), fc.boolean(), fc.boolean()).map(([f, n, upper, md]) => `${f}${upper ? n.toUpperCase() : n}${md ? ".md" : ""}`);
const someLinks = fc.record({
  links: fc.uniqueArray(aTarget, { maxLength: 4 }),
  embeds: fc.uniqueArray(aTarget, { maxLength: 2 }),
  tags: fc.constant([] as string[]),
  sources: fc.uniqueArray(aTarget, { maxLength: 2 }),
});
const anEdit = fc.oneof(
  fc.record({ kind: fc.constant("set" as const), path: aPath, links: someLinks }),
  fc.record({ kind: fc.constant("remove" as const), path: aPath }),
  fc.record({ kind: fc.constant("ask" as const), path: aPath }),
  // A note that exists but is never indexed (an excluded folder) comes or goes.
  fc.record({ kind: fc.constant("other" as const), path: aPath }),
  fc.record({ kind: fc.constant("forget" as const), path: aPath }),
);

/** Backlinks the slow way: every note's every target, resolved. */
function resolvedBacklinks(graph: GraphIndex, notes: ReadonlyMap<string, NoteLinks>, path: string): string[] {
  const out: string[] = [];
  for (const [source, links] of notes) {
    if (source === path) continue;
    if ([...links.links, ...links.embeds, ...links.sources].some((t) => graph.resolve(t, source) === path)) out.push(source);
  }
  return out.sort();
}

describe("the backlink table", () => {
  it("agrees with resolving every link, and with a fresh graph, after any sequence of edits", () => {
    fc.assert(
      fc.property(fc.array(anEdit, { maxLength: 40 }), (edits) => {
        const graph = new GraphIndex();
        const notes = new Map<string, NoteLinks>();
        const others = new Set<string>();
        for (const edit of edits) {
          if (edit.kind === "set") {
            graph.set(edit.path, edit.links);
            notes.set(edit.path, edit.links);
            others.delete(edit.path);
          } else if (edit.kind === "remove") {
            graph.remove(edit.path);
            notes.delete(edit.path);
          } else if (edit.kind === "other") {
            graph.addOther(edit.path);
            if (!notes.has(edit.path)) others.add(edit.path);
          } else if (edit.kind === "forget") {
            graph.forgetOther(edit.path);
            others.delete(edit.path);
          } else if (notes.has(edit.path)) {
            // Asking builds the table for that name, so later edits must drop it.
            graph.neighbours(edit.path);
          }
        }
        const fresh = new GraphIndex();
        for (const [path, links] of notes) fresh.set(path, links);
        fresh.setOthers(others);
        for (const path of notes.keys()) {
          const backlinks = graph.neighbours(path).filter((n) => n.relation === "backlink").map((n) => n.path);
          expect(backlinks).toEqual(resolvedBacklinks(graph, notes, path).filter((p) => !graph.neighbours(path).some((n) => n.path === p && n.relation !== "backlink")));
          expect(graph.neighbours(path)).toEqual(fresh.neighbours(path));
        }
      }),
      { numRuns: 300 },
    );
  });

  it("moves a backlink to the note a bare name now resolves to, and back when it goes", () => {
    const graph = new GraphIndex();
    const none = { embeds: [], tags: [], sources: [] };
    graph.set("n.md", { links: ["Target"], ...none });
    graph.set("deep/Target.md", { links: [], ...none });
    expect(graph.backlinks("deep/Target.md")).toEqual(["n.md"]);
    graph.set("Target.md", { links: [], ...none });
    expect(graph.backlinks("deep/Target.md")).toEqual([]);
    expect(graph.backlinks("Target.md")).toEqual(["n.md"]);
    graph.remove("Target.md");
    expect(graph.backlinks("deep/Target.md")).toEqual(["n.md"]);
    graph.set("n.md", { links: ["elsewhere"], ...none });
    expect(graph.backlinks("deep/Target.md")).toEqual([]);
  });
});
