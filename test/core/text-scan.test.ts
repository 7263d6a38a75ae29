import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { codeRanges } from "../../src/core/code-spans";
import { inlineTagsOutsideCode } from "../../src/core/markdown";
import { delimited, markdownLinks, oneOf, scanWork, spaceOr, wikilinks } from "../../src/core/text-scan";
import { targetedWikilinks, wikilinkParts } from "../../src/core/wikilinks";
import { adversarialText, growingBacktickRuns, runsOfEachPiece } from "../helpers/adversarial-texts";

/** Small texts from the characters links and code are made of, where the old regexes are right. */
const linkish = fc.stringMatching(/^(?:[[\]()!|#^`\\\n ab.]|\.md|\[\[|\]\]|\]\()*$/, { maxLength: 40 });

/** The patterns the scanners replace, as they were written. */
const OLD = {
  wikilink: /!?\[\[([^\]|#^\n]+)(?:[#^][^\]|\n]*)?(?:\|[^\]\n]*)?\]\]/g,
  planLink: /(!?)\[\[([^\]|\n]+)(\|[^\]\n]*)?\]\]/g,
  fixLink: /(!?)\[\[([^\]|#^\n]+)([#^][^\]|\n]*)?(\|[^\]\n]*)?\]\]/g,
  mdLink: /(!?)\[[^\]\n]*\]\(([^)\s]+\.md)(?:#[^)\s]*)?\)/gi,
  bareLink: /\[\[[^\]\n]*\]\]/g,
  parenthesised: /\]\([^)\n]*\)/g,
};

const spans = (matches: Iterable<{ index: number; end: number }>) => [...matches].map(({ index, end }) => [index, end]);
const regexSpans = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].map((m) => [m.index, m.index + m[0].length]);

describe("the single-pass scanners match what the regexes they replace matched", () => {
  it("wikilinks with a target, split into target, anchor and alias (property)", () => {
    fc.assert(
      fc.property(linkish, (text) => {
        const found = [...targetedWikilinks(text)].map((m) => {
          const { target, anchor, alias } = wikilinkParts(m.inner);
          return [m.index, m.end, m.embed ? "!" : "", target, anchor, alias];
        });
        const expected = [...text.matchAll(OLD.fixLink)].map((m) => [m.index, m.index + m[0].length, m[1], m[2], m[3], m[4]]);
        expect(found).toEqual(expected);
        expect(spans(targetedWikilinks(text))).toEqual(regexSpans(text, OLD.wikilink));
      }),
      { numRuns: 3000 },
    );
  });

  it("wikilinks whose text before the `|` is not empty (property)", () => {
    fc.assert(
      fc.property(linkish, (text) => {
        const found = [...wikilinks(text, "|")].map((m) => [m.index, m.end, m.embed ? "!" : ""]);
        expect(found).toEqual([...text.matchAll(OLD.planLink)].map((m) => [m.index, m.index + m[0].length, m[1]]));
      }),
      { numRuns: 3000 },
    );
  });

  it("delimited text: `[[…]]` and `](…)` (property)", () => {
    fc.assert(
      fc.property(linkish, (text) => {
        expect(spans(delimited(text, "[[", oneOf("]\n"), "]]"))).toEqual(regexSpans(text, OLD.bareLink));
        expect(spans(delimited(text, "](", oneOf(")\n"), ")"))).toEqual(regexSpans(text, OLD.parenthesised));
      }),
      { numRuns: 3000 },
    );
  });

  it("markdown links to notes (property)", () => {
    const notePath = (destination: string) => /^([^)\s]+\.md)(?:#[^)\s]*)?$/i.exec(destination)?.[1] ?? null;
    fc.assert(
      fc.property(linkish, (text) => {
        const found = [...markdownLinks(text, spaceOr(")"), (d) => notePath(d) !== null)].map((m) => [m.index, m.end, m.embed ? "!" : "", notePath(m.destination)]);
        expect(found).toEqual([...text.matchAll(OLD.mdLink)].map((m) => [m.index, m.index + m[0].length, m[1], m[2]]));
      }),
      { numRuns: 3000 },
    );
  });

  it("inline tags skip links as before (property)", () => {
    const oldTags = (codeFree: string) => {
      const text = codeFree.replace(OLD.bareLink, " ").replace(OLD.parenthesised, " ");
      return [...new Set([...text.matchAll(/(?:^|[\s(,;])#([\p{L}\p{N}_/-]*\p{L}[\p{L}\p{N}_/-]*)/gu)].map((m) => m[1]))];
    };
    fc.assert(fc.property(linkish, (text) => {
      expect(inlineTagsOutsideCode(text)).toEqual(oldTags(text));
    }), { numRuns: 3000 });
  });

  it("inline code spans close at the next run of the same length (property)", () => {
    // The old search: from the opening run, every later run measured until one is as long.
    const oldSpans = (text: string) => {
      const out: number[][] = [];
      let i = 0;
      while (i < text.length) {
        if (text[i] === "\\" && "[`\\".includes(text[i + 1] ?? "_")) {
          i += 2;
          continue;
        }
        if (text[i] !== "`") {
          i++;
          continue;
        }
        let runEnd = i;
        while (text[runEnd] === "`") runEnd++;
        let close = -1;
        for (let j = runEnd; j < text.length; ) {
          if (text[j] !== "`") {
            j++;
            continue;
          }
          let end = j;
          while (text[end] === "`") end++;
          if (end - j === runEnd - i) {
            close = j;
            break;
          }
          j = end;
        }
        if (close < 0) i = runEnd;
        else {
          out.push([i, close + runEnd - i]);
          i = close + runEnd - i;
        }
      }
      return out;
    };
    // One line that cannot open a fence or an indented block: one paragraph of inline code.
    const paragraph = fc.stringMatching(/^a(?:[`\\ ab]|``|```)*$/, { maxLength: 40 });
    fc.assert(fc.property(paragraph, (text) => {
      expect(codeRanges(text).map((r) => [r.start, r.end])).toEqual(oldSpans(text));
    }), { numRuns: 3000 });
  });
});

describe("the scanners' work is proportional to their input", () => {
  const scans: readonly ((text: string) => Iterable<unknown>)[] = [
    (text) => wikilinks(text, "|#^"),
    (text) => wikilinks(text, "|"),
    (text) => delimited(text, "](", oneOf(")\n"), ")"),
    (text) => markdownLinks(text, spaceOr(")"), (d) => d.endsWith(".md")),
  ];
  /** The most characters any scanner examined per character of input, by the scanners' own count. */
  const workPerCharacter = (text: string): number =>
    Math.max(
      ...scans.map((scan) => {
        scanWork.characters = 0;
        Array.from(scan(text));
        return scanWork.characters / text.length;
      }),
    );

  it.each(runsOfEachPiece(64 * 1024).map(({ name, text }) => [name, text] as const))("on a %s", (_name, text) => {
    expect(workPerCharacter(text)).toBeLessThanOrEqual(8);
  });

  it("on growing backtick runs", () => expect(workPerCharacter(growingBacktickRuns(64 * 1024))).toBeLessThanOrEqual(8));

  it("on interleaved runs of 64 KB to 1 MB (property)", () => {
    fc.assert(fc.property(adversarialText(64 * 1024, 1024 * 1024), (text) => workPerCharacter(text) <= 8), { numRuns: 8 });
  });
});
