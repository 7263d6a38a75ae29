import { describe, expect, it } from "vitest";
import { isExcluded } from "../../src/core/perimeter";
import { exactChecks } from "../../src/lint/exact-checks";
import { chooseFixes, planFixes } from "../../src/lint/fixes";
import { loadSnapshot } from "../../src/lint/snapshot";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import { applyPlan } from "../../src/write/apply";
import { removedBy } from "../helpers/fixes";

const page = (title: string) => `---\ntype: concept\ntitle: ${title}\nsources: [notes/a.md]\n---\n\nAbout ${title}.\n`;

async function duplicates(files: Record<string, string>) {
  const snapshot = await loadSnapshot(new MemoryVault({ "notes/a.md": "a", ...files }), "wiki", (p) => isExcluded(p, []));
  return exactChecks({ snapshot }).filter((f) => f.check === "duplicate");
}

describe("lint's duplicate check, one finding per group of pages sharing a name", () => {
  it("104 pages under 8 names (a run's pages written twice over by sync) are 8 findings, each page merged once", async () => {
    const files: Record<string, string> = {};
    const titles = Array.from({ length: 8 }, (_, i) => `Topic ${i}`);
    for (const title of titles) for (let copy = 1; copy <= 13; copy++) files[`wiki/concepts/${title}${copy === 1 ? "" : ` (${copy})`}.md`] = page(title);
    const found = await duplicates(files);
    expect(found).toHaveLength(8);
    expect(found.map((f) => f.page).sort()).toEqual(titles.map((t) => `wiki/concepts/${t}.md`));
    const removed = found.flatMap((f) => f.fixes.map(removedBy));
    expect(removed).toHaveLength(8 * 12);
    expect(new Set(removed).size).toBe(8 * 12);
    expect(found[0]?.message).toMatch(/^"Topic \d" and 12 other pages name the same thing: /);
  });

  it("two pages are one finding, worded as before", async () => {
    const found = await duplicates({ "wiki/concepts/Bees.md": page("Bees"), "wiki/concepts/Bees (2).md": page("Bees") });
    expect(found.map((f) => [f.page, f.message, f.fixes.map((x) => x.params)])).toEqual([
      ["wiki/concepts/Bees.md", '"Bees" and wiki/concepts/Bees (2).md name the same thing.', [{ keep: "wiki/concepts/Bees.md", remove: "wiki/concepts/Bees (2).md" }]],
    ]);
  });
});

describe("fix all on a group of duplicates", () => {
  it("merges every page of the group into the one that stays, in one run", async () => {
    const files: Record<string, string> = { "wiki/concepts/Bees.md": page("Bees") };
    for (let copy = 2; copy <= 5; copy++) files[`wiki/concepts/Bees (${copy}).md`] = page("Bees");
    const vault = new MemoryVault({ "notes/a.md": "a", ...files });
    const snapshot = await loadSnapshot(vault, "wiki", (p) => isExcluded(p, []));
    const plan = planFixes(snapshot, chooseFixes(exactChecks({ snapshot }), "all"), "2026-12-02");
    await applyPlan(vault, plan.changes, { store: new MemoryStateStore(), writer: { kind: "cli", pid: 1, host: "here" }, operation: "lint", label: "all fixes", wikiFolder: "wiki", maintainIndex: false });
    expect((await vault.list("wiki/concepts")).sort()).toEqual(["wiki/concepts/Bees.md"]);
  });
});
