import { describe, expect, it } from "vitest";
import { recordOf } from "../../src/wiki/identity";
import { newSection, renderBody } from "../../src/wiki/provenance";
import { hasSectionFrom, sectionsFrom } from "../../src/wiki/retract";

const pageFrom = (path: string, ...sources: string[]) =>
  recordOf(path, `---\ntype: concept\ntitle: ${path}\n---\n\nThe user's own line.\n\n${renderBody(sources.map((s) => newSection(s, `What ${s} says.`)))}\n`);

describe("which pages hold a section of the note, asked of the whole wiki at once", () => {
  it("answers as hasSectionFrom does, for other spellings of the path and for its former paths", () => {
    const pages = [pageFrom("wiki/a.md", "notes/a.md"), pageFrom("wiki/b.md", "Notes/A.md", "notes/b.md"), pageFrom("wiki/c.md", "old/a.md"), pageFrom("wiki/d.md", "notes/b.md"), pageFrom("wiki/e.md")];
    for (const former of [[], ["old/a.md"]]) {
      const holds = sectionsFrom("notes/a.md", former);
      const expected = pages.filter((p) => hasSectionFrom(p.body, "notes/a.md", former)).map((p) => p.path);
      expect(pages.filter(holds).map((p) => p.path)).toEqual(expected);
    }
    expect(pages.filter(sectionsFrom("notes/a.md", ["old/a.md"])).map((p) => p.path)).toEqual(["wiki/a.md", "wiki/b.md", "wiki/c.md"]);
    expect(pages.filter(sectionsFrom("notes/a.md")).map((p) => p.path)).toEqual(["wiki/a.md", "wiki/b.md"]);
  });
});
