/**
 * The prompts as approval files: a change to what every backend is told shows up as a diff of
 * test/fixtures/prompts/*.approved.md. On a mismatch the new text is written beside it as
 * *.received.md for review.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createRunContext } from "../../src/core/run-context";
import { AnalysisSchema, PagesReplySchema } from "../../src/core/schemas";
import { jsonSchemaFor } from "../../src/providers/json-schema";
import { analyzePrompt, chatMessages, generatePrompt, promptText } from "../../src/providers/prompts";
import { ANALYSIS, NOTE_PATH, ROOT } from "./harness";

const DIR = join(ROOT, "test/fixtures/prompts");

function verify(name: string, text: string): void {
  const approved = join(DIR, `${name}.approved.md`);
  const current = existsSync(approved) ? readFileSync(approved, "utf8") : null;
  if (current !== text) writeFileSync(join(DIR, `${name}.received.md`), text);
  expect(text, `${name}: compare ${name}.received.md with ${name}.approved.md`).toBe(current);
}

/** A short note of our own: the approval files must not copy the corpus into the repository. */
const NOTE = "# Reading list\n\nI want to track books in a [[Bases|base]] with a rating property.";

describe("prompts", () => {
  const run = createRunContext({ source: { path: NOTE_PATH, text: NOTE } });

  it("analyse: states the schema and the ISO 639-1 language, and quotes the note", () => {
    const pair = analyzePrompt(NOTE, "Existing pages: Canvas, Properties", jsonSchemaFor(AnalysisSchema, "openai"), run);
    expect(pair.system).toContain("ISO 639-1");
    expect(pair.user).toContain(`Source note "${NOTE_PATH}"`);
    verify("analyze", promptText(pair));
  });

  it("generate: names the exact source path, the language, the page types and wikilinks", () => {
    const pair = generatePrompt({ analysis: ANALYSIS, note: NOTE, related: "Properties: structured fields." }, jsonSchemaFor(PagesReplySchema, "openai"), run);
    // The system prompt is the same for every note; the user message opens with the wiki's context, then the note's own rules (prompt caching).
    expect(pair.user).toContain(`"frontmatter.sources" lists "${NOTE_PATH}" exactly`);
    expect(pair.system).toContain("entity, concept, source, synthesis, comparison");
    expect(pair.user).toContain('("en")');
    expect(pair.system).toContain("[[Page Title]]");
    verify("generate", promptText(pair));
  });

  it("chat: grounds the answer in the wiki excerpts", () => {
    const messages = chatMessages([{ role: "user", content: "What is a base?" }], "## Bases\nViews of notes.");
    expect(messages.map((m) => m.role)).toEqual(["system", "user"]);
    verify("chat", messages.map((m) => `## ${m.role}\n\n${m.content}`).join("\n\n"));
  });
});
