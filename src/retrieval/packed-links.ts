/**
 * A note's links as the graph keeps them and a shard stores them: one string per note instead of
 * an object, four arrays and a string per target. A warm start at 50,000 notes holds 320,000 link
 * targets; as objects they were a large share of what every young-generation collection of the
 * load had to copy (its pauses were the longest main-thread blocks). The lists are unpacked when
 * asked — a neighbour query, a removal, a flush: a few notes at a time.
 *
 * Items are joined by ITEM, the four lists by LIST: two Latin-1 characters (so the string stays one
 * byte per character in V8) that JSON does not escape and no link, tag or source holds in practice.
 * A note whose lists hold either character or an empty item cannot be packed so; it stays a
 * `NoteLinks` object, which every function here takes as well.
 */
import type { NoteLinks } from "./links";

export type PackedLinks = string | NoteLinks;

const ITEM = "\u007f";
const LIST = "\u009f";

const EMPTY: NoteLinks = Object.freeze({ links: Object.freeze([]), embeds: Object.freeze([]), tags: Object.freeze([]), sources: Object.freeze([]) });

function packable(items: readonly string[]): boolean {
  for (const item of items) if (item === "" || item.includes(ITEM) || item.includes(LIST)) return false;
  return true;
}

/** The packed form of `links`, or `links` itself when an item could not be told apart once packed. */
export function packLinks(links: NoteLinks): PackedLinks {
  const lists = [links.links, links.embeds, links.tags, links.sources];
  if (!lists.every(packable)) return links;
  return lists.map((list) => list.join(ITEM)).join(LIST);
}

const split = (part: string | undefined): readonly string[] => (part ? part.split(ITEM) : []);

export function unpackLinks(packed: PackedLinks): NoteLinks {
  if (typeof packed !== "string") return packed;
  if (packed === `${LIST}${LIST}${LIST}`) return EMPTY;
  const [links, embeds, tags, sources] = packed.split(LIST);
  return { links: split(links), embeds: split(embeds), tags: split(tags), sources: split(sources) };
}

/** Whether a stored value has the shape of packed links (a shard's metadata is checked before use). */
export function isPackedLinks(value: unknown): value is PackedLinks {
  if (typeof value === "string") {
    let lists = 1;
    for (let at = value.indexOf(LIST); at >= 0; at = value.indexOf(LIST, at + 1)) lists += 1;
    return lists === 4;
  }
  if (typeof value !== "object" || value === null) return false;
  const links = value as Record<string, unknown>;
  return ["links", "embeds", "tags", "sources"].every((key) => Array.isArray(links[key]) && (links[key] as unknown[]).every((item) => typeof item === "string"));
}

/** The link, embed and source targets, each as often as written (registration and removal go through these). */
export function targetsOf(packed: PackedLinks): string[] {
  const links = unpackLinks(packed);
  return [...links.links, ...links.embeds, ...links.sources];
}

/** Whether two notes' links are the same lists, packed or not. */
export function sameLinks(a: PackedLinks, b: PackedLinks): boolean {
  const packedA = typeof a === "string" ? a : packLinks(a);
  const packedB = typeof b === "string" ? b : packLinks(b);
  if (typeof packedA === "string" || typeof packedB === "string") return packedA === packedB;
  const same = (x: readonly string[], y: readonly string[]) => x.length === y.length && x.every((item, i) => item === y[i]);
  return same(packedA.links, packedB.links) && same(packedA.embeds, packedB.embeds) && same(packedA.tags, packedB.tags) && same(packedA.sources, packedB.sources);
}
