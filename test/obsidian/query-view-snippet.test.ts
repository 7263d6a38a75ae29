/** A source's snippet in "Ask the wiki" reads as text: no Markdown marks, no `[[link]]` brackets. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { snippet } from "../../src/ui/query-view";

describe("a source's snippet", () => {
  it("shows a link by its text and drops list marks and bold", () => {
    const passage = "## Key terms\n\n- [[Analytical Engine]]: Babbage's machine.\n- [[Charles Babbage|Babbage]] built **none** of it.\n1. A first step.";
    expect(snippet(passage)).toBe("Analytical Engine: Babbage's machine. Babbage built none of it. A first step.");
  });

  it("leaves headings out (the page's title is the link above it), unless the passage is only a heading", () => {
    expect(snippet("# Ada Lovelace\n\n## Summary\n\nAugusta Ada King was a mathematician.")).toBe("Augusta Ada King was a mathematician.");
    expect(snippet("## Key terms")).toBe("Key terms");
  });

  it("never shows a link's brackets, whatever the passage around it", () => {
    const word = fc.stringMatching(/^[A-Za-z]{1,8}$/);
    const link = fc.tuple(word, fc.option(word, { nil: undefined })).map(([target, alias]) => (alias ? `[[${target}|${alias}]]` : `[[${target}]]`));
    const line = fc.array(fc.oneof(word, link), { minLength: 1, maxLength: 12 }).map((parts) => parts.join(" "));
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom("", "- ", "## ", "* ", "3. "), line), { minLength: 1, maxLength: 8 }), (lines) => {
        const shown = snippet(lines.map(([mark, text]) => mark + text).join("\n"));
        expect(shown).not.toMatch(/\[\[|\]\]|^[-*#]/);
      }),
    );
  });
});
