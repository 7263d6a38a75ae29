import { describe, expect, it } from "vitest";
import { describeIssuesForModel, validatePages } from "../../src/core/validator";
import { SOURCE_PATH, aPage } from "../builders";

const validate = (...pages: ReturnType<ReturnType<typeof aPage>["build"]>[]) => validatePages(pages, { sourcePath: SOURCE_PATH });

describe("the validator", () => {
  it("tells the user what went wrong, never the instruction meant for the model", () => {
    const broken = aPage().titled("").ofType("essay").withSources().inLanguage("English").withContent("").build();
    const { issues } = validate(broken);
    expect(issues.map((i) => i.field).sort()).toEqual(["content", "frontmatter.lang", "frontmatter.sources", "title", "type"]);
    for (const issue of issues) {
      expect(issue.forUser).not.toBe(issue.message);
      expect(issue.forUser).not.toMatch(/give the page|write the page|use one of|must list|frontmatter|ISO 639/i);
    }
    expect(issues.find((i) => i.field === "title")?.forUser).toBe("The model left the title of page 1 empty.");
    expect(validate().issues[0]?.forUser).toBe("The model replied with no pages.");
  });

  it("accepts a page that follows every rule", () => {
    expect(validate(aPage().build())).toMatchObject({ valid: true, issues: [] });
  });

  it.each(["entity", "concept", "source", "synthesis", "comparison"])("accepts the page type %s", (type) => {
    expect(validate(aPage().ofType(type).build()).valid).toBe(true);
  });

  it.each(["", "person", "Entity", "note"])("rejects the page type %j and names the allowed ones", (type) => {
    const report = validate(aPage().ofType(type).build());
    expect(report.valid).toBe(false);
    expect(report.issues).toEqual([expect.objectContaining({ pageIndex: 0, field: "type" })]);
    expect(report.issues[0]?.message).toContain("entity, concept, source, synthesis, comparison");
  });

  it.each(["", "   "])("rejects the empty title %j", (title) => {
    const report = validate(aPage().titled(title).build());
    expect(report.issues.map((i) => i.field)).toEqual(["title"]);
  });

  it("rejects empty sources and says which path to cite", () => {
    const report = validate(aPage().withSources().build());
    expect(report.issues.map((i) => i.field)).toEqual(["frontmatter.sources"]);
    expect(report.issues[0]?.message).toContain(SOURCE_PATH);
  });

  it("rejects sources that leave out the ingested note", () => {
    const report = validate(aPage().withSources("notes/other.md").build());
    expect(report.issues.map((i) => i.field)).toEqual(["frontmatter.sources"]);
  });

  it("accepts the note's path written with ./ or a leading slash", () => {
    expect(validate(aPage().withSources(`./${SOURCE_PATH}`).build()).valid).toBe(true);
    expect(validate(aPage().withSources(`/${SOURCE_PATH}`, "other.md").build()).valid).toBe(true);
  });

  it.each(["", "english", "en-US", "EN", "xx", "eng"])("rejects the language %j", (lang) => {
    const report = validate(aPage().inLanguage(lang).build());
    expect(report.issues.map((i) => i.field)).toEqual(["frontmatter.lang"]);
  });

  it.each(["en", "de", "ja", "zh", "ar"])("accepts the ISO 639-1 code %s", (lang) => {
    expect(validate(aPage().inLanguage(lang).build()).valid).toBe(true);
  });

  it.each(["", " \n "])("rejects the empty content %j", (content) => {
    expect(validate(aPage().withContent(content).build()).issues.map((i) => i.field)).toEqual(["content"]);
  });

  it("rejects an empty batch", () => {
    expect(validate()).toMatchObject({ valid: false, issues: [{ pageIndex: -1, field: "batch" }] });
  });

  it("rejects the whole batch when one page is invalid, naming that page", () => {
    const report = validate(aPage().build(), aPage().titled("Broken").ofType("person").build());
    expect(report.valid).toBe(false);
    expect(report.issues).toHaveLength(1);
    expect(report.issues[0]).toMatchObject({ pageIndex: 1 });
    expect(report.issues[0]?.message).toMatch(/^Page 2 \("Broken"\)/);
  });

  it("records dangling wikilinks without failing the page", () => {
    const page = aPage().withContent("See [[Nowhere]], [[Example concept]] and [[Known page|alias]].").build();
    const report = validatePages([page], { sourcePath: SOURCE_PATH, linkExists: (name) => name === "Known page" });
    expect(report.valid).toBe(true);
    expect(report.dangling).toEqual([{ page: "Example concept", target: "Nowhere" }]);
  });

  it("writes feedback a model can act on", () => {
    const report = validate(aPage().withSources().inLanguage("").build());
    const feedback = describeIssuesForModel(report.issues);
    expect(feedback).toContain("frontmatter.sources is empty");
    expect(feedback).toContain("frontmatter.lang is empty");
  });
});
