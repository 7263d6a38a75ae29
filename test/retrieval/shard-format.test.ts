/**
 * Shard formats 5 to 7: the term dictionary is stored as raw UTF-16 code units, little-endian, and
 * read as a view on the shard's bytes (5); the chunks' ranges are an Int32 section (6); so are
 * their headings, as UTF-16 code units and Int32 offsets, the JSON keeping each note's chunk count
 * (7; see heading-section.test.ts). A shard whose dictionary section does not fit (odd byte length, longer than
 * the body, term offsets past its units) or whose chunk count disagrees with its notes' is rejected even
 * when its checksum is right;
 * the checksum keeps the values of FNV-1a taken as a uint32 at every step; and a big-endian host's
 * path (a DataView copy) reads and writes the same bytes.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readInt32s, readUint16s, writeInt32s, writeUint16s } from "../../src/retrieval/little-endian";
import { decodeShard, encodeShard, shardOf, wordsChecksum } from "../../src/retrieval/shards";
import { TermDictionary } from "../../src/retrieval/term-dictionary";

const HEADER_BYTES = 16;
const path = "notes/n1.md";
const links = { links: [], embeds: [], tags: [], sources: [] };
const note = {
  path,
  mtime: 1,
  size: 1,
  hash: "h",
  links,
  chunks: [
    { heading: "", start: 0, end: 1, length: 1 },
    { heading: "Two", start: 1, end: 70000, length: 12345 },
  ],
};
const TERMS = ["word", "中文", "😀", "𠀀", "\uffff"].sort();

function aShard(): Uint8Array {
  const offsets = Int32Array.from({ length: TERMS.length + 1 }, (_, i) => i);
  const postings = Int32Array.from(TERMS, () => 0 * 256 + 1);
  return encodeShard([note], { terms: TermDictionary.from(TERMS), offsets, postings });
}

/** Where the chunk count and the dictionary's byte length are kept in the body, and the body as a DataView. */
function dictionarySection(bytes: Uint8Array) {
  const body = new DataView(bytes.buffer, bytes.byteOffset + HEADER_BYTES);
  const chunkCountAt = (4 + body.getUint32(0, true) + 3) & ~3;
  const chunkCount = body.getUint32(chunkCountAt, true);
  const headingOffsetsAt = chunkCountAt + 4 + 12 * chunkCount;
  const headingUnits = body.getInt32(headingOffsetsAt + 4 * chunkCount, true);
  const lengthAt = (headingOffsetsAt + 4 * (chunkCount + 1) + 2 * headingUnits + 3) & ~3;
  return { body, chunkCountAt, lengthAt, unitsAt: lengthAt + 4, byteLength: body.getUint32(lengthAt, true) };
}

/** The shard with its header's checksum made right again after an edit of its body. */
function resealed(bytes: Uint8Array): Uint8Array {
  const words = new Int32Array(bytes.buffer, bytes.byteOffset + HEADER_BYTES, (bytes.length - HEADER_BYTES) / 4);
  new DataView(bytes.buffer, bytes.byteOffset).setUint32(12, wordsChecksum(words), true);
  return bytes;
}

/** FNV-1a over 32-bit words as format 4 computed it: a uint32 after every step. */
function referenceChecksum(words: Int32Array): number {
  let h = 0x811c9dc5;
  for (const w of words) h = Math.imul(h ^ w, 0x01000193) >>> 0;
  return h;
}

