import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { frontmatterPaths, splitFrontmatter } from "../../src/core/markdown";
import { canonicalSource, mergeSources, sourceKey } from "../../src/core/sources";
import { cleanTag, cleanTags } from "../../src/core/tags";
import { validatePages } from "../../src/core/validator";
import { updateExisting } from "../../src/wiki/ingest/update-page";
import { SOURCE_PATH, aPage } from "../builders";

const ctx = { sourceTitle: "Source note", sourcePath: SOURCE_PATH, date: "2026-11-30" };
/** What Obsidian accepts as a tag (without its #): letters, marks, digits, _ - /, not only digits. */
const OBSIDIAN_TAG = /^(?=.*[^\p{N}_/-])[\p{L}\p{M}\p{N}_-]+(?:\/[\p{L}\p{M}\p{N}_-]+)*$/u;

describe("tags from a model", () => {
  it.each([
    ["#history", "history"],
    ["machine learning", "machine-learning"],
    ["  ##AI  ", "AI"],
    ["node.js", "node-js"],
    ["science/physics", "science/physics"],
    ["/a//b/", "a/b"],
    ["日本 語", "日本-語"],
    ["हिन्दी", "हिन्दी"],
    ["y2024", "y2024"],
  ])("%j becomes %j", (tag, expected) => {
    expect(cleanTag(tag)).toBe(expected);
  });

  it.each(["", "   ", "#", "2024", "12/34", "---", "!!!"])("%j is dropped", (tag) => {
    expect(cleanTag(tag)).toBeNull();
  });

  it("merges case-duplicates and drops empty ones, keeping the first spelling", () => {
    expect(cleanTags(["History", "history", "#HISTORY", "", "Machine Learning", "machine-learning"])).toEqual(["History", "Machine-Learning"]);
  });

  it("is always a valid Obsidian tag, and cleaning it again changes nothing (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 40 }), (tag) => {
        const cleaned = cleanTag(tag);
        if (cleaned === null) return;
        expect(cleaned).toMatch(OBSIDIAN_TAG);
        expect(cleanTag(cleaned)).toBe(cleaned);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("a user's tags on merge", () => {
  it("keeps numeric tags and every tag of the user's, adding only new ones", () => {
    const current = "---\ntitle: Example concept\ntags: [2024, history, History]\n---\n\nMine.\n";
    const page = aPage().withContent("New words.").build();
    page.frontmatter.tags = ["HISTORY", "ai"];
    const { content } = updateExisting(current, page, ctx);
    expect(splitFrontmatter(content).frontmatter.tags).toEqual([2024, "history", "History", "ai"]);
  });

  it("keeps a single numeric tag", () => {
    const current = "---\ntitle: Example concept\ntags: 1984\n---\n\nMine.\n";
    const { content } = updateExisting(current, aPage().withContent("New words.").build(), ctx);
    expect(splitFrontmatter(content).frontmatter.tags).toEqual(["1984"]);
  });
});

describe("sources in any spelling", () => {
  it.each(["[[notes/n]]", "[[notes/n|alias]]", "[[notes/n#Heading]]", "./notes/n.md", "/notes/n.md", "notes\\n.md", "notes/n.md", "notes//./n.md", " notes/n.md "])(
    "%j is notes/n.md",
    (source) => {
      expect(canonicalSource(source)).toBe("notes/n.md");
    },
  );

  it("keeps attachments' extensions", () => {
    expect(canonicalSource("[[papers/p.pdf]]")).toBe("papers/p.pdf");
  });

  it("counts a link to the note as citing it", () => {
    const page = aPage().withSources("[[notes/Source note|the note]]").build();
    expect(validatePages([page], { sourcePath: SOURCE_PATH }).valid).toBe(true);
  });

  it("merges the spellings of one source into one entry on update", () => {
    const current = "---\ntitle: Example concept\nsources:\n  - \"[[notes/Source note]]\"\n  - ./notes/Source note.md\n---\n\nMine.\n";
    const { content } = updateExisting(current, aPage().withContent("New words.").build(), ctx);
    expect(splitFrontmatter(content).frontmatter.sources).toEqual(["[[notes/Source note]]"]);
  });

  it("gives every spelling of a path the same key, composed or decomposed (property)", () => {
    const segment = fc.array(fc.constantFrom("a", "B", "é", "e\u0301", " ", "x", "日"), { minLength: 1, maxLength: 6 }).map((s) => s.join("")).filter((s) => s.trim() !== "" && s.trim() === s);
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 3 }), (segments) => {
        const path = segments.join("/");
        const spellings = [`[[${path}]]`, `[[${path}|alias]]`, `./${path}.md`, `/${path}.md`, `${segments.join("\\")}.md`, `${path.normalize("NFD")}.md`, `${path.normalize("NFC")}.md`];
        const keys = new Set(spellings.map(sourceKey));
        expect(keys.size).toBe(1);
        expect(mergeSources(spellings)).toHaveLength(1);
      }),
      { numRuns: 500 },
    );
  });
});

describe("sources written as links without quotes", () => {
  const sourcesOf = (yaml: string) => frontmatterPaths(splitFrontmatter(`---\n${yaml}\n---\nbody`).frontmatter.sources);

  it("reads `- [[note]]` items, which YAML parses as nested lists, as the links they are", () => {
    expect(sourcesOf("sources:\n  - [[private/x]]\n  - \"[[notes/y]]\"\n  - [[notes/z|Zed]]")).toEqual(["[[private/x]]", "[[notes/y]]", "[[notes/z|Zed]]"]);
    expect(sourcesOf("sources:\n  - [[private/x]]").map(canonicalSource)).toEqual(["private/x.md"]);
  });

  it("reads `sources: [[note]]` as one link", () => {
    expect(sourcesOf("sources: [[notes/a]]")).toEqual(["[[notes/a]]"]);
  });

  it("keeps quoted links and plain paths as they are", () => {
    expect(sourcesOf('sources: ["[[notes/a]]", notes/b.md]')).toEqual(["[[notes/a]]", "notes/b.md"]);
  });
});
