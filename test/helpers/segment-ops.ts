/**
 * What the segment property tests do to a segment: write a note's chunks, remove a note, merge —
 * over a few paths, with chunks drawn by each test's own arbitrary.
 */
import fc from "fast-check";
import { expect } from "vitest";
import type { ChunkMeta, NumberedChunkWriter, Segment } from "../../src/retrieval/segment";

export function segmentOps<C extends ChunkMeta>(paths: readonly string[], chunks: fc.Arbitrary<readonly C[]>) {
  return fc.oneof(
    fc.record({ kind: fc.constant("write" as const), path: fc.constantFrom(...paths), chunks }),
    fc.record({ kind: fc.constant("remove" as const), path: fc.constantFrom(...paths) }),
    fc.record({ kind: fc.constant("merge" as const) }),
  );
}

/** Writes a note's chunks, each chunk's words written by `words`. */
export function writeNote<C extends ChunkMeta>(segment: Segment, path: string, chunks: readonly C[], words: (writer: NumberedChunkWriter, chunk: C) => void): void {
  segment.write(path, (writer) => {
    for (const c of chunks) {
      writer.chunk(c.heading, c.start, c.end, c.length);
      words(writer, c);
    }
  });
}

export type SegmentOp<C> = { readonly kind: "write"; readonly path: string; readonly chunks: readonly C[] } | { readonly kind: "remove"; readonly path: string } | { readonly kind: "merge" };

/**
 * Applies an op to the segment and to `model`, its notes by path in the segment's order (a note
 * written again moves last); a removal must find the note in both or in neither.
 */
export function applyOp<C extends ChunkMeta>(segment: Segment, model: Map<string, readonly C[]>, op: SegmentOp<C>, write: (segment: Segment, path: string, chunks: readonly C[]) => void): void {
  if (op.kind === "write") {
    write(segment, op.path, op.chunks);
    model.delete(op.path);
    model.set(op.path, op.chunks);
  } else if (op.kind === "remove") {
    expect(segment.remove(op.path)).toBe(model.delete(op.path));
  } else segment.freeze();
}
