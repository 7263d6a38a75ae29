/**
 * A segment merged in pieces (`freezePieces`, as the plugin merges on Obsidian's main thread, with
 * a yield between two pieces) ends as one merged at once, whatever was done between the pieces:
 * writes, removals, searches and other merges first finish the merge, and never see it half done.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Segment, type ChunkTerms } from "../../src/retrieval/segment";
import { shardOf } from "../../src/retrieval/shard-of";
import { syncIndex } from "../../src/retrieval/sync";
import { TermTable } from "../../src/retrieval/term-table";
import { runPieces, type Pieces } from "../../src/core/time-slice";
import { VaultIndex } from "../../src/retrieval/vault-index";
import { readFrontmatter } from "../../src/retrieval/chunker";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";

const WORDS = ["a", "b", "ab", "ba", "é", "e", "z", "中", "中文", "zz"];
const PATHS = ["p", "q", "r", "s", "t"];

const chunk = fc
  .uniqueArray(fc.constantFrom(...WORDS), { maxLength: 6 })
  .chain((terms) => fc.record({ terms: fc.constant(terms), freqs: fc.array(fc.integer({ min: 1, max: 300 }), { minLength: terms.length, maxLength: terms.length }) }))
  .map(({ terms, freqs }): ChunkTerms => ({ heading: "", start: 0, end: 1, length: freqs.reduce((n, f) => n + f, 0), terms, freqs }));

const op = fc.oneof(
  fc.record({ kind: fc.constant("write" as const), path: fc.constantFrom(...PATHS), chunks: fc.array(chunk, { maxLength: 3 }) }),
  fc.record({ kind: fc.constant("remove" as const), path: fc.constantFrom(...PATHS) }),
  fc.record({ kind: fc.constant("search" as const) }),
  fc.record({ kind: fc.constant("merge" as const) }),
  // A merge started in pieces and left waiting; `piece` runs its next piece.
  fc.record({ kind: fc.constant("start pieces" as const) }),
  fc.record({ kind: fc.constant("piece" as const) }),
);

function write(segment: Segment, path: string, chunks: readonly ChunkTerms[]): void {
  segment.write(path, (writer) => {
    for (const c of chunks) {
      writer.chunk(c.heading, c.start, c.end, c.length);
      c.terms.forEach((t, i) => writer.term(t, 0, t.length, c.freqs[i] ?? 1));
    }
  });
}

/** What a search reads of `word`: its document frequency over living chunks. */
function documentFrequency(segment: Segment, table: TermTable, word: string): number {
  segment.prepareSearch();
  return segment.plan(word, table.find(word))?.df ?? 0;
}

/**
 * The stored form of a segment: notes with their chunk lengths (sorted: a note without chunks may
 * stand anywhere), which note each chunk id belongs to, terms and postings.
 */
function storedForm(segment: Segment) {
  const { notes, frozen } = segment.stored();
  return {
    notes: notes.map(([path]) => [path, segment.chunksOf(path).map((m) => m.length)]).sort(),
    owners: Array.from({ length: segment.chunkCount }, (_, id) => segment.pathOf(id)),
    terms: Array.from({ length: frozen.terms.size }, (_, i) => frozen.terms.term(i)),
    offsets: [...frozen.offsets],
    postings: [...frozen.postings],
  };
}

