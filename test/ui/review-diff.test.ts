import { describe, expect, it } from "vitest";
import { newPageText, readableChange, readableText } from "../../src/ui/review-diff";
import type { ReviewChange } from "../../src/wiki/review";

const page = (hash: string, body: string) =>
  `---\ntype: entity\ntitle: Ada Lovelace\nsynapse_id: sy-10a745ecad7a14b1\nsynapse_hash: ${hash}\n---\n\n%% synapse:source Notes/Ada.md hash=${hash} %%\n*From [[Notes/Ada|Ada]]*\n\n${body}\n\n%% /synapse:source %%\n`;

const change = (before: string | null, after: string | null): ReviewChange => ({
  path: "wiki/entities/Ada Lovelace.md",
  type: "entity",
  title: "Ada Lovelace",
  action: before === null ? "created" : "updated",
  before,
  after,
  diff: "",
});

describe("the review's readable diff", () => {
  it("hides the source markers, attributions, synapse_id and synapse_hash", () => {
    const text = readableText(page("958f4b8fa794ccf0", "Ada wrote the first program."));
    expect(text).not.toMatch(/%%|synapse_id|synapse_hash|\*From/);
    expect(text).toContain("title: Ada Lovelace");
    expect(text).toContain("Ada wrote the first program.");
  });

  it("a change of only a marker's hash is no change at all: no lines, no counts", () => {
    expect(readableChange(change(page("aaaa", "Same words."), page("bbbb", "Same words.")))).toEqual({ lines: [], added: 0, removed: 0 });
  });

  it("counts the content lines added and removed, without hash-only pairs", () => {
    const readable = readableChange(change(page("aaaa", "Old words."), page("bbbb", "New words.")));
    expect(readable).toMatchObject({ added: 1, removed: 1 });
    expect(readable.lines.filter((l) => l.kind === "added" || l.kind === "removed").map((l) => l.text)).toEqual(["-Old words.", "+New words."]);
  });

  it("shows a new page as its text, without frontmatter", () => {
    expect(newPageText(page("aaaa", "Ada wrote the first program."))).toBe("Ada wrote the first program.");
  });
});
