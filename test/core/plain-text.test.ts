import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stripCode } from "../../src/core/markdown";
import { plainText } from "../../src/core/plain-text";
import { runsOfEachPiece } from "../helpers/adversarial-texts";

/** plainText as a chain of regular expressions, as it was before its quadratic steps became single passes. */
function regexPlainText(markdown: string): string {
  return stripCode(markdown)
    .replace(/(^|[ \t])\^[A-Za-z0-9-]+[ \t]*$/gm, "$1")
    .replace(/\[\^[^\]\s]+\]:?/g, " ")
    .replace(/<!--[\s\S]*?-->/g, " ")
    .replace(/%%[\s\S]*?%%/g, " ")
    .replace(/<[^>\n]+>/g, " ")
    .replace(/!\[\[[^\]\n]*\]\]/g, " ")
    .replace(/\[\[([^\]|\n]*)\|([^\]\n]*)\]\]/g, "$2")
    .replace(/\[\[([^\]\n]*)\]\]/g, (_m, target: string) => target.replace(/[#^].*$/, ""))
    .replace(/!\[[^\]\n]*\]\([^)\n]*\)/g, " ")
    .replace(/\[([^\]\n]*)\]\([^)\n]*\)/g, "$1")
    .replace(/https?:\/\/\S+/g, " ")
    .replace(/^\s*>\s*\[![^\]\n]*\][-+]?/gm, " ")
    .replace(/^\s*(?:[-*+]|\d+[.)])\s+/gm, " ")
    .replace(/-{2,}|[#>*_|~=^`]+/g, " ")
    .replace(/[ \t]+/g, " ");
}

const markupish = fc.stringMatching(/^(?:[[\]()!|#^<>\-%\n\r\t :a1.*+]|\[\[|\]\(|<!--|-->|%%|\[\^|\[!|http:\/\/|\u2028)*$/, { maxLength: 40 });

describe("plain text", () => {
  it("is what the chain of regular expressions made of it (property)", () => {
    fc.assert(
      fc.property(markupish, (text) => {
        expect(plainText(text)).toBe(regexPlainText(text));
      }),
      { numRuns: 5000 },
    );
  });

  it.each([
    ["a callout after blank lines", "\n\n> [!note] Title\ntext"],
    ["a list mark whose spaces run into the next line", "- \n- a\n  1. b"],
    ["an unclosed comment before a closed one", "<!-- a <!-- b --> c"],
    ["a footnote mark with a colon", "x[^1]: y [^ z]"],
  ])("reads %s as before", (_name, text) => {
    expect(plainText(text)).toBe(regexPlainText(text));
  });

  it.each(runsOfEachPiece(1024).map(({ name, text }) => [name, text] as const))("agrees on a %s", (_name, text) => {
    expect(plainText(text)).toBe(regexPlainText(text));
  });
});
