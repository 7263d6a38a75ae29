/**
 * One note, many spellings: macOS hands Synapse "Café" decomposed (NFD) one day and composed (NFC)
 * the next, and a case-insensitive disk answers to any case. Triage compares sources by `sourceKey`
 * (as retract does), so the same note revises its own section instead of adding a second one and
 * reporting a contradiction with itself — for every spelling fast-check draws.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sourceKey } from "../../src/core/sources";
import { parseBody, renderBody } from "../../src/wiki/provenance";
import { keepsOthers, triage } from "../../src/wiki/ingest/triage";

const NAMES = ["notes/Café.md", "Notizen/Über Ölmühlen.md", "notes/Ångström.md", "Résumé/Señor.md"];

/** A spelling of `path` that names the same file: NFC or NFD, and each letter in either case. */
const spelling = (path: string) =>
  fc.record({ form: fc.constantFrom("NFC", "NFD"), upper: fc.array(fc.boolean(), { minLength: path.length, maxLength: path.length }) }).map(({ form, upper }) =>
    [...path].map((ch, i) => (upper[i] ? ch.toUpperCase() : ch.toLowerCase())).join("").normalize(form),
  );

const twoSpellings = fc.constantFrom(...NAMES).chain((name) => fc.tuple(spelling(name), spelling(name)));

describe("triage and the spelling of a source", () => {
  it("revises the one section of a note cited in another Unicode form or case", () => {
    fc.assert(
      fc.property(twoSpellings, ([first, second]) => {
        expect(sourceKey(first)).toBe(sourceKey(second));
        const before = triage([], { source: first, sourceTitle: "Café", content: "Ada Lovelace was born in the year 1815 in London." });
        const current = parseBody(renderBody(before.segments));
        const after = triage(current, { source: second, sourceTitle: "Café", content: "Ada Lovelace was born in the year 1816 in London." });
        expect(after.decision).toBe("revise");
        expect(after.contradictions).toEqual([]);
        expect(after.segments.filter((s) => s.kind === "section")).toHaveLength(1);
        // The section's text, not its rendering: a marker's hex hash can hold "1815" by chance.
        const text = after.segments.map((s) => (s.kind === "section" ? s.content : s.text)).join("\n");
        expect(text).not.toContain("1815");
        expect(keepsOthers(current, after.segments, second)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it("still tells two different notes apart", () => {
    const first = triage([], { source: "notes/Café.md", sourceTitle: "Café", content: "Ada Lovelace was born in the year 1815 in London." });
    const after = triage(parseBody(renderBody(first.segments)), { source: "notes/Cafe.md", sourceTitle: "Cafe", content: "Ada Lovelace was born in the year 1816 in London." });
    expect(after.decision).toBe("append");
    expect(after.contradictions).toHaveLength(1);
  });
});