describe("shard formats 5 to 7", () => {
  it("stores the dictionary's code units raw and reads them back as a view on the shard's bytes", () => {
    const bytes = aShard();
    const { unitsAt, byteLength } = dictionarySection(bytes);
    const text = TERMS.map((t) => `${t}\n`).join("");
    expect(byteLength).toBe(2 * text.length);
    expect(new TextDecoder("utf-16le").decode(bytes.subarray(HEADER_BYTES + unitsAt, HEADER_BYTES + unitsAt + byteLength))).toBe(text);
    const decoded = decodeShard(bytes, shardOf(path));
    expect(decoded?.frozen.terms.units.buffer).toBe(bytes.buffer);
    expect(Array.from({ length: TERMS.length }, (_, i) => decoded?.frozen.terms.term(i))).toEqual(TERMS);
    for (const t of TERMS) expect(decoded?.frozen.terms.find(t)).toBe(TERMS.indexOf(t));
    expect(decoded?.notes[0]?.chunkCount).toBe(note.chunks.length);
  });

  it("rejects a chunk count that disagrees with the notes' or runs past the body", () => {
    for (const count of [1, 3, 1 << 28]) {
      const bytes = aShard();
      const { body, chunkCountAt } = dictionarySection(bytes);
      expect(body.getUint32(chunkCountAt, true)).toBe(2);
      body.setUint32(chunkCountAt, count, true);
      expect(decodeShard(resealed(bytes), shardOf(path))).toBeNull();
    }
  });

  it("rejects a dictionary section of odd length, one past the body, and term offsets past its units", () => {
    expect(decodeShard(resealed(aShard()), shardOf(path))).not.toBeNull();

    const odd = aShard();
    const oddSection = dictionarySection(odd);
    // One byte less still pads to the same end, so only the odd length is wrong.
    oddSection.body.setUint32(oddSection.lengthAt, oddSection.byteLength - 1, true);
    expect(decodeShard(resealed(odd), shardOf(path))).toBeNull();

    const long = aShard();
    const longSection = dictionarySection(long);
    longSection.body.setUint32(longSection.lengthAt, 1 << 30, true);
    expect(decodeShard(resealed(long), shardOf(path))).toBeNull();

    // The term starts follow the dictionary and the two counts; the last one is the units' length.
    const past = aShard();
    const pastSection = dictionarySection(past);
    const lastStartAt = ((pastSection.unitsAt + pastSection.byteLength + 3) & ~3) + 8 + 4 * TERMS.length;
    expect(pastSection.body.getInt32(lastStartAt, true)).toBe(pastSection.byteLength / 2);
    pastSection.body.setInt32(lastStartAt, pastSection.byteLength / 2 + 2, true);
    expect(decodeShard(resealed(past), shardOf(path))).toBeNull();
  });

  it("checksums as FNV-1a with a uint32 at every step, over a large body too", () => {
    fc.assert(fc.property(fc.int32Array({ maxLength: 200 }), (words) => {
        expect(wordsChecksum(words)).toBe(referenceChecksum(words));
      }),);
    const large = Int32Array.from({ length: 3 * 32 * 1024 + 5 }, (_, i) => Math.imul(i, 0x9e3779b1));
    expect(wordsChecksum(large)).toBe(referenceChecksum(large));
  });

  it("reads and writes the same little-endian bytes on a big-endian host's path as on a little-endian one", () => {
    fc.assert(
      fc.property(fc.uint16Array({ maxLength: 50 }), fc.int32Array({ maxLength: 50 }), (units, ints) => {
        const intsAt = (2 * units.length + 3) & ~3;
        const direct = new ArrayBuffer(intsAt + 4 * ints.length);
        const copied = new ArrayBuffer(direct.byteLength);
        writeUint16s(direct, 0, units, true);
        writeInt32s(direct, intsAt, ints, true);
        writeUint16s(copied, 0, units, false);
        writeInt32s(copied, intsAt, ints, false);
        expect(new Uint8Array(copied)).toEqual(new Uint8Array(direct));
        const view = new DataView(direct);
        units.forEach((u, i) => expect(view.getUint16(2 * i, true)).toBe(u));
        expect(readUint16s(direct, 0, units.length, false)).toEqual(units);
        expect(readInt32s(direct, intsAt, ints.length, false)).toEqual(ints);
      }),
    );
  });
});
