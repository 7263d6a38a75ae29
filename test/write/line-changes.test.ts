import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { editIndex, upsertIndex } from "../../src/write/index-log";
import { applyLineChange, lineChange, revertLineChange } from "../../src/write/line-changes";

/** Lines drawn from a small alphabet, so that texts share lines and the diff has to resync. */
const line = fc.oneof(fc.constantFrom("", "## Concepts", "- [[a|A]]", "- [[b|B]]", "x\r", " "), fc.string({ maxLength: 6 }));
const text = fc.array(line, { maxLength: 40 }).map((lines) => lines.join("\n"));

/** A text and the same text after a few local edits (what a run does to index.md). */
const edited = fc
  .tuple(
    fc.array(line, { minLength: 1, maxLength: 200 }),
    fc.array(fc.tuple(fc.nat(), fc.nat({ max: 3 }), fc.array(line, { maxLength: 4 })), { maxLength: 6 }),
  )
  .map(([lines, edits]) => {
    const after = [...lines];
    for (const [at, count, insert] of edits) after.splice(at % (after.length + 1), count, ...insert);
    return { before: lines.join("\n"), after: after.join("\n") };
  });

describe("a change recorded as lines", () => {
  it("gives back the exact text after, and reverted, the exact text before, for any two texts", () => {
    fc.assert(
      fc.property(text, text, (before, after) => {
        const change = lineChange(before, after);
        expect(applyLineChange(before, change)).toBe(after);
        expect(revertLineChange(after, change)).toBe(before);
      }),
      { numRuns: 500 },
    );
  });

  it("does the same for local edits, and records no more lines than the edits touched", () => {
    fc.assert(
      fc.property(edited, ({ before, after }) => {
        const change = lineChange(before, after);
        expect(applyLineChange(before, change)).toBe(after);
        expect(revertLineChange(after, change)).toBe(before);
        const recorded = change.hunks.reduce((n, h) => n + h.remove.length + h.insert.length, 0);
        expect(recorded).toBeLessThanOrEqual(Math.max(before.split("\n").length, after.split("\n").length) * 2);
      }),
      { numRuns: 300 },
    );
  });

  it("does the same for texts of many kilobytes, edited near either end, at block boundaries or anywhere", () => {
    const long = fc
      .tuple(
        fc.array(line, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 100, max: 1500 }),
        fc.array(fc.tuple(fc.oneof(fc.nat({ max: 3 }), fc.nat()), fc.boolean(), fc.nat({ max: 2 }), fc.array(line, { maxLength: 3 })), { maxLength: 4 }),
      )
      .map(([pattern, copies, edits]) => {
        const lines = Array.from({ length: copies }, (_, i) => pattern[i % pattern.length] ?? "");
        const after = [...lines];
        for (const [at, fromEnd, count, insert] of edits) {
          const i = at % (after.length + 1);
          after.splice(fromEnd ? after.length - i : i, count, ...insert);
        }
        return { before: lines.join("\n"), after: after.join("\n") };
      });
    fc.assert(
      fc.property(long, ({ before, after }) => {
        const change = lineChange(before, after);
        expect(applyLineChange(before, change)).toBe(after);
        expect(revertLineChange(after, change)).toBe(before);
      }),
      { numRuns: 300 },
    );
  });

  it("keeps CRLF line ends, a missing final newline and blank lines byte for byte", () => {
    for (const [before, after] of [
      ["a\r\nb\r\n", "a\r\nnew\r\nb\r\n"],
      ["a\nb", "a\nb\n"],
      ["", "\n\n"],
      ["\n\n\n", "\n"],
    ] as const) {
      const change = lineChange(before, after);
      expect(applyLineChange(before, change)).toBe(after);
      expect(revertLineChange(after, change)).toBe(before);
    }
  });

  it("records a 20,000-page index's edit as the few lines a run touched", () => {
    const section = (heading: string, folder: string, from: number) =>
      [`## ${heading}`, "", ...Array.from({ length: 6_667 }, (_, i) => `- [[wiki/${folder}/Page ${from + i * 3}|Page ${from + i * 3}]]`), ""];
    const before = upsertIndex("", []) + ["", ...section("Sources", "sources", 0), ...section("Entities", "entities", 1), ...section("Concepts", "concepts", 2)].join("\n");
    const after = editIndex(before, {
      upsert: [
        { path: "wiki/sources/New note.md", type: "source", title: "New note" },
        { path: "wiki/entities/Ada.md", type: "entity", title: "Ada" },
        { path: "wiki/concepts/Engine.md", type: "concept", title: "Engine" },
        { path: "wiki/concepts/Page 2.md", type: "concept", title: "Page two" },
      ],
      remove: ["wiki/entities/Page 4.md"],
    });
    const change = lineChange(before, after);
    expect(change.hunks.length).toBeLessThanOrEqual(5);
    expect(change.hunks.reduce((n, h) => n + h.remove.length + h.insert.length, 0)).toBeLessThanOrEqual(8);
    expect(JSON.stringify(change).length).toBeLessThan(1_000);
    expect(revertLineChange(after, change)).toBe(before);
  });

  it("refuses a text that is not the one it was recorded against", () => {
    const change = lineChange("a\nb\nc\n", "a\nB\nc\n");
    expect(revertLineChange("a\nb\nc\n", change)).toBeNull();
    expect(revertLineChange("a\nX\nc\n", change)).toBeNull();
    expect(applyLineChange("a\nB\nc\n", change)).toBeNull();
    expect(revertLineChange("a\nB\nc\nmore\n", change)).toBeNull();
  });
});
