import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { editIndex, logEntryText, upsertIndex } from "../../src/write/index-log";
import { reconcileIndex } from "../../src/write/index-reconcile";

const PREAMBLE = "# Wiki index\n\nMaintained by Synapse: one line per page, grouped by type. Your own text, and anything you add after a link, is kept.\n";

describe("index.md", () => {
  it("starts with a preamble and groups pages by type, in title order", () => {
    const text = upsertIndex("", [
      { path: "wiki/concepts/Zeta.md", type: "concept", title: "Zeta" },
      { path: "wiki/sources/Note.md", type: "source", title: "Note" },
      { path: "wiki/concepts/Alpha.md", type: "concept", title: "Alpha" },
    ]);
    expect(text).toBe(`${PREAMBLE}\n## Sources\n\n- [[wiki/sources/Note|Note]]\n\n## Concepts\n\n- [[wiki/concepts/Alpha|Alpha]]\n- [[wiki/concepts/Zeta|Zeta]]\n`);
  });

  it("keeps the user's preamble, their lines and the annotation after a link", () => {
    const first = upsertIndex("", [{ path: "wiki/entities/Ada.md", type: "entity", title: "Ada" }]);
    const edited = first.replace("# Wiki index", "# My wiki\n\nWritten by me.").replace("|Ada]]", "|Ada]] — my favourite, see also [[Babbage]]");
    const withNote = edited.replace("## Entities\n", "## Entities\n\nPeople I care about:\n");
    const second = upsertIndex(withNote, [
      { path: "wiki/entities/Ada.md", type: "entity", title: "Ada" },
      { path: "wiki/entities/Bob.md", type: "entity", title: "Bob" },
    ]);
    expect(second).toContain("# My wiki\n\nWritten by me.");
    expect(second).toContain("- [[wiki/entities/Ada|Ada]] — my favourite, see also [[Babbage]]\n- [[wiki/entities/Bob|Bob]]\n");
    expect(second).toContain("People I care about:");
  });

  it("retitles an entry in place and keeps its annotation", () => {
    const text = "## Entities\n\n- [[wiki/entities/Ada|Ada]] (mine)\n- [[wiki/entities/Zed|Zed]]\n";
    expect(editIndex(text, { upsert: [{ path: "wiki/entities/Ada.md", type: "entity", title: "Ada Lovelace" }] })).toBe(
      "## Entities\n\n- [[wiki/entities/Ada|Ada Lovelace]] (mine)\n- [[wiki/entities/Zed|Zed]]\n",
    );
  });

  it("inserts without re-sorting what the user ordered by hand", () => {
    const text = "## Concepts\n\n- [[wiki/concepts/Zeta|Zeta]]\n- [[wiki/concepts/Alpha|Alpha]]\n";
    expect(editIndex(text, { upsert: [{ path: "wiki/concepts/Omega.md", type: "concept", title: "Omega" }] })).toBe(
      "## Concepts\n\n- [[wiki/concepts/Omega|Omega]]\n- [[wiki/concepts/Zeta|Zeta]]\n- [[wiki/concepts/Alpha|Alpha]]\n",
    );
  });

  it("removes the line of a removed page, and an emptied section with it", () => {
    const text = upsertIndex("", [
      { path: "wiki/sources/Note.md", type: "source", title: "Note" },
      { path: "wiki/concepts/Alpha.md", type: "concept", title: "Alpha" },
    ]);
    expect(editIndex(text, { remove: ["wiki/concepts/Alpha.md"] })).toBe(`${PREAMBLE}\n## Sources\n\n- [[wiki/sources/Note|Note]]\n`);
  });

  it("relists a moved page where it is and drops lines of pages that are gone", () => {
    const text = "## Entities\n\n- [[wiki/entities/Ada|Ada]] my note\n- [[wiki/entities/Gone|Gone]]\n- [[elsewhere/Mine|Mine]]\n";
    const edit = reconcileIndex(text, ["wiki/people/Ada.md"], "wiki", {});
    expect(editIndex(text, edit)).toBe("## Entities\n\n- [[wiki/people/Ada|Ada]] my note\n- [[elsewhere/Mine|Mine]]\n");
  });

  it("adding then removing pages gives back the same bytes (any starting index)", () => {
    const title = fc.stringMatching(/^[A-Za-z]([A-Za-z ]{0,10}[A-Za-z])?$/);
    const types = fc.constantFrom("source", "entity", "concept", "synthesis", "comparison");
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(title, types), { selector: ([t]) => t.toLowerCase(), maxLength: 8 }), fc.uniqueArray(fc.tuple(title, types), { selector: ([t]) => t.toLowerCase(), minLength: 1, maxLength: 4 }), (existing, added) => {
        const base = upsertIndex("", existing.map(([t, type]) => ({ path: `wiki/a/${t}.md`, type, title: t })));
        const fresh = added.filter(([t]) => !existing.some(([e]) => e.toLowerCase() === t.toLowerCase()));
        const grown = editIndex(base, { upsert: fresh.map(([t, type]) => ({ path: `wiki/a/${t}.md`, type, title: t })) });
        expect(editIndex(grown, { remove: fresh.map(([t]) => `wiki/a/${t}.md`) })).toBe(base);
      }),
    );
  });
});

describe("log.md", () => {
  it("one greppable entry per run: the heading, the pages with their action, the details", () => {
    const text = logEntryText({
      date: "2026-11-30",
      operation: "ingest",
      label: "Note",
      pages: [
        { path: "wiki/entities/Ada.md", title: "Ada", action: "created" },
        { path: "wiki/concepts/X.md", title: "X", action: "merged" },
        { path: "wiki/concepts/Y.md", title: "Y", action: "unchanged" },
      ],
      details: ["provider: offline", "tokens: 0 in, 0 out", "cost: free (runs on this computer)"],
    });
    expect(text).toBe(
      "\n## [2026-11-30] ingest | Note\n\n- created [[wiki/entities/Ada|Ada]]\n- merged [[wiki/concepts/X|X]]\n- 1 page unchanged\n- provider: offline\n- tokens: 0 in, 0 out\n- cost: free (runs on this computer)\n",
    );
  });
  it("lists every upserted page exactly once, whatever the index held before (property)", () => {
    // As page file names are: never with a trailing space (Windows strips it, and Obsidian trims a
    // link's target, so "u " and "u" are one page to it).
    const name = fc.stringMatching(/^[A-Za-z](?:[A-Za-z ]{0,7}[A-Za-z])?$/);
    const entry = fc.record({ name, type: fc.constantFrom("concept", "entity", "source") });
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 12 }), fc.array(entry, { maxLength: 6 }), (before, after) => {
        const toEntry = (e: { name: string; type: string }) => ({ path: `wiki/${e.type}/${e.name}.md`, type: e.type, title: e.name });
        const text = editIndex(upsertIndex("", before.map(toEntry)), { upsert: after.map(toEntry) });
        // A page is its path, trimmed and ignoring case ("W " and "w" are one page, listed once).
        const keys = text.split("\n").flatMap((l) => /^- \[\[([^\]|]+)\|/.exec(l)?.[1]?.trim().toLowerCase() ?? []);
        for (const e of after) expect(keys.filter((k) => k === `wiki/${e.type}/${e.name}`.trim().toLowerCase())).toHaveLength(1);
      }),
    );
  });
});
