/**
 * Shard format 7 keeps the chunks' headings out of the JSON: their UTF-16 code units end to end and
 * Int32 offsets (one per chunk, plus the end), read as views on the shard's bytes and decoded one
 * heading at a time. Headings of any text come back as written (surrogate pairs, empty ones,
 * thousands in one note), and a section whose offsets fall, leave its units or disagree with the
 * chunk count is rejected even when the checksum is right.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ChunkTable, headingAt } from "../../src/retrieval/chunk-table";
import { decodeShard, encodeShard, shardOf, wordsChecksum, type NoteToStore } from "../../src/retrieval/shards";
import { TermDictionary } from "../../src/retrieval/term-dictionary";

const HEADER_BYTES = 16;
const links = { links: [], embeds: [], tags: [], sources: [] };
const NO_POSTINGS = { terms: TermDictionary.from([]), offsets: Int32Array.of(0), postings: new Int32Array(0) };

function noteWith(path: string, headings: readonly string[]): NoteToStore {
  return { path, mtime: 1, size: 2, hash: "h", links, chunks: headings.map((heading, i) => ({ heading, start: i, end: i + 1, length: i + 1 })) };
}

/** Paths of one shard, so that several notes can share it. */
function pathsOfOneShard(count: number): string[] {
  const shard = shardOf("notes/0.md");
  const paths: string[] = [];
  for (let i = 0; paths.length < count; i++) if (shardOf(`notes/${i}.md`) === shard) paths.push(`notes/${i}.md`);
  return paths;
}

/** The headings of every chunk of a decoded shard, note by note, through a segment's chunk table. */
function headingsOf(bytes: Uint8Array, shard: number): string[][] | null {
  const decoded = decodeShard(bytes, shard);
  if (!decoded) return null;
  const table = new ChunkTable();
  table.load(decoded.notes, decoded.frozen.chunks);
  return decoded.notes.map((n) => table.chunksOf(n.path).map((c) => c.heading));
}

/** Where the heading offsets lie in the body, and the body as a DataView. */
function headingSectionOf(bytes: Uint8Array) {
  const body = new DataView(bytes.buffer, bytes.byteOffset + HEADER_BYTES);
  const chunkCountAt = (4 + body.getUint32(0, true) + 3) & ~3;
  const chunkCount = body.getUint32(chunkCountAt, true);
  return { body, chunkCount, offsetsAt: chunkCountAt + 4 + 12 * chunkCount };
}

function resealed(bytes: Uint8Array): Uint8Array {
  const words = new Int32Array(bytes.buffer, bytes.byteOffset + HEADER_BYTES, (bytes.length - HEADER_BYTES) / 4);
  new DataView(bytes.buffer, bytes.byteOffset).setUint32(12, wordsChecksum(words), true);
  return bytes;
}

describe("the headings section (shard format 7)", () => {
  it("gives back every heading as written: non-BMP characters, lone surrogates, empty headings", () => {
    const [a, b, c] = pathsOfOneShard(3) as [string, string, string];
    fc.assert(
      fc.property(fc.array(fc.array(fc.oneof(fc.string({ unit: "binary" }), fc.string({ unit: fc.constantFrom("😀", "𠀀", "中", "\ud800", "") }), fc.constant(""))), { minLength: 3, maxLength: 3 }), (headings) => {
        const notes = [noteWith(a, headings[0] ?? []), noteWith(b, headings[1] ?? []), noteWith(c, headings[2] ?? [])];
        const bytes = encodeShard(notes, NO_POSTINGS);
        expect(headingsOf(bytes, shardOf(a))).toEqual(headings);
        const decoded = decodeShard(bytes, shardOf(a));
        expect(decoded?.notes.map((n) => n.chunkCount)).toEqual(headings.map((h) => h.length));
        // The section is a view on the shard's bytes: nothing decoded until a heading is asked for.
        expect(decoded?.frozen.chunks.headings.units.buffer).toBe(bytes.buffer);
      }),
    );
  });

  it("holds thousands of chunks of one note, each with its own heading and range", () => {
    const path = "notes/big.md";
    const headings = Array.from({ length: 5000 }, (_, i) => (i % 7 === 0 ? "" : `Heading ${i} 😀`));
    const bytes = encodeShard([noteWith(path, headings)], NO_POSTINGS);
    const decoded = decodeShard(bytes, shardOf(path));
    const table = new ChunkTable();
    table.load(decoded?.notes ?? [], decoded?.frozen.chunks ?? { ranges: new Int32Array(0), headings: { units: new Uint16Array(0), offsets: Int32Array.of(0) } });
    expect(table.chunksOf(path)).toEqual(noteWith(path, headings).chunks);
    expect(headingAt(decoded?.frozen.chunks.headings ?? { units: new Uint16Array(0), offsets: Int32Array.of(0) }, 4999)).toBe("Heading 4999 😀");
  });

  it("rejects offsets that fall, start past 0, leave the units or run past the body, though the checksum is right", () => {
    const path = "notes/n1.md";
    const aShard = () => encodeShard([noteWith(path, ["One", "", "Three"])], NO_POSTINGS);
    expect(decodeShard(resealed(aShard()), shardOf(path))).not.toBeNull();
    const corrupt = (edit: (section: ReturnType<typeof headingSectionOf>) => void) => {
      const bytes = aShard();
      edit(headingSectionOf(bytes));
      return decodeShard(resealed(bytes), shardOf(path));
    };
    // Offsets 0, 3, 3, 8 (the last one is the units' length): one falls after the second, the first
    // moves, a middle one leaves the units, the last runs past the body or below 0.
    expect(corrupt(({ body, offsetsAt }) => body.setInt32(offsetsAt + 4, 4, true))).toBeNull();
    expect(corrupt(({ body, offsetsAt }) => body.setInt32(offsetsAt, 1, true))).toBeNull();
    expect(corrupt(({ body, offsetsAt }) => body.setInt32(offsetsAt + 8, 9, true))).toBeNull();
    expect(corrupt(({ body, offsetsAt }) => body.setInt32(offsetsAt + 12, 1 << 28, true))).toBeNull();
    expect(corrupt(({ body, offsetsAt }) => body.setInt32(offsetsAt + 12, -2, true))).toBeNull();
    // A chunk count that disagrees with the notes' (which also moves every section after it).
    expect(corrupt(({ body, offsetsAt, chunkCount }) => body.setUint32(offsetsAt - 4 - 12 * chunkCount, chunkCount - 1, true))).toBeNull();
  });
});
