/**
 * The threshold of the retrieval duplicates, on real retrieval (an in-memory VaultIndex): pages
 * about one subject in other words are duplicates; pages that only share people and terms are not.
 */
import { describe, expect, it } from "vitest";
import { isExcluded } from "../../src/core/perimeter";
import { DUPLICATE_SIMILARITY, nearDuplicates, similarity, termCounts } from "../../src/lint/near-duplicates";
import { loadSnapshot } from "../../src/lint/snapshot";
import { MemoryVault } from "../../src/vault/memory-vault";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { runLint, type LintReport } from "../../src/lint/run-lint";
import { DEFAULT_SETTINGS } from "../../src/settings/schema";
import { aVault, indexed } from "../retrieval/index-builder";

const page = (type: string, title: string, body: string) => `---\ntype: ${type}\ntitle: ${title}\nsources: [notes/x.md]\n---\n\n${body}\n`;

const WIKI: Record<string, string> = {
  "wiki/entities/Ada Lovelace.md": page("entity", "Ada Lovelace", "Ada Lovelace was an English mathematician who wrote the first algorithm for Charles Babbage's Analytical Engine. She was born in 1815 in London, the daughter of Lord Byron."),
  "wiki/entities/Augusta Ada King.md": page("entity", "Augusta Ada King", "Augusta Ada King, Countess of Lovelace, was an English mathematician; she wrote the first published algorithm for the Analytical Engine of Charles Babbage. Born in 1815 in London, she was Lord Byron's daughter."),
  "wiki/concepts/Analytical Engine.md": page("concept", "Analytical Engine", "The Analytical Engine was a mechanical general-purpose computer designed by Charles Babbage in 1837. Ada Lovelace wrote a program for it."),
  "wiki/entities/Charles Babbage.md": page("entity", "Charles Babbage", "Charles Babbage was an English mathematician and engineer who designed the Difference Engine and the Analytical Engine."),
  "wiki/concepts/Bernoulli numbers.md": page("concept", "Bernoulli numbers", "Bernoulli numbers are a sequence of rational numbers; Ada Lovelace's program for the Analytical Engine computed them."),
  "wiki/concepts/Tea.md": page("concept", "Tea", "Tea is an aromatic beverage prepared by pouring hot water over cured leaves of the tea plant."),
  "wiki/concepts/Black tea.md": page("concept", "Black tea", "Black tea is an aromatic beverage prepared by pouring hot water over the cured, oxidised leaves of the tea plant."),
  "wiki/concepts/Chai.md": page("concept", "Chai", "Chai is a spiced tea beverage made by brewing black tea leaves with milk and spices."),
};

describe("duplicates found by retrieval", () => {
  it("the threshold separates pages about one subject from pages that are only related", async () => {
    const snapshot = await loadSnapshot(new MemoryVault(WIKI), "wiki", (p) => isExcluded(p, []));
    const terms = (path: string) => {
      const found = snapshot.pages.find((p) => p.path === path);
      if (!found) throw new Error(`no page ${path}`);
      return termCounts(found);
    };
    const sim = (a: string, b: string) => similarity(terms(a), terms(b));
    const same = [sim("wiki/entities/Ada Lovelace.md", "wiki/entities/Augusta Ada King.md"), sim("wiki/concepts/Tea.md", "wiki/concepts/Black tea.md")];
    const related = [
      sim("wiki/entities/Ada Lovelace.md", "wiki/concepts/Analytical Engine.md"),
      sim("wiki/entities/Ada Lovelace.md", "wiki/entities/Charles Babbage.md"),
      sim("wiki/concepts/Analytical Engine.md", "wiki/entities/Charles Babbage.md"),
      sim("wiki/concepts/Bernoulli numbers.md", "wiki/concepts/Analytical Engine.md"),
      sim("wiki/concepts/Tea.md", "wiki/concepts/Chai.md"),
    ];
    for (const s of same) expect(s).toBeGreaterThanOrEqual(DUPLICATE_SIMILARITY);
    for (const s of related) expect(s).toBeLessThan(DUPLICATE_SIMILARITY);
  });

  it("finds exactly the near-duplicates among the pages retrieval returns for each page", async () => {
    const index = await indexed(aVault(WIKI));
    const snapshot = await loadSnapshot(new MemoryVault(WIKI), "wiki", (p) => isExcluded(p, []));
    const pairs = await nearDuplicates(snapshot.pages, index);
    expect(pairs.map((p) => p.join(" + ")).sort()).toEqual(["wiki/concepts/Black tea.md + wiki/concepts/Tea.md", "wiki/entities/Ada Lovelace.md + wiki/entities/Augusta Ada King.md"]);
  });

  it("lint reports them as duplicates with the merge fix, beside the exact ones, only with the index", async () => {
    const vault = new MemoryVault(WIKI);
    const deps = { vault, store: new MemoryStateStore(), settings: DEFAULT_SETTINGS };
    const duplicates = (report: LintReport) => report.findings.filter((f) => f.check === "duplicate").map((f) => `${f.page} ${f.fixes[0]?.params.remove ?? ""}`);
    expect(duplicates(await runLint(deps))).toEqual([]);
    const report = await runLint({ ...deps, retriever: await indexed(aVault(WIKI)) });
    expect(duplicates(report).sort()).toEqual(["wiki/concepts/Tea.md wiki/concepts/Black tea.md", "wiki/entities/Ada Lovelace.md wiki/entities/Augusta Ada King.md"]);
    expect(report.findings.find((f) => f.check === "duplicate")?.message).toMatch(/say nearly the same thing \(found by search\)\.$/);
  });
});
