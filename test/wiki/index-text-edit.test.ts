/**
 * index.md edited on its text in one go (every page's line found in the text as read, the edited
 * text put together once) gives what the line-by-line reference gives, page after page, byte for
 * byte; and the lines it says it replaced turn the text before into the text after, and back.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { editIndexByLines, editIndexWithChange, type IndexEntry } from "../../src/write/index-log";
import { keyOf } from "../../src/write/index-entry";
import { applyLineChange, revertLineChange } from "../../src/write/line-changes";

const TYPES = ["source", "entity", "concept"] as const;
const FOLDERS: Record<string, string> = { source: "sources", entity: "entities", concept: "concepts" };
// Few names and titles, so that pages share sections, titles tie, sort in any order or differ by case only.
const names = fc.constantFrom("Ada", "ada", "Bob", "Ada Lovelace", "Öl", "Σίσυφος", "ΣΊΣΥΦΟΣ", "東京", "\u212Aelvin", "kelvin", "x.y (z)", "Zed", "b", "B");
const titles = fc.oneof(names, fc.constantFrom("", "a", "A", "m", "zz", "Ada [1]"), fc.string({ maxLength: 3 }));
const entry: fc.Arbitrary<IndexEntry> = fc.record({ type: fc.constantFrom(...TYPES), name: names, title: titles }).map(({ type, name, title }) => ({ path: `wiki/${FOLDERS[type]}/${name}.md`, type, title }));

const target = (e: IndexEntry) => e.path.replace(/\.md$/, "");
/** A line of index.md: entries as Synapse writes them and as a user may have changed them, headings, the user's text. */
const line = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(entry, titles).map(([e, t]) => `- [[${target(e)}|${t}]]`) },
  { weight: 1, arbitrary: fc.tuple(entry, titles).map(([e, t]) => `* [[${target(e).toUpperCase()}|${t}]] my note`) },
  { weight: 1, arbitrary: fc.tuple(entry, titles).map(([e, t]) => `  - [[ ${target(e)} |${t}]]`) },
  { weight: 1, arbitrary: entry.map((e) => `See [[${target(e)}|x]] too`) },
  { weight: 3, arbitrary: fc.constantFrom("", "", "## Sources", "## Entities", "## Concepts", " ## Concepts ", "## Mine", "# Wiki index", "text\r", "- not a link") },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
);
const scenario = fc.record({
  // The three sections, each with its lines, then anything.
  text: fc.tuple(fc.array(line, { maxLength: 20 }), fc.array(line, { maxLength: 20 }), fc.array(line, { maxLength: 20 }), fc.array(line, { maxLength: 10 }), fc.boolean(), fc.integer({ min: 0, max: 4 })).map(([sources, entities, concepts, rest, finalNewline, crlf]) => {
    const text = ["## Sources", ...sources, "## Entities", ...entities, "## Concepts", ...concepts, ...rest].join("\n") + (finalNewline ? "\n" : "");
    return crlf === 0 ? text.replace(/\n/g, "\r\n") : text;
  }),
  // Mostly pages listed once each (the edit a run makes), sometimes one listed twice.
  upsert: fc.oneof({ weight: 5, arbitrary: fc.uniqueArray(entry, { selector: (e) => keyOf(e.path), maxLength: 8 }) }, { weight: 1, arbitrary: fc.array(entry, { maxLength: 6 }) }),
});

describe("index.md edited on its text in one go", () => {
  it("gives the line-by-line reference's bytes, and lines replaced that give back both texts", () => {
    let onText = 0;
    fc.assert(
      fc.property(scenario, ({ text, upsert }) => {
        const { text: edited, lines } = editIndexWithChange(text, { upsert });
        expect(edited).toBe(editIndexByLines(text, { upsert }));
        if (lines === null) return;
        onText += 1;
        expect(applyLineChange(text, lines)).toBe(edited);
        expect(revertLineChange(edited, lines)).toBe(text);
      }),
      { numRuns: 3_000 },
    );
    // The text path is the one taken (the reference alone would pass trivially).
    expect(onText).toBeGreaterThan(600);
  });

  it("does the same for a big index: a retitle, and pages listed in each section, several in one", () => {
    const lines = ["# Wiki index", "", "Mine.", ""];
    for (const [heading, folder] of [["Sources", "sources"], ["Entities", "entities"], ["Concepts", "concepts"]]) {
      lines.push(`## ${heading}`, "");
      for (let i = 0; i < 5_000; i++) lines.push(`- [[wiki/${folder}/Page ${String(i).padStart(4, "0")}|Page ${String(i).padStart(4, "0")}]]${i % 97 === 0 ? " — mine" : ""}`);
      lines.push("");
    }
    const text = `${lines.join("\n")}\n`;
    const upsert: IndexEntry[] = [
      { path: "wiki/sources/New note.md", type: "source", title: "New note" },
      { path: "wiki/entities/Page 0970.md", type: "entity", title: "Page nine seven zero" },
      { path: "wiki/concepts/Aardvark.md", type: "concept", title: "Aardvark" },
      { path: "wiki/concepts/Zzz.md", type: "concept", title: "Zzz" },
      { path: "wiki/concepts/Page 2500b.md", type: "concept", title: "Page 2500b" },
      { path: "wiki/concepts/Page 2500a.md", type: "concept", title: "Page 2500a" },
    ];
    const { text: edited, lines: change } = editIndexWithChange(text, { upsert });
    expect(edited).toBe(editIndexByLines(text, { upsert }));
    expect(edited).toContain("- [[wiki/entities/Page 0970|Page nine seven zero]] — mine\n");
    expect(edited).toContain("|Page 2500]]\n- [[wiki/concepts/Page 2500a|Page 2500a]]\n- [[wiki/concepts/Page 2500b|Page 2500b]]\n- [[wiki/concepts/Page 2501|");
    expect(change?.hunks.reduce((n, h) => n + h.insert.length + h.remove.length, 0)).toBe(7);
  });

  it("places a section's later new pages as the reference does when a title is listed with spaces for brackets", () => {
    // "][!" is listed as "  !", which sorts elsewhere: the pages placed before it need not sort before "_]c".
    const text = "# Wiki index\n\n## Concepts\n\n- [[wiki/concepts/e0|bbb]]\n";
    const upsert = ["--", "][!", "_]c"].map((title, i) => ({ path: `wiki/concepts/n${i}.md`, type: "concept", title }));
    expect(editIndexWithChange(text, { upsert }).text).toBe(editIndexByLines(text, { upsert }));
  });
});
