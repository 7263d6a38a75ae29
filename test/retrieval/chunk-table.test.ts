/**
 * A segment's chunk columns (chunk-table.ts) after any writes, removals and merges over a segment
 * loaded from its shard: each note's chunks read back as written (headings from the shard's section
 * or from the strings written since), and each merge that drops dead chunks keeps every note's
 * chunk ids one contiguous run, ordinals 0…n − 1, in the order the shard stores the notes; the
 * shard written from those columns reads back the same chunks.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Segment, type ChunkMeta } from "../../src/retrieval/segment";
import { decodeShard, encodeStoredShard, shardOf } from "../../src/retrieval/shards";
import { TermTable } from "../../src/retrieval/term-table";
import { applyOp, segmentOps, writeNote } from "../helpers/segment-ops";

/** Five paths of one shard, as a segment's notes are. */
const SHARD = shardOf("notes/0.md");
const PATHS = Array.from({ length: 2000 }, (_, i) => `notes/${i}.md`)
  .filter((p) => shardOf(p) === SHARD)
  .slice(0, 5);
const links = { links: [], embeds: [], tags: [], sources: [] };

const chunk = fc.record({
  heading: fc.constantFrom("", "Intro", "😀 𠀀", "Über"),
  start: fc.nat(1000),
  end: fc.nat(1000),
  length: fc.integer({ min: 1, max: 50 }),
});
const chunks = fc.array(chunk, { maxLength: 4 });
const op = segmentOps(PATHS, chunks);

function write(segment: Segment, path: string, metas: readonly ChunkMeta[]): void {
  writeNote(segment, path, metas, (writer) => writer.term("w", 0, 1, 1));
}

/** A segment of `notes`, written, stored in its shard and loaded back (its headings then come from the shard's section). */
function fromShard(table: TermTable, notes: ReadonlyMap<string, readonly ChunkMeta[]>): Segment {
  const built = new Segment(table);
  for (const [path, metas] of notes) write(built, path, metas);
  return reloaded(table, built);
}

/** A segment stored in its shard and loaded back. */
function reloaded(table: TermTable, built: Segment, keep?: (bytes: Uint8Array) => void): Segment {
  const { notes: stored, frozen } = built.stored();
  const bytes = encodeStoredShard(
    stored.map(([path, chunkCount]) => ({ path, mtime: 1, size: 1, hash: "h", links, chunkCount })),
    frozen,
  );
  keep?.(bytes);
  const decoded = decodeShard(bytes, SHARD);
  if (!decoded) throw new Error("The shard did not decode.");
  const segment = new Segment(table);
  segment.load(decoded.notes, decoded.frozen);
  return segment;
}

describe("chunk columns", () => {
  it("read each note's chunks back as written and keep its ids one run through compactions", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...PATHS), chunks), { maxLength: 5 }), fc.array(op, { maxLength: 30 }), (initial, ops) => {
        const table = new TermTable();
        const model = new Map<string, readonly ChunkMeta[]>();
        for (const [path, metas] of initial) {
          model.delete(path);
          model.set(path, metas);
        }
        const segment = fromShard(table, model);
        for (const o of ops) {
          applyOp(segment, model, o, write);
          for (const [path, metas] of model) expect(segment.chunksOf(path)).toEqual(metas);
        }
        const { notes } = segment.stored();
        expect(notes.map(([p]) => p)).toEqual([...model.keys()]);
        // After the merge, chunk ids 0…n − 1 are the living chunks: note after note, each a run.
        let id = 0;
        for (const [path, count] of notes) {
          const metas = segment.chunksOf(path);
          expect(count).toBe(metas.length);
          expect(metas).toEqual(model.get(path));
          for (let k = 0; k < metas.length; k++, id++) {
            expect(segment.pathOf(id)).toBe(path);
            expect(segment.ordinalOf(id)).toBe(k);
            expect(segment.metaOf(id)).toEqual(metas[k]);
          }
        }
        expect(id).toBe(segment.chunkCount);
        // Its shard, written from the columns (stored headings and written ones), reads back the same.
        const again = reloaded(table, segment);
        for (const [path, metas] of model) expect(again.chunksOf(path)).toEqual(metas);
      }),
    );
  });

  it("stop reading the loaded shard's bytes once a merge replaced its postings, though it dropped no chunk", () => {
    const table = new TermTable();
    const built = new Segment(table);
    write(built, PATHS[0] as string, [{ heading: "Loaded heading", start: 0, end: 5, length: 3 }]);
    let shardBytes: Uint8Array = new Uint8Array(0);
    const segment = reloaded(table, built, (bytes) => (shardBytes = bytes));
    // Only a new note: the merge has nothing to drop, so no compaction rebuilds the columns.
    write(segment, PATHS[1] as string, [{ heading: "Written heading", start: 0, end: 9, length: 4 }]);
    segment.freeze();
    // Were the headings still a view on the shard's bytes, the whole shard would stay in memory for
    // them, and scribbling over it would change them.
    shardBytes.fill(0x58);
    expect(segment.chunksOf(PATHS[0] as string)).toEqual([{ heading: "Loaded heading", start: 0, end: 5, length: 3 }]);
    expect(segment.chunksOf(PATHS[1] as string)).toEqual([{ heading: "Written heading", start: 0, end: 9, length: 4 }]);
  });
});
