import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { searchableText, type Chunk } from "../../src/retrieval/chunker";
import { tokenize } from "../../src/core/tokenize";
import { runsOfEachPiece } from "../helpers/adversarial-texts";

/** The regexes a chunk's links were rewritten with before they became single passes. */
const regexSearchableText = (text: string) =>
  !text.includes("[[") && !text.includes("](")
    ? text
    : text
        .replace(/!?\[\[([^\]|\n]*)\|([^\]\n]*)\]\]/g, "$2 $1")
        .replace(/!?\[\[([^\]\n]*)\]\]/g, "$1")
        .replace(/\]\((?:[a-z]+:\/\/)?[^)\s]*\)/gi, "]");

const whole = (text: string) => ({ start: 0, end: text.length }) as Chunk;
const linkish = fc.stringMatching(/^(?:[[\]()!|#\n ab:/]|\[\[|\]\]|\]\(|http:\/\/)*$/, { maxLength: 40 });

describe("a chunk's searchable text", () => {
  it("is what the regexes made of it, so its tokens (the index's format) are unchanged (property)", () => {
    fc.assert(
      fc.property(linkish, (text) => {
        expect(searchableText(text, whole(text))).toBe(regexSearchableText(text));
      }),
      { numRuns: 5000 },
    );
  });

  it("keeps the tokens of links with labels, embeds and URLs", () => {
    const text = "See ![[Pic.png]] and [[Ada Lovelace|Ada]], [site](https://example.org/x) and [[B#h]].";
    expect(tokenize(searchableText(text, whole(text)))).toEqual(tokenize(regexSearchableText(text)));
  });

  it("leaves out Synapse's source markers and attribution lines, and nothing else", () => {
    const text = "%% synapse:source notes/Ada.md hash=0123456789abcdef %%\n*From [[notes/Ada|Ada Lovelace]]*\n\nShe wrote [[Notes]].\n%% /synapse:source %%\n";
    expect(tokenize(searchableText(text, whole(text)))).toEqual(["she", "wrote", "notes"]);
  });

  it.each(runsOfEachPiece(2048).map(({ name, text }) => [name, text] as const))("agrees on a %s", (_name, text) => {
    expect(searchableText(text, whole(text))).toBe(regexSearchableText(text));
  });
});
