import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { attribution, newSection, renderBody, type Segment } from "../../src/wiki/provenance";
import { isProvenanceLine, stripPageProvenance, stripProvenance } from "../../src/core/provenance-strip";

const OPEN = "%% synapse:source notes/a.md hash=0123456789abcdef %%";
const CLOSE = "%% /synapse:source %%";

/** A line of a page: user prose, or one of Synapse's own lines. */
const line = fc.oneof(
  fc.string({ maxLength: 40 }).filter((s) => !s.includes("\n")),
  fc.constantFrom(OPEN, CLOSE, "*From [[notes/a|A]]*", "  *From [[b]]*  ", "%% synapse:source x%25y.md hash=ffffffffffffffff %%\r", "", "> quote", "- item %% user comment %%"),
);

describe("stripProvenance", () => {
  it("leaves no marker or attribution line, keeps every other line in order, and is idempotent", () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), (lines) => {
        const stripped = stripProvenance(lines.join("\n"));
        const out = stripped.split("\n");
        expect(out.some((l) => isProvenanceLine(l))).toBe(false);
        expect(stripped).not.toMatch(/%% \/?synapse:/);
        const kept = lines.filter((l) => !isProvenanceLine(l) && l.trim() !== "");
        expect(out.filter((l) => l.trim() !== "").map((l) => l.trim())).toEqual(kept.map((l) => l.trim()));
        expect(stripProvenance(stripped)).toBe(stripped);
      }),
    );
  });

  it("takes a rendered page down to what its sources say", () => {
    const segments: Segment[] = [
      { kind: "text", text: "# Ada Lovelace" },
      newSection("notes/a.md", `${attribution("notes/a.md", "A")}\n\nAda wrote the first program.`),
      newSection("notes/b.md", attribution("notes/b.md", "B")),
    ];
    expect(stripProvenance(renderBody(segments))).toBe("# Ada Lovelace\n\nAda wrote the first program.");
  });

  it("is empty for a passage of nothing but a marker and an attribution line", () => {
    expect(stripProvenance(`${OPEN}\n*From [[notes/a|A]]*\n\n${CLOSE}\n`)).toBe("");
  });

  it("keeps a user's own comment and a line that only mentions an attribution", () => {
    expect(stripProvenance("%% my note %%\nSee *From [[x]]* above.")).toBe("%% my note %%\nSee *From [[x]]* above.");
  });
});

describe("stripPageProvenance", () => {
  const FRONTMATTER = "---\ntype: entity\ntitle: Ada Lovelace\nsources:\n  - notes/a.md\nsynapse_id: sy-0123\n---\n";

  it("keeps the frontmatter as it stands and takes the bookkeeping out of the body", () => {
    const body = renderBody([{ kind: "text", text: "My own aside." }, newSection("notes/a.md", `${attribution("notes/a.md", "A")}\n\nAda wrote the first program.`)]);
    expect(stripPageProvenance(`${FRONTMATTER}\n${body}\n`)).toBe(`${FRONTMATTER}\nMy own aside.\n\nAda wrote the first program.\n`);
  });

  it("returns a page without bookkeeping byte for byte, blank runs and user comments included", () => {
    const page = `${FRONTMATTER}\n\n\nSee *From [[x]]* above.\n%% my note %%\n\n\n`;
    expect(stripPageProvenance(page)).toBe(page);
    expect(stripPageProvenance("no frontmatter\n\n\nat all")).toBe("no frontmatter\n\n\nat all");
  });

  it("leaves the frontmatter alone when the body was nothing but bookkeeping, and works without one", () => {
    expect(stripPageProvenance(`${FRONTMATTER}\n${OPEN}\n*From [[notes/a|A]]*\n\n${CLOSE}\n`)).toBe(FRONTMATTER);
    expect(stripPageProvenance(`---\ntitle: A\n---`)).toBe(`---\ntitle: A\n---`);
    expect(stripPageProvenance(`${OPEN}\nText.\n${CLOSE}`)).toBe("Text.\n");
  });

  it("never leaves a marker in any page, whatever its lines", () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), fc.boolean(), (lines, withFrontmatter) => {
        const page = `${withFrontmatter ? FRONTMATTER : ""}${lines.join("\n")}`;
        const out = stripPageProvenance(page);
        expect(out.split("\n").some((l) => isProvenanceLine(l))).toBe(false);
        if (withFrontmatter) expect(out.startsWith(FRONTMATTER)).toBe(true);
        expect(stripPageProvenance(out)).toBe(out);
      }),
    );
  });
});
