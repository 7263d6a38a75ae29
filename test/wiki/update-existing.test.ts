import { describe, expect, it } from "vitest";
import { contentHash } from "../../src/core/content-hash";
import { updateExisting } from "../../src/wiki/ingest/update-page";
import { SOURCE_PATH, aPage } from "../builders";

const ctx = { sourceTitle: "Source note", sourcePath: SOURCE_PATH, date: "2026-11-29" };

describe("updating a page the user wrote or edited", () => {
  it("keeps frontmatter it cannot parse byte for byte and only appends", () => {
    const current = "---\ntags: [a, b\nmy_field: precious\n---\nMy words.\n";
    const { content, action } = updateExisting(current, aPage().withContent("New words.").build(), ctx);
    expect(action).toBe("merged");
    expect(content.startsWith("---\ntags: [a, b\nmy_field: precious\n---\nMy words.")).toBe(true);
    expect(content).toContain("New words.");
  });

  it("reads a single-string sources field as one path, spaces and all", () => {
    const current = "---\ntitle: Example concept\nsources: notes/My Note.md\n---\n\nMy words.\n";
    const { content } = updateExisting(current, aPage().withContent("New words.").build(), ctx);
    expect(content).toMatch(/sources:\n {2}- notes\/My Note.md\n {2}- notes\/Source note.md\n/);
  });

  it("does not take a short body of the user's for an in-place edit just because a word recurs", () => {
    const current = "---\ntitle: Ada\n---\n\nLovelace\n";
    const { content } = updateExisting(current, aPage().withContent("Ada Lovelace wrote the first program.").build(), ctx);
    expect(content).toMatch(/^Lovelace\n\n%% synapse:source notes\/Source note.md hash=[0-9a-f]{16} %%\n\*From \[\[notes\/Source note\|Source note\]\]\*\n\nAda Lovelace wrote the first program\.\n\n%% \/synapse:source %%\n$/m);
  });

  it("takes a page written before provenance sections as the note's own when it cites the note in another Unicode form", () => {
    const source = "notes/Cafe\u0301.md"; // NFD, as macOS spelled it then
    const current = `---\ntitle: Ada\nsources:\n  - ${source}\nsynapse_hash: ${contentHash("Old body.")}\n---\n\nOld body.\n`;
    const { content } = updateExisting(current, aPage().withSources(source.normalize("NFC")).withContent("New body.").build(), { ...ctx, sourcePath: source.normalize("NFC") });
    expect(content).not.toContain("Old body.");
    expect(content).toContain("New body.");
  });

  it("credits a second note that says only what the page already says: in sources and in a section of its own", () => {
    const first = "---\ntitle: Example concept\nsources:\n  - notes/First.md\ntags:\n  - old\n---\n\n%% synapse:source notes/First.md hash=0000000000000000 %%\nExamples explain things.\n\n%% /synapse:source %%\n";
    const page = aPage().withSources(SOURCE_PATH).withContent("Examples explain things.").build();
    const { content, action } = updateExisting(first, { ...page, frontmatter: { ...page.frontmatter, tags: ["new"] } }, ctx);
    expect(action).toBe("merged");
    expect(content).toMatch(/sources:\n {2}- notes\/First.md\n {2}- notes\/Source note.md\n/);
    expect(content).toMatch(/%% synapse:source notes\/Source note.md hash=[0-9a-f]{16} %%\n\*From \[\[notes\/Source note\|Source note\]\]\*\n\n%% \/synapse:source %%/);
    // What it says adds nothing, so neither do its tags.
    expect(content).not.toContain("- new");
    expect(updateExisting(content, page, ctx).action).toBe("unchanged");
  });
});
