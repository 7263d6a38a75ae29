/**
 * What the Offline backend quotes is the note's words: whole sentences, as plain text, that can be
 * found in the note (or the page) they come from — never cut mid-word or mid-sentence, never a
 * heading, a list mark, a nested quote or Synapse's markers inside a quote.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { plainText } from "../../src/core/plain-text";
import { createRunContext } from "../../src/core/run-context";
import { OfflineProvider } from "../../src/providers/offline/offline-provider";
import { orchestrate } from "../../src/core/orchestrator";

const EXAMPLES = new URL("../../examples/vault/", import.meta.url).pathname;
const NOTES = ["Notes/Ada Lovelace.md", "Notes/Zettelkasten method.md", "Clippings/Local-first software.md"];
const ENDS_A_SENTENCE = /[.!?。！？]["'”»)]*$/u;
const squeezed = (text: string) => text.replace(/\s+/g, " ");

/** The lines a page quotes ("> …"), leaving out callouts ("> [!info] …" and the lines under it): Synapse's own words. */
function quotedLines(content: string): string[] {
  const out: string[] = [];
  let callout = false;
  for (const line of content.split("\n")) {
    if (!line.startsWith(">")) callout = false;
    else if (line.startsWith("> [!")) callout = true;
    else if (!callout) out.push(line.slice(2));
  }
  return out;
}

async function pagesOf(notePath: string) {
  const text = readFileSync(`${EXAMPLES}${notePath}`, "utf8");
  const result = await orchestrate(new OfflineProvider(), { maxIter: 3, tokenBudget: 1000, retrievalContext: "", vaultContext: "" }, createRunContext({ source: { path: notePath, text } }));
  expect(result.converged).toBe(true);
  return { note: squeezed(plainText(text)), pages: result.pages };
}

describe("the Offline backend's quotes", () => {
  it.each(NOTES)("in the pages of %s are whole sentences of the note", async (notePath) => {
    const { note, pages } = await pagesOf(notePath);
    const quotes = pages.flatMap((p) => quotedLines(p.content));
    expect(quotes.length).toBeGreaterThan(0);
    for (const quote of quotes) {
      expect(quote).not.toContain("…");
      expect(quote).toMatch(ENDS_A_SENTENCE);
      expect(note).toContain(squeezed(quote));
    }
    // The source page's summary too: the note's opening sentences, whole.
    const summary = pages.find((p) => p.type === "source")?.content.split("## Summary\n\n")[1]?.split("\n")[0] ?? "";
    expect(summary).toMatch(ENDS_A_SENTENCE);
    expect(note).toContain(squeezed(summary));
  });

  it("in an answer are whole sentences of the passage as plain text, each quoted once", async () => {
    const sentence = "Augusta Ada King was an English mathematician and writer, chiefly known for her work on the Analytical Engine.";
    const long = `${sentence} ${"She wrote notes on the engine that ran far longer than the article they explained. ".repeat(12)}`;
    const context = [
      `[1] [[Ada Lovelace]] (note Notes/Ada Lovelace.md)\n# Ada Lovelace\n\n${long}`,
      `[3] [[Ada Lovelace (source)]] (wiki page wiki/sources/Ada Lovelace (source).md)\n> [!info] Extracted without a language model\n> Synapse's Offline provider built this page from the note about the Analytical Engine.\n\n## Key terms\n\n- [[Analytical Engine]]: ${sentence}\n- [[Charles Babbage]]: ${sentence}`,
      `[2] [[Analytical Engine]] (wiki page wiki/entities/Analytical Engine.md)\n%% synapse:source Notes/Ada Lovelace.md hash=1 %%\n*From [[Notes/Ada Lovelace|Ada Lovelace]]*\n\n## Mentioned in\n\n- [[Ada Lovelace]]\n\n> ${sentence}\n\n%% /synapse:source %%`,
    ].join("\n\n");
    let answer = "";
    for await (const chunk of new OfflineProvider().chat([{ role: "user", content: "What did Ada Lovelace write about the Analytical Engine?" }], context, createRunContext())) answer += chunk;
    const quotes = answer.split("\n").filter((line) => line.startsWith("> ")).map((line) => line.slice(2));
    expect(quotes.length).toBeGreaterThan(0);
    for (const quote of quotes) {
      expect(quote).not.toMatch(/…|^#|^- |^>|\[\[|%%|\*From/);
      expect(quote).toMatch(ENDS_A_SENTENCE);
      expect(squeezed(plainText(long))).toContain(quote);
      expect(quote.length).toBeLessThanOrEqual(600);
    }
    // The entity page quotes the sentence the note's passage already gave, and the source page's
    // list of terms repeats it: neither says it again.
    expect(answer.split(sentence).length - 1).toBe(1);
    expect(answer).not.toContain("Analytical Engine: ");
    // Nor is Synapse's own notice on a page quoted as if the note said it.
    expect(answer).not.toContain("Offline provider built");
  });
});
