import { describe, expect, it } from "vitest";
import { newSection, parseBody, renderBody, type Segment } from "../../src/wiki/provenance";
import { keepsOthers, triage } from "../../src/wiki/ingest/triage";

const A = "notes/a.md";
const B = "notes/b.md";
const material = (source: string, content: string) => ({ source, sourceTitle: source.slice(6, 7).toUpperCase(), content });
const page = (...segments: Segment[]) => parseBody(renderBody(segments));

describe("triage of one source's material on an existing page", () => {
  it("appends a section when the material is all new", () => {
    const current = page(newSection(A, "*From [[notes/a|A]]*\n\nA fact."));
    const result = triage(current, material(B, "B fact."));
    expect(result.decision).toBe("append");
    expect(result.segments).toHaveLength(2);
    expect(result.segments[1]).toMatchObject({ source: B, content: "*From [[notes/b|B]]*\n\nB fact." });
  });

  it("credits a note whose material the page already says: a section with its attribution alone", () => {
    const current = page({ kind: "text", text: "B fact." }, newSection(A, "A fact.\n\n- one\n- two"));
    const result = triage(current, material(B, "A fact.\n\n- two\n\nB fact."));
    expect(result.decision).toBe("credit");
    expect(result.segments.slice(0, 2)).toEqual(current);
    expect(result.segments[2]).toMatchObject({ kind: "section", source: B, content: "*From [[notes/b|B]]*" });
    // Ingesting it again changes nothing: the credit is its section, revised to itself.
    expect(triage(result.segments, material(B, "A fact.\n\n- two\n\nB fact.")).decision).toBe("unchanged");
  });

  it("merges: only what is new goes into the source's section, a heading only above what stays", () => {
    const current = page(newSection(A, "A fact.\n\n## List\n\n- one\n- two"));
    const result = triage(current, material(B, "A fact.\n\n## Other\n\nA fact.\n\n## List\n\n- two\n- three"));
    expect(result.decision).toBe("merge");
    expect(result.segments[1]).toMatchObject({ content: "*From [[notes/b|B]]*\n\n## List\n\n- three" });
  });

  it("revises the source's own unedited section and leaves the others alone", () => {
    const current = page({ kind: "text", text: "Mine." }, newSection(A, "Old A."), newSection(B, "B fact."));
    const result = triage(current, material(A, "New A."));
    expect(result.decision).toBe("revise");
    expect(renderBody(result.segments)).not.toContain("Old A.");
    expect(renderBody(result.segments)).toContain("New A.");
    expect(keepsOthers(current, result.segments, A)).toBe(true);
  });

  it("is unchanged when the source says what it said before", () => {
    const first = triage([], material(A, "Same."));
    const again = triage(page(...first.segments), material(A, "Same."));
    expect(again.decision).toBe("unchanged");
  });

  it("keeps the user's edit of a section and adds the new version after it", () => {
    const written = renderBody(triage([], material(A, "Generated.")).segments);
    const edited = parseBody(written.replace("Generated.", "Generated, fixed by me."));
    const result = triage(edited, material(A, "Generated anew."));
    expect(result.decision).toBe("append");
    expect(result.detail).toContain("Your edit");
    const body = renderBody(result.segments);
    expect(body.indexOf("fixed by me")).toBeLessThan(body.indexOf("Generated anew."));
    // Material unchanged since the edit: the edit stands, nothing is added.
    expect(triage(edited, material(A, "Generated.")).decision).toBe("unchanged");
  });

  it("unwraps markers an agent copied back and drops other sources' sections from the material", () => {
    const current = page(newSection(A, "A fact."), newSection(B, "B fact."));
    const agentBody = renderBody([newSection(A, "A fact, rewritten by the agent."), newSection(B, "B fact.")]);
    const result = triage(current, material(A, agentBody));
    const body = renderBody(result.segments);
    expect(body.match(/B fact\./g)).toHaveLength(1);
    expect(body).toContain("A fact, rewritten by the agent.");
  });

  it("a merge that would drop another source's text or the user's is refused", () => {
    const current = page({ kind: "text", text: "Mine." }, newSection(A, "A."), newSection(B, "B."));
    expect(keepsOthers(current, [current[0] as Segment, newSection(A, "A2."), newSection(B, "B changed.")], A)).toBe(false);
    expect(keepsOthers(current, [newSection(A, "A2."), current[2] as Segment], A)).toBe(false);
    expect(keepsOthers(current, [current[0] as Segment, current[2] as Segment], A)).toBe(true);
  });

  it("shows a contradiction with another source as a callout in the new source's section", () => {
    const current = page(newSection(A, "*From [[notes/a|A]]*\n\nAda Lovelace was born in 1815 in London."));
    const result = triage(current, material(B, "Ada Lovelace was born in 1816 in London."));
    expect(result.contradictions).toEqual([
      { sources: [B, A], passages: ["Ada Lovelace was born in 1816 in London.", "Ada Lovelace was born in 1815 in London."] },
    ]);
    expect(renderBody(result.segments)).toContain(
      "> [!warning] Contradiction\n> [[notes/b|b]] says: Ada Lovelace was born in 1816 in London.\n> [[notes/a|a]] says: Ada Lovelace was born in 1815 in London.",
    );
  });
});