describe("a segment merged in pieces", () => {
  it("ends as one merged at once, whatever is written, removed, searched or merged between its pieces", () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        const table = new TermTable();
        const sliced = new Segment(table);
        // The same writes and removals, merged only at once: the reference.
        const plain = new Segment(new TermTable());
        const model = new Map<string, readonly ChunkTerms[]>();
        let merging: Pieces<void> | null = null;
        for (const o of ops) {
          if (o.kind === "write") {
            write(sliced, o.path, o.chunks);
            write(plain, o.path, o.chunks);
            model.delete(o.path);
            model.set(o.path, o.chunks);
          } else if (o.kind === "remove") {
            expect(sliced.remove(o.path)).toBe(model.delete(o.path));
            plain.remove(o.path);
          } else if (o.kind === "search") {
            for (const word of WORDS) {
              const holders = [...model.values()].flat().filter((c) => c.terms.includes(word)).length;
              expect(documentFrequency(sliced, table, word)).toBe(holders);
            }
          } else if (o.kind === "merge") {
            sliced.freeze();
          } else if (o.kind === "start pieces") {
            merging = sliced.freezePieces();
            merging.next();
          } else if (merging?.next().done) {
            merging = null;
          }
          expect(sliced.chunkCount).toBe(plain.chunkCount);
        }
        if (merging) runPieces(merging);
        expect(storedForm(sliced)).toEqual(storedForm(plain));
        expect(sliced.holdsTerms).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it("yields inside a large merge, and a note written and one removed between every two pieces end as at once", () => {
    const table = new TermTable();
    const sliced = new Segment(table);
    const plain = new Segment(new TermTable());
    const both = (run: (s: Segment) => void) => [sliced, plain].forEach(run);
    const many = (n: number, from: number): ChunkTerms => {
      const terms = Array.from({ length: n }, (_, i) => `w${from + i}`);
      return { heading: "", start: 0, end: 1, length: n, terms, freqs: terms.map(() => 1) };
    };
    for (let n = 0; n < 40; n++) both((s) => write(s, `base${n}`, [many(500, n * 250)]));
    both((s) => s.freeze());
    both((s) => write(s, "big", [many(6000, 100_000), many(6000, 103_000)]));
    both((s) => s.remove("base3"));
    // Another segment of the same table, with the same new terms: between two pieces it groups its
    // own delta for a search, in the table's scratch arrays that the merge's grouping uses too.
    const other = new Segment(table);
    write(other, "other", [many(6000, 100_000)]);
    const pieces = sliced.freezePieces();
    let count = 0;
    while (!pieces.next().done) {
      count += 1;
      write(other, `other${count}`, [many(3000, 101_000 + count)]);
      expect(documentFrequency(other, table, "w100500")).toBe(1);
      if (count === 4) {
        // Between two pieces: a search, a write and a removal, each on both segments.
        expect(documentFrequency(sliced, table, "w100")).toBe(1);
        both((s) => write(s, "late", [many(10, 200_000)]));
        both((s) => s.remove("base5"));
      }
    }
    expect(count).toBeGreaterThanOrEqual(4);
    expect(storedForm(sliced)).toEqual(storedForm(plain));
  });
});

describe("a sync", () => {
  it("merges a segment that outgrew its bound between two notes, in pieces with a checkpoint between them, not inside a write", async () => {
    // Sixty notes of one shard, each of 150 words of its own: the segment outgrows the bound at which it asks for a merge.
    const files: Record<string, string> = {};
    for (let i = 0; Object.keys(files).length < 60; i++) {
      const path = `notes/n${i}.md`;
      if (shardOf(path) === 7) files[path] = Array.from({ length: 150 }, (_, k) => `word${i}x${k}`).join(" ");
    }
    const vault = new MemoryVault(files);
    const index = await VaultIndex.open({ frontmatter: readFrontmatter, store: new MemoryStateStore(), reader: vault, wikiFolder: "wiki", excludedFolders: [] });
    let pieces = 0;
    let inMerge = false;
    let checkpointsInMerge = 0;
    const mergePieces = index.mergePieces.bind(index);
    index.mergePieces = function* () {
      inMerge = true;
      const merge = mergePieces();
      while (!merge.next().done) {
        pieces += 1;
        yield;
      }
      inMerge = false;
    };
    const slicer = {
      checkpoint: () => {
        if (inMerge) checkpointsInMerge += 1;
        return Promise.resolve(false);
      },
    };
    await syncIndex(index, vault, { slicer, flush: false });
    expect(pieces).toBeGreaterThan(2);
    expect(checkpointsInMerge).toBe(pieces);
    expect(index.mergeWanted).toBe(false);
    const [first] = Object.keys(files);
    const word = (files[first as string] ?? "").split(" ")[7] as string;
    expect(index.searchText(word, { scope: { kind: "all" }, limit: 5 }).map((h) => h.path)).toEqual([first]);
  });
});

describe("before a search", () => {
  it("merges in pieces the segment that the search would merge at once, and the answers stay those of a rebuild", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; Object.keys(files).length < 200; i++) {
      const path = `notes/n${i}.md`;
      if (shardOf(path) === 3) files[path] = `# Note ${i}\n\nCompost and ${i % 2 ? "worms" : "leaves"} ${Array.from({ length: 30 }, (_, k) => `w${i}x${k}`).join(" ")}`;
    }
    const vault = new MemoryVault(files);
    const index = await VaultIndex.open({ frontmatter: readFrontmatter, store: new MemoryStateStore(), reader: vault, wikiFolder: "wiki", excludedFolders: [] });
    await syncIndex(index, vault);
    // Removing half the segment's notes leaves more dead chunks than a search reads around.
    for (const path of Object.keys(files).slice(0, 100)) {
      index.remove(path);
      await vault.remove(path);
    }
    expect(index.text.searchMergeWanted).toBe(true);
    const pieces = index.searchMergePieces();
    let count = 0;
    while (!pieces.next().done) count += 1;
    expect(count).toBeGreaterThan(1);
    expect(index.text.searchMergeWanted).toBe(false);
    const rebuilt = await VaultIndex.open({ frontmatter: readFrontmatter, store: new MemoryStateStore(), reader: vault, wikiFolder: "wiki", excludedFolders: [] });
    await syncIndex(rebuilt, vault);
    for (const q of ["compost worms", "leaves", "note"]) {
      expect(index.searchText(q, { scope: { kind: "all" }, limit: 50 })).toEqual(rebuilt.searchText(q, { scope: { kind: "all" }, limit: 50 }));
    }
  });
});
