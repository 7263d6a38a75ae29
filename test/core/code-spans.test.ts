import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { maskCode } from "../../src/core/code-spans";
import { stripCode } from "../../src/core/markdown";
import { validatePages } from "../../src/core/validator";
import { wikilinkTargets } from "../../src/core/wikilinks";
import { rewriteLinks } from "../../src/wiki/ingest/plan-pages";
import { SOURCE_PATH, aPage } from "../builders";

const names = new Map([["x", "x (2)"]]);

describe("links in code are not links", () => {
  it.each([
    ["a backtick fence", "```\n[[x]]\n```\n"],
    ["a tilde fence", "~~~md\n[[x]]\n~~~\n"],
    ["a fence in a block quote", "> ```\n> [[x]]\n> ```\n"],
    ["a fence in a list item", "- item\n  ```\n  [[x]]\n  ```\n"],
    ["an unclosed fence, to the end", "text\n````\n[[x]]\n"],
    ["a fence whose closing line has an info string, so does not close", "```\na\n```js\n[[x]]\n```\n"],
    ["a fence closed only by a fence as long", "````\n```\n[[x]]\n````\n"],
    ["a tilde fence not closed by backticks", "~~~\n```\n[[x]]\n~~~\n"],
    ["an inline span", "see `[[x]]` here"],
    ["a double-backtick span holding a backtick", "see ``a ` [[x]]`` here"],
    ["a span across a line break", "see `a\n[[x]]` here"],
    ["an escaped link", "see \\[[x]] here"],
    ["an indented code block after a blank line", "text\n\n    [[x]]\n"],
    ["an indented code block at the start", "\t[[x]]\n\nafter"],
    ["an indented code block's later line, past a blank one", "text\n\n    code\n\n    [[x]]\n"],
    ["an indented code block after a list that ended", "- item\n\nparagraph\n\n    [[x]]\n"],
  ])("in %s", (_name, markdown) => {
    expect(wikilinkTargets(markdown)).toEqual([]);
    expect(rewriteLinks(markdown, names)).toBe(markdown);
    const report = validatePages([aPage().withContent(markdown).build()], { sourcePath: SOURCE_PATH, linkExists: () => false });
    expect(report.dangling).toEqual([]);
  });

  it.each([
    ["after a closed fence", "```\ncode\n```\n[[x]]"],
    ["after a tilde fence closed by a longer one", "~~~\ncode\n~~~~~\n[[x]]"],
    ["where a backtick fence's info string holds a backtick (not a fence)", "``` a`b\n[[x]]\n"],
    ["beside an unmatched backtick run", "a ``b [[x]]"],
    ["where a span would cross a blank line", "a `b\n\n[[x]]` c"],
    ["after an escaped backslash", "\\\\[[x]]"],
    ["after a span of another length", "``a`` [[x]] `b`"],
    ["indented inside a list item (it continues the item)", "- item\n\n    [[x]]\n"],
    ["indented inside a numbered list", "1. item\n    [[x]]\n"],
    ["indented right under a paragraph (a continuation line, not code)", "text\n    [[x]]\n"],
    ["after an indented code block ends", "text\n\n    code\n[[x]]\n"],
  ])("still counts a link %s", (_name, markdown) => {
    expect(wikilinkTargets(markdown)).toEqual(["x"]);
    expect(rewriteLinks(markdown, names)).toContain("[[x (2)|x]]");
  });

  it("rewrites the link outside code and leaves the one inside alone", () => {
    expect(rewriteLinks("[[x]] and `[[x]]`", names)).toBe("[[x (2)|x]] and `[[x]]`");
  });

  it("strips code for prose with the same rules", () => {
    expect(stripCode("a ``b ` c`` d\n```\n#tag\n```js\n```\ne")).toBe("a  d\n\ne");
  });

  const target = fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ]{0,12}$/);

  it("finds no link inside any fenced block (property)", () => {
    const fence = fc.record({ char: fc.constantFrom("`", "~"), open: fc.integer({ min: 3, max: 6 }), extra: fc.integer({ min: 0, max: 3 }), info: fc.constantFrom("", "js", " md title") });
    fc.assert(
      fc.property(target, fence, fc.constantFrom("", "> ", "  ", "- "), (t, f, indent) => {
        const open = f.char.repeat(f.open);
        const inner = indent === "- " ? "  " : indent; // the lines of a list item are indented, not bulleted
        const markdown = `before\n\n${indent}${open}${f.info}\n${inner}[[${t}]]\n${inner}${f.char.repeat(f.open + f.extra)}\n\nafter`;
        expect(wikilinkTargets(markdown)).toEqual([]);
        expect(wikilinkTargets(`${markdown}\n[[${t}]]`)).toEqual([t.trim()]);
      }),
    );
  });

  it("finds no link inside any inline code span (property)", () => {
    fc.assert(
      fc.property(target, fc.integer({ min: 1, max: 4 }), fc.constantFrom("", " ", "a`", "b` "), (t, n, noise) => {
        const ticks = "`".repeat(n);
        const inside = n > 1 ? `${noise}[[${t}]]` : `[[${t}]]`;
        expect(wikilinkTargets(`text ${ticks}${inside}${ticks} more`)).toEqual([]);
      }),
    );
  });

  it("keeps length and line breaks when masking, and never invents a link (property)", () => {
    const piece = fc.constantFrom("`", "``", "```", "~~~", "\\", "[[", "]]", "x", " ", "\n", "\n\n", ">", "|");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }).map((p) => p.join("")), (markdown) => {
        const masked = maskCode(markdown);
        expect(masked.length).toBe(markdown.length);
        expect([...masked].filter((c) => c === "\n").length).toBe([...markdown].filter((c) => c === "\n").length);
        for (const t of wikilinkTargets(markdown)) expect(markdown).toContain(t);
        expect(wikilinkTargets(markdown).length).toBeLessThanOrEqual([...markdown.matchAll(/\[\[/g)].length);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("code in notes with Windows line endings", () => {
  it("finds fenced code in a CRLF note as in an LF one", () => {
    const lf = "Before [[x]]\n\n```\n[[a]]\n\n[[b]]\n```\n\n~~~\n[[c]]\n~~~\nAfter [[y]]\n";
    expect(wikilinkTargets(lf)).toEqual(["x", "y"]);
    expect(wikilinkTargets(lf.replace(/\n/g, "\r\n"))).toEqual(["x", "y"]);
    expect(wikilinkTargets("```\r\n[[never closed]]\r\n")).toEqual([]);
  });
});
