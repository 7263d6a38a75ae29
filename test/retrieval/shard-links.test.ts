/**
 * Shard format 7 stores each note's links packed in one string (packed-links.ts), or as lists when
 * they cannot be packed; decoding gives back what was stored and rejects a shard whose links are
 * neither, or that lists a path twice, even when its checksum is right.
 */
import { describe, expect, it } from "vitest";
import type { NoteLinks } from "../../src/retrieval/links";
import { packLinks, unpackLinks, type PackedLinks } from "../../src/retrieval/packed-links";
import { decodeShard, encodeShard, shardOf } from "../../src/retrieval/shards";
import { TermDictionary } from "../../src/retrieval/term-dictionary";

const path = "notes/n1.md";
const NO_POSTINGS = { terms: TermDictionary.from([]), offsets: new Int32Array(1), postings: new Int32Array(0) };

function roundTrip(links: PackedLinks): PackedLinks | null {
  const bytes = encodeShard([{ path, mtime: 1, size: 1, hash: "h", chunks: [], links }], NO_POSTINGS);
  const decoded = decodeShard(bytes, shardOf(path));
  return decoded ? (decoded.notes[0]?.links ?? null) : null;
}

describe("a shard's links", () => {
  it("come back packed as they were stored", () => {
    const links: NoteLinks = { links: ["Alpha", "folder/Beta.md"], embeds: ["Picture.png"], tags: ["idea"], sources: ["[[Source|its title]]"] };
    const packed = packLinks(links);
    expect(typeof packed).toBe("string");
    const back = roundTrip(packed);
    expect(back).toBe(packed);
    expect(unpackLinks(back as PackedLinks)).toEqual(links);
  });

  it("that cannot be packed come back as lists", () => {
    const links: NoteLinks = { links: [""], embeds: [], tags: ["a\u007fb"], sources: [] };
    expect(roundTrip(packLinks(links))).toEqual(links);
  });

  it("reject the shard when they are neither packed nor lists", () => {
    expect(roundTrip("Alpha\u009fBeta")).toBeNull();
    expect(roundTrip({ links: "Alpha", embeds: [], tags: [], sources: [] } as unknown as NoteLinks)).toBeNull();
  });

  it("reject the shard when a path is listed twice (its notes' order and its chunks' would part)", () => {
    const note = { path, mtime: 1, size: 1, hash: "h", chunks: [], links: packLinks({ links: [], embeds: [], tags: [], sources: [] }) };
    expect(decodeShard(encodeShard([note], NO_POSTINGS), shardOf(path))).not.toBeNull();
    expect(decodeShard(encodeShard([note, note], NO_POSTINGS), shardOf(path))).toBeNull();
  });
});
