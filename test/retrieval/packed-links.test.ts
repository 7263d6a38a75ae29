/**
 * A note's links packed into one string (packed-links.ts) must come back exactly as they went in,
 * whatever they hold; lists that one string cannot tell apart stay objects.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { NoteLinks } from "../../src/retrieval/links";
import { isPackedLinks, packLinks, targetsOf, unpackLinks } from "../../src/retrieval/packed-links";

/** Strings with the separators, empty strings, NUL, right-to-left marks and astral characters among the ordinary ones. */
const anItem = fc.oneof(
  fc.string(),
  fc.constantFrom("", "\u007f", "a\u009fb", "\u0000", "\u200f\u05e9\u05dc\u05d5\u05dd", "Cafe\u0301", "\u{1f600} note", "folder/Note.md", "[[Note|alias]]"),
);
const aList = fc.array(anItem, { maxLength: 5 });
const someLinks: fc.Arbitrary<NoteLinks> = fc.record({ links: aList, embeds: aList, tags: aList, sources: aList });
const plainItem = fc.string({ minLength: 1 }).filter((s) => !s.includes("\u007f") && !s.includes("\u009f"));
const plainLinks: fc.Arbitrary<NoteLinks> = fc.record({ links: fc.array(plainItem), embeds: fc.array(plainItem), tags: fc.array(plainItem), sources: fc.array(plainItem) });

describe("packed links", () => {
  it("unpack to the lists that were packed, whatever they hold", () => {
    fc.assert(
      fc.property(someLinks, (links) => {
        const packed = packLinks(links);
        expect(unpackLinks(packed)).toEqual(links);
        expect(isPackedLinks(packed)).toBe(true);
        expect(targetsOf(packed)).toEqual([...links.links, ...links.embeds, ...links.sources]);
      }),
      { numRuns: 2000 },
    );
  });

  it("are one string whenever no item is empty or holds a separator", () => {
    fc.assert(
      fc.property(plainLinks, (links) => {
        expect(typeof packLinks(links)).toBe("string");
      }),
    );
    expect(typeof packLinks({ links: [""], embeds: [], tags: [], sources: [] })).toBe("object");
    expect(typeof packLinks({ links: ["a\u007fb"], embeds: [], tags: [], sources: [] })).toBe("object");
  });

  it("keep empty lists apart from lists with items", () => {
    const links = { links: [], embeds: ["Picture.png"], tags: [], sources: ["[[Source]]"] };
    expect(unpackLinks(packLinks(links))).toEqual(links);
    const none = { links: [], embeds: [], tags: [], sources: [] };
    expect(unpackLinks(packLinks(none))).toEqual(none);
  });

  it("are told from what a corrupt shard could hold", () => {
    expect(isPackedLinks("a\u009fb")).toBe(false);
    expect(isPackedLinks("\u009f\u009f\u009f\u009f")).toBe(false);
    expect(isPackedLinks(42)).toBe(false);
    expect(isPackedLinks(null)).toBe(false);
    expect(isPackedLinks({ links: [1], embeds: [], tags: [], sources: [] })).toBe(false);
    expect(isPackedLinks({ links: [], embeds: [] })).toBe(false);
  });
});
