import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OMITTED, noteExcerpt } from "../../src/core/note-excerpt";
import { anAnalysis } from "../builders";

const analysis = { ...anAnalysis(), concepts: [{ name: "Properties", description: "Fields." }], entities: [], topics: [] };
const paragraph = fc
  .array(fc.constantFrom("bee", "Wax", "🐝", "hive.", "Properties", "a"), { minLength: 1, maxLength: 30 })
  .map((words) => words.join(" "));

describe("noteExcerpt", () => {
  it("returns a note that fits whole", () => {
    expect(noteExcerpt("# A\n\nshort", analysis, 100)).toBe("# A\n\nshort");
  });

  it("stays within its room, keeps only whole paragraphs of the note, and never splits a character", () => {
    fc.assert(
      fc.property(fc.array(paragraph, { minLength: 1, maxLength: 60 }), fc.integer({ min: 1, max: 400 }), (paragraphs, tokens) => {
        const text = paragraphs.join("\n\n");
        const excerpt = noteExcerpt(text, analysis, tokens);
        if (text.length <= tokens * 3) {
          expect(excerpt).toBe(text);
          return;
        }
        expect(excerpt.length).toBeLessThanOrEqual(tokens * 3);
        expect(excerpt).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
        const parts = excerpt.split("\n\n").filter((p) => p !== OMITTED);
        // Whole paragraphs, except a lone first paragraph too large for any room, cut at a word.
        if (parts.length > 1 || paragraphs.some((p) => p === parts[0])) for (const part of parts) expect(paragraphs).toContain(part);
        else expect(text.startsWith(parts[0] ?? "")).toBe(true);
      }),
    );
  });

  it("puts the start of a named section and the opening before filler, in the note's order", () => {
    const filler = Array.from({ length: 50 }, (_, i) => `Filler ${i} with some words in it to take room.`);
    const text = ["# Title", "Opening line.", ...filler, "## Properties", "The named part.", ...filler].join("\n\n");
    const excerpt = noteExcerpt(text, analysis, 60);
    expect(excerpt.indexOf("Opening line.")).toBeGreaterThan(-1);
    expect(excerpt.indexOf("The named part.")).toBeGreaterThan(excerpt.indexOf("Opening line."));
    expect(excerpt).toContain(OMITTED);
  });

  it("without an analysis, puts the opening and then every section's start before the rest of the sections", () => {
    const filler = (section: string) => Array.from({ length: 20 }, (_, i) => `${section} detail ${i}, words that take some room here.`);
    const sections = ["Habitat", "Diet", "Lifecycle"];
    const text = ["# Bees", "Opening line.", ...sections.flatMap((s) => [`## ${s}`, `${s} in one line.`, ...filler(s)])].join("\n\n");
    const excerpt = noteExcerpt(text, null, 120);
    expect(excerpt).toContain("Opening line.");
    for (const s of sections) {
      expect(excerpt).toContain(`## ${s}\n\n${s} in one line.`);
      expect(excerpt).not.toContain(`${s} detail 19`);
    }
    expect(excerpt.indexOf("Diet in one line.")).toBeGreaterThan(excerpt.indexOf("Habitat in one line."));
  });

  it("keeps a fenced code block with blank lines as one paragraph", () => {
    const code = "```\nline one\n\nline two\n```";
    const text = [code, ...Array.from({ length: 40 }, (_, i) => `Paragraph ${i} of filler text.`)].join("\n\n");
    expect(noteExcerpt(text, analysis, 40)).toContain(code);
  });

  it("counts a marker on both sides of a paragraph (seeds fast-check found)", () => {
    for (const tokens of [5, 1]) {
      const excerpt = noteExcerpt(["bee bee bee", "bee bee", "bee"].join("\n\n"), analysis, tokens);
      expect(excerpt.length).toBeLessThanOrEqual(tokens * 3);
    }
  });

  it("is empty when there is no room", () => {
    expect(noteExcerpt("some text", analysis, 0)).toBe("");
  });
});
