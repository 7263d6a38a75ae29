import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { attribution, isUnedited, newSection, parseBody, renderBody } from "../../src/wiki/provenance";

describe("source sections in a page body", () => {
  it("round-trips sections and the user's text around them", () => {
    const body = renderBody([
      { kind: "text", text: "My intro." },
      newSection("notes/a.md", "*From [[notes/a|A]]*\n\nA says this."),
      { kind: "text", text: "My aside." },
      newSection("notes/b c.md", "B says that."),
    ]);
    const segments = parseBody(body);
    expect(segments.map((s) => s.kind)).toEqual(["text", "section", "text", "section"]);
    expect(segments[3]).toMatchObject({ kind: "section", source: "notes/b c.md", content: "B says that." });
    expect(segments.filter((s) => s.kind === "section").every((s) => s.kind === "section" && isUnedited(s))).toBe(true);
    expect(renderBody(segments)).toBe(body);
  });

  it("notices an edit inside a section by its hash", () => {
    const body = renderBody([newSection("notes/a.md", "A says this.")]).replace("this", "that, says the user");
    const [section] = parseBody(body);
    expect(section?.kind === "section" && isUnedited(section)).toBe(false);
  });

  it("spells a path with % or a line break so the marker stays one comment", () => {
    const body = renderBody([newSection("notes/100%\nsure.md", "Text.")]);
    expect(body.split("\n")[0]).toBe("%% synapse:source notes/100%25%0Asure.md hash=" + (parseBody(body)[0] as { hash: string }).hash + " %%");
    expect(parseBody(body)[0]).toMatchObject({ source: "notes/100%\nsure.md" });
  });

  it("keeps every line of a body whose markers the user broke", () => {
    const broken = "Intro\n%% synapse:source notes/a.md hash=0123456789abcdef %%\nA text\nmore\n%% /synapse:source %%\n%% /synapse:source %%\nTail";
    const rendered = renderBody(parseBody(broken));
    for (const line of ["Intro", "A text", "more", "Tail"]) expect(rendered).toContain(line);
  });

  it("never drops a non-blank line, whatever the body (property)", () => {
    const line = fc.oneof(
      fc.string({ maxLength: 30 }).filter((s) => !s.includes("\n") && !s.includes("\r")),
      fc.constantFrom("%% synapse:source notes/a.md hash=0123456789abcdef %%", "%% /synapse:source %%", "", "> quote", "- item"),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 20 }), (lines) => {
        const body = lines.join("\n");
        const again = renderBody(parseBody(body));
        const kept = new Set(again.split("\n").map((l) => l.trim()));
        for (const l of lines) {
          if (!l.trim() || /^%% \/?synapse:source/.test(l.trim())) continue;
          expect(kept.has(l.trim())).toBe(true);
        }
      }),
    );
  });

  it("attributes a section with a link to the note", () => {
    expect(attribution("notes/Ada.md", "Ada [Lovelace]")).toBe("*From [[notes/Ada|Ada Lovelace]]*");
  });
});

describe("telling Synapse's text from the user's", () => {
  it("is Synapse's text only when every section is unedited and nothing else is on the page", async () => {
    const { isAllSynapseText } = await import("../../src/wiki/provenance");
    const body = renderBody([newSection("notes/a.md", "A."), newSection("notes/b.md", "B.")]);
    expect(isAllSynapseText(body)).toBe(true);
    expect(isAllSynapseText(`${body}\n\nMine.`)).toBe(false);
    expect(isAllSynapseText(body.replace("A.", "A!"))).toBe(false);
    expect(isAllSynapseText("Just text.")).toBe(false);
  });

  it("counts a section whose attribution link Obsidian re-pointed at the moved note as unedited, and nothing else", () => {
    const section = newSection("notes/a.md", `${attribution("notes/a.md", "A")}\n\nA says this.`);
    const edit = (from: string, to: string) => ({ ...section, content: section.content.replace(from, to) });
    expect(isUnedited(edit("[[notes/a|", "[[archive/a|"))).toBe(true);
    expect(isUnedited(edit("[[notes/a|", "[[a|"))).toBe(true);
    expect(isUnedited(edit("[[notes/a|A]]", "[[archive/a|B]]"))).toBe(false);
    expect(isUnedited(edit("A says this.", "A says that."))).toBe(false);
    expect(isUnedited({ ...edit("[[notes/a|", "[[archive/a|"), content: `${edit("[[notes/a|", "[[archive/a|").content} More.` })).toBe(false);
  });
});
