import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildIngestContext, contextBudget, noteQuery, DEFAULT_CONTEXT_WINDOW } from "../../src/wiki/ingest/retrieval-context";
import { estimateTokens } from "../../src/core/tokens";
import { titlesInStableOrder } from "../../src/wiki/ingest/related-order";
import type { Retriever } from "../../src/retrieval/types";
import { MemoryVault } from "../../src/vault/memory-vault";
import { wordOverlapRetriever } from "../helpers/word-overlap-retriever";

const pages: Record<string, string> = {};
for (let i = 0; i < 30; i++) pages[`wiki/concepts/Garden ${i}.md`] = `# Garden ${i}\n\n${"Tomatoes need sun, water and compost in the garden. ".repeat(5 + i * 3)}`;
pages["wiki/concepts/Rockets.md"] = "Rockets burn fuel to reach orbit.";

const NOTE = "# Growing tomatoes\n\nTomatoes need sun and compost; water the garden in the morning.\n\n## Compost\n\nKitchen scraps make compost.\n";

describe("ingest context", () => {
  it("asks the retriever with the note's title, headings and key terms", () => {
    const query = noteQuery(NOTE, "Tomatoes");
    expect(query).toContain("Growing tomatoes");
    expect(query).toContain("Compost");
    expect(query).toContain("garden");
  });

  it("packs the related pages within the budget, best first, and reports what did not fit", async () => {
    const vault = new MemoryVault(pages);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 6000 }), async (budget) => {
        const context = await buildIngestContext({ retriever: wordOverlapRetriever(vault), noteText: NOTE, notePath: "notes/Tomatoes.md", wikiFolder: "wiki", budgetTokens: budget, shareable: async () => true, pageCount: 31 });
        expect(estimateTokens(context.retrievalContext)).toBeLessThanOrEqual(budget);
        // Every related page is quoted or noted as left out (a page may give several chunks).
        expect(new Set([...context.packed.blocks.map((b) => b.hit.path), ...context.packed.omitted.map((o) => o.path)])).toEqual(new Set(context.candidates));
        expect(context.candidates).not.toContain("wiki/concepts/Rockets.md");
      }),
      { numRuns: 25 },
    );
  });

  it("never goes over the budget, titles included, whatever the budget and the hits", async () => {
    const text = fc.array(fc.constantFrom("word ", "`code` ", "```\nfenced\n", "日本語の", "\n\n", "## Head\n", "ملاحظة ", "`", "…"), { maxLength: 120 }).map((parts) => parts.join(""));
    const hit = fc.record({
      path: fc.tuple(fc.constantFrom("wiki/concepts/", "wiki/entities/", "wiki/"), fc.string({ minLength: 1, maxLength: 40 }).filter((t) => !t.includes("/"))).map(([folder, title]) => `${folder}${title}.md`),
      heading: fc.constantFrom("", "Intro", "`code` heading", "日本"),
      text,
    });
    const property = fc.asyncProperty(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 80 }), fc.integer({ min: 0, max: 3000 })), fc.array(hit, { maxLength: 60 }), fc.option(fc.nat({ max: 100_000 }), { nil: undefined }), async (budget, found, pageCount) => {
      const retriever: Retriever = { retrieve: async () => found.map((h, i) => ({ ...h, score: found.length - i, snippet: "" })) };
      const context = await buildIngestContext({ retriever, noteText: NOTE, notePath: "notes/Tomatoes.md", wikiFolder: "wiki", budgetTokens: budget, shareable: async () => true, ...(pageCount !== undefined ? { pageCount } : {}) });
      expect(estimateTokens(context.retrievalContext)).toBeLessThanOrEqual(budget);
      expect(estimateTokens(context.vaultContext)).toBeLessThanOrEqual(budget);
      expect(context.retrievalContext.startsWith(context.vaultContext)).toBe(true);
      // Every related page is quoted or noted as left out (a page may give several chunks).
      expect(new Set([...context.packed.blocks.map((b) => b.hit.path), ...context.packed.omitted.map((o) => o.path)])).toEqual(new Set(context.candidates));
      // Titles named are the best related ones, in their stable order — told by what they join to,
      // not by splitting on "; ": a title may hold "; " itself.
      const named = /most related to this note: (.*)$/.exec(context.vaultContext)?.[1]?.replace(/; …$/, "");
      if (named) expect(context.related.some((_, k) => titlesInStableOrder(context.related.slice(0, k + 1)).join("; ") === named)).toBe(true);
    });
    // The seed kept: it drew titles of "; ", " " and "!", which the check once counted wrongly.
    await fc.assert(property, { numRuns: 300, seed: -1498422924 });
    await fc.assert(property, { numRuns: 300 });
  });

  it("names titles that hold the separator itself as they are (the property's kept counterexample)", async () => {
    const found = ["wiki/concepts/; .md", "wiki/concepts/ .md", "wiki/concepts/!.md"].map((path, i) => ({ path, heading: "", text: "", score: 3 - i, snippet: "" }));
    const at = (budgetTokens: number) => buildIngestContext({ retriever: { retrieve: async () => found }, noteText: NOTE, notePath: "notes/Tomatoes.md", wikiFolder: "wiki", budgetTokens, shareable: async () => true });
    // Room for one title: the first, "; ", then the mark that more were left out.
    const tight = await at(67);
    expect(tight.related[0]).toBe("; ");
    expect(tight.vaultContext).toMatch(/most related to this note: ; ; …$/);
    const roomy = await at(2000);
    expect(roomy.vaultContext.endsWith(`most related to this note: ${titlesInStableOrder(roomy.related).join("; ")}`)).toBe(true);
  });

  it("names the titles first and quotes passages in the room they leave; with no room even for the sentence, says nothing", async () => {
    const vault = new MemoryVault(pages);
    const at = (budgetTokens: number) => buildIngestContext({ retriever: wordOverlapRetriever(vault), noteText: NOTE, notePath: "notes/Tomatoes.md", wikiFolder: "wiki", budgetTokens, shareable: async () => true, pageCount: 31 });
    const none = await at(0);
    expect([none.vaultContext, none.retrievalContext, none.packed.blocks.length]).toEqual(["", "", 0]);
    expect(none.packed.omitted.length).toBe(none.candidates.length);
    const few = await at(120);
    expect(few.vaultContext).toContain("Garden");
    expect(few.vaultContext).toMatch(/; …$/);
    expect(few.packed.blocks).toEqual([]);
    const roomy = await at(6000);
    expect(roomy.packed.blocks.length).toBeGreaterThan(0);
    expect(roomy.retrievalContext.startsWith(roomy.vaultContext)).toBe(true);
  });

  it("names only related titles to the analysis, never the whole wiki", async () => {
    const context = await buildIngestContext({ retriever: wordOverlapRetriever(new MemoryVault(pages)), noteText: NOTE, notePath: "notes/Tomatoes.md", wikiFolder: "wiki", budgetTokens: 2000, shareable: async (p) => !p.endsWith("Garden 3.md"), pageCount: 31 });
    expect(context.vaultContext).toContain("has pages");
    expect(context.vaultContext).toContain("Garden 0");
    expect(context.vaultContext).not.toContain("Rockets");
    expect(context.vaultContext).not.toContain("Garden 3;");
    expect(context.retrievalContext).not.toContain("(wiki/concepts/Garden 3.md)");
  });

  it("leaves the window minus the prompt and the answer, and a quarter of the run's budget at most", () => {
    expect(contextBudget({ maxContext: 128_000, promptTokens: 3000, answerTokens: 8000 })).toBe(117_000);
    expect(contextBudget({ maxContext: 128_000, promptTokens: 3000, answerTokens: 8000, runTokenBudget: 100_000 })).toBe(25_000);
    expect(contextBudget({ maxContext: 0, promptTokens: 1000, answerTokens: 4096 })).toBe(DEFAULT_CONTEXT_WINDOW - 5096);
    expect(contextBudget({ maxContext: 4096, promptTokens: 3000, answerTokens: 4096 })).toBe(0);
  });
});
