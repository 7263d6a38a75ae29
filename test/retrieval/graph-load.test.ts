/**
 * Loading an index registers every stored note's links with a memo of target name keys shared by
 * the whole load (VaultIndex.open). Whatever the notes, the graph must answer exactly as a graph
 * that registered the same notes one by one without it — and keep doing so through later edits.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GraphIndex } from "../../src/retrieval/graph-index";
import type { NoteLinks } from "../../src/retrieval/links";
import { packLinks } from "../../src/retrieval/packed-links";
import { TargetKeyMemo } from "../../src/retrieval/target-key-memo";
import { traverse } from "../../src/retrieval/graph-traverse";

/** Names in both Unicode spellings (a macOS vault decomposes them) and in several cases. */
const NAMES = ["Alpha", "alpha", "ALPHA", "Caf\u00e9", "Cafe\u0301", "CAF\u00c9", "Gamma ray", "Straße"];
const FOLDERS = ["", "one/", "one/two/", "One/", "Other/"];
const aPath = fc.tuple(fc.constantFrom(...FOLDERS), fc.constantFrom(...NAMES)).map(([f, n]) => `${f}${n}.md`);
/** Targets as people write them: bare, partial or full paths, relative (`./`, `../`), from the root, with `.md`, backslashes, spaces. */
const aTarget = fc
  .tuple(fc.constantFrom("", "./", "../", "/", "one/", "one\\two\\", "../one/", "Other/../one/"), fc.constantFrom(...NAMES), fc.constantFrom("", ".md", ".MD", " "))
  .map(([prefix, name, suffix]) => `${prefix}${name}${suffix}`);
/** Few distinct targets, so that the same string recurs across notes, as in a real vault. */
const someTargets = (max: number) => fc.uniqueArray(aTarget, { maxLength: max });
const someLinks: fc.Arbitrary<NoteLinks> = fc.record({
  links: someTargets(4),
  embeds: someTargets(2),
  tags: fc.uniqueArray(fc.constantFrom("idea", "todo", "caf\u00e9"), { maxLength: 2 }),
  sources: someTargets(2),
});
const aNote = fc.record({ path: aPath, links: someLinks });
const anEdit = fc.oneof(
  fc.record({ kind: fc.constant("set" as const), path: aPath, links: someLinks }),
  fc.record({ kind: fc.constant("remove" as const), path: aPath }),
  fc.record({ kind: fc.constant("other" as const), path: aPath }),
  fc.record({ kind: fc.constant("forget" as const), path: aPath }),
);
type Edit = typeof anEdit extends fc.Arbitrary<infer T> ? T : never;

const ALL_PATHS = FOLDERS.flatMap((f) => NAMES.map((n) => `${f}${n}.md`));

function apply(graph: GraphIndex, edit: Edit): void {
  if (edit.kind === "set") graph.set(edit.path, edit.links);
  else if (edit.kind === "remove") graph.remove(edit.path);
  else if (edit.kind === "other") graph.addOther(edit.path);
  else graph.forgetOther(edit.path);
}

/** Everything the graph answers, for every path and target the arbitraries can make. */
function answers(graph: GraphIndex, targets: readonly string[]): unknown {
  return {
    size: graph.size,
    nodes: ALL_PATHS.map((p) => ({
      path: p,
      has: graph.has(p),
      neighbours: graph.neighbours(p, { tags: true }),
      backlinks: graph.backlinks(p),
      traverse: traverse(graph, p, 3),
      locate: targets.map((t) => graph.locate(t, p)),
    })),
    tags: ["idea", "todo", "caf\u00e9"].map((t) => graph.withTag(t)),
    named: NAMES.map((n) => graph.notesNamed(n)),
  };
}

describe("a graph loaded with a memo of target keys", () => {
  it("answers as a graph that registered the same notes one by one, before and after edits", () => {
    fc.assert(
      fc.property(fc.array(aNote, { maxLength: 30 }), fc.array(anEdit, { maxLength: 12 }), (notes, edits) => {
        const targets = [...new Set([...notes, ...edits].flatMap((n) => ("links" in n ? [...n.links.links, ...n.links.embeds, ...n.links.sources] : [])))];
        const loaded = new GraphIndex();
        const oneByOne = new GraphIndex();
        const keys = new TargetKeyMemo();
        // Two loads, the graph asked everything in between: a load must not count on empty tables.
        const half = Math.floor(notes.length / 2);
        for (const part of [notes.slice(0, half), notes.slice(half)]) {
          // As from a shard: the links packed, the memo shared by every note of the load.
          for (const note of part) loaded.set(note.path, packLinks(note.links), keys);
          for (const note of part) oneByOne.set(note.path, note.links);
          expect(answers(loaded, targets)).toEqual(answers(oneByOne, targets));
        }
        for (const edit of edits) {
          apply(loaded, edit);
          apply(oneByOne, edit);
        }
        expect(answers(loaded, targets)).toEqual(answers(oneByOne, targets));
      }),
      { numRuns: 300 },
    );
  });
});

describe("notes by name", () => {
  it("are the indexed notes of that name in any case or Unicode spelling, never the notes that are only known to exist", () => {
    const none = { links: [], embeds: [], tags: [], sources: [] };
    const graph = new GraphIndex();
    graph.set("b/Caf\u00e9.md", none);
    graph.set("a/CAFE\u0301.md", none);
    graph.addOther("private/cafe\u0301.md");
    expect(graph.notesNamed("caf\u00e9")).toEqual(["a/CAFE\u0301.md", "b/Caf\u00e9.md"]);
    graph.remove("b/Caf\u00e9.md");
    expect(graph.notesNamed("Cafe\u0301")).toEqual(["a/CAFE\u0301.md"]);
  });
});
