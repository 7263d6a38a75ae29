/** index.md edited on its text (searches) gives what the line-by-line reference gives, byte for byte. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { editIndex, editIndexByLines, type IndexEntry } from "../../src/write/index-log";
import { caseInsensitiveSource } from "../../src/write/index-text-edit";

// Few types and names, so that lines often name the pages an edit lists (in another case, in another line's text).
const TYPES = ["source", "entity", "concept", "synthesis"] as const;
const FOLDERS: Record<string, string> = { source: "sources", entity: "entities", concept: "concepts", synthesis: "syntheses", comparison: "comparisons" };
// Names that begin longer names ("Ada", "Ada Lovelace") too: a page's line is not a longer name's.
const names = fc.constantFrom("Ada", "ADA", "Ada Lovelace", "ada lovelace\u212A", "Öl", "Σίσυφος", "ΣΊΣΥΦΟΣ", "İstanbul", "x.y (z)", "\u212Aelvin", "東京", "\u2126hm", "ωhm", "\u212Bngström", "ångström", "\u03F4ήτα", "θήτα", "Stra\u1E9Ee", "straße", "𐐀𐐨");
const entry: fc.Arbitrary<IndexEntry> = fc.record({ type: fc.constantFrom(...TYPES), name: names, title: fc.oneof(names, fc.string({ maxLength: 5 })) }).map(({ type, name, title }) => ({
  path: `wiki/${FOLDERS[type]}/${name}.md`,
  type,
  title,
}));

/** Lines an index.md may hold about these pages: Synapse's entries (any case), mentions in the user's text, headings. */
const lineAbout = (pool: readonly IndexEntry[]) => {
  const page = fc.constantFrom(...pool);
  return fc.oneof(
    page.map((e) => `- [[${e.path.replace(/\.md$/, "")}|${e.title}]]`),
    page.map((e) => `* [[${e.path.replace(/\.md$/, "").toUpperCase()}|${e.title}]] my note`),
    page.map((e) => `  - [[ ${e.path.replace(/\.md$/, "")} |${e.title}]]`),
    page.map((e) => `- [[${e.path.replace(/\.md$/, "")}\t \u00a0|${e.title}]]`),
    page.map((e) => `See [[${e.path.replace(/\.md$/, "")}|x]] too`),
    page.map((e) => `- ${e.path.replace(/\.md$/, "")}|not a link`),
    fc.constantFrom("", "", "## Sources", "## Entities", "## Concepts", "  ## Concepts ", "## Syntheses", "## Mine", "# Wiki index", "text\r", "## Sources and more"),
    fc.string({ maxLength: 8 }),
  );
};
/** An index.md and the pages an edit lists: some it names already, some new. */
const scenario = fc.array(entry, { minLength: 1, maxLength: 4 }).chain((pool) =>
  fc.record({
    text: fc.tuple(fc.array(lineAbout(pool), { maxLength: 40 }), fc.boolean(), fc.boolean()).map(([lines, crlf, finalNewline]) => {
      const text = lines.join("\n") + (finalNewline ? "\n" : "");
      return crlf ? text.replace(/\n/g, "\r\n") : text;
    }),
    upsert: fc.array(fc.oneof(fc.constantFrom(...pool), entry), { maxLength: 5 }),
  }),
);

describe("index.md edited on its text", () => {
  it("gives the same bytes as the line-by-line reference for any index and any pages listed", () => {
    fc.assert(
      fc.property(scenario, ({ text, upsert }) => {
        expect(editIndex(text, { upsert })).toBe(editIndexByLines(text, { upsert }));
      }),
      { numRuns: 2_000 },
    );
  });

  it("searches for a page's line with a pattern that matches every character lower-casing to the key's", () => {
    let checked = 0;
    for (let code = 0; code <= 0xffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const ch = String.fromCharCode(code);
      const lower = ch.toLowerCase();
      if (lower.length !== 1) continue; // "İ": its key holds a combining dot, searched for in a lower-cased copy
      const source = caseInsensitiveSource(lower);
      expect(source).not.toBeNull();
      if (!new RegExp(`^${source ?? ""}$`, "i").test(ch)) expect.fail(`U+${code.toString(16).toUpperCase()} is not found by the pattern for ${lower}`);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(60_000);
    expect(caseInsensitiveSource("wiki/𐐨")).toBeNull();
  });

  it("does the same for a big index: a retitle, a page listed in each section, one with a new section", () => {
    const lines = ["# Wiki index", "", "Mine.", ""];
    for (const [heading, folder] of [["Sources", "sources"], ["Entities", "entities"], ["Concepts", "concepts"]]) {
      lines.push(`## ${heading}`, "");
      for (let i = 0; i < 5_000; i++) lines.push(`- [[wiki/${folder}/Page ${String(i).padStart(4, "0")}|Page ${String(i).padStart(4, "0")}]]${i % 97 === 0 ? " — mine" : ""}`);
      lines.push("");
    }
    const text = lines.join("\n");
    const upsert: IndexEntry[] = [
      { path: "wiki/sources/New note.md", type: "source", title: "New note" },
      { path: "wiki/entities/Page 0970.md", type: "entity", title: "Page nine seven zero" },
      { path: "wiki/concepts/Aardvark.md", type: "concept", title: "Aardvark" },
      { path: "wiki/concepts/Zzz.md", type: "concept", title: "Zzz" },
      { path: "wiki/syntheses/Both.md", type: "synthesis", title: "Both" },
    ];
    const edited = editIndex(text, { upsert });
    expect(edited).toBe(editIndexByLines(text, { upsert }));
    expect(edited).toContain("- [[wiki/entities/Page 0970|Page nine seven zero]] — mine\n");
  });
});
