import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { exactChecks } from "../../src/lint/exact-checks";
import { chooseFixes, planFixes, type ChosenFix } from "../../src/lint/fixes";
import { mergeGroups } from "../../src/lint/merge-chains";
import { loadSnapshot } from "../../src/lint/snapshot";
import type { Finding } from "../../src/lint/types";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import { applyPlan, type WriteContext } from "../../src/write/apply";
import { undoLastRun } from "../../src/write/undo";
import { removedBy } from "../helpers/fixes";

const NOW = () => Date.UTC(2026, 11, 1, 1, 0);

const page = (title: string, alias: string, body: string) => `---\ntype: concept\ntitle: ${title}\naliases: [${alias}]\nsources: [notes/${title}.md]\n---\n\n${body}\n`;

async function files(vault: MemoryVault): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const path of await vault.list("")) out[path] = await vault.read(path);
  return out;
}

/** A merge of two pages as a finding with its one fix, as the checks (exact or model) offer it. */
function merge(keep: string, remove: string): ChosenFix {
  const fix = { kind: "merge-duplicates", label: `Merge ${remove} into this page`, safe: false, params: { keep, remove } } as const;
  const finding: Finding = { check: "duplicate", severity: "warning", page: keep, message: "", fixes: [fix] };
  return { finding, fix };
}

/** Plans the fixes on the vault, applies them through the write path, and returns what undo needs. */
async function apply(vault: MemoryVault, chosen: (snapshot: Awaited<ReturnType<typeof loadSnapshot>>) => ChosenFix[]) {
  const snapshot = await loadSnapshot(vault, "wiki", () => false);
  const plan = planFixes(snapshot, chosen(snapshot), "2026-12-01");
  const ctx: WriteContext = { store: new MemoryStateStore(), writer: { kind: "cli", pid: 1, host: "here" } };
  await applyPlan(vault, plan.changes, { ...ctx, operation: "lint", label: `${plan.planned.length} fixes`, wikiFolder: "wiki", now: NOW, maintainIndex: false });
  return { plan, ctx };
}

describe("chained merges", () => {
  it("merge every page of a chain into the page that stays, with each one's text, aliases and sources, and every link pointing at it", async () => {
    // Ada's alias names Countess, Countess's alias names Lovelace: "keep Ada, remove Countess" and "keep Countess, remove Lovelace".
    const vault = new MemoryVault({
      "wiki/concepts/Ada.md": page("Ada", "Countess", "Text of Ada."),
      "wiki/concepts/Countess.md": page("Countess", "Lovelace", "Text of Countess, see [[Lovelace]]."),
      "wiki/concepts/Lovelace.md": page("Lovelace", "Enchantress of Numbers", "Text of Lovelace."),
      "wiki/concepts/Engine.md": page("Engine", "Machine", "Built with [[Countess]] and [[Lovelace|the Countess]]."),
      "wiki/index.md": "# Index\n\n- [[wiki/concepts/Ada|Ada]]\n- [[wiki/concepts/Countess|Countess]]\n- [[wiki/concepts/Lovelace|Lovelace]]\n- [[wiki/concepts/Engine|Engine]]\n",
    });
    const before = await files(vault);
    const { plan, ctx } = await apply(vault, (snapshot) => chooseFixes(exactChecks({ snapshot }), "all").filter((c) => c.fix.kind === "merge-duplicates"));
    expect(plan.planned.map((c) => c.fix.params)).toEqual([
      { keep: "wiki/concepts/Ada.md", remove: "wiki/concepts/Countess.md" },
      { keep: "wiki/concepts/Countess.md", remove: "wiki/concepts/Lovelace.md" },
    ]);
    expect(plan.skipped).toEqual([]);

    const after = await files(vault);
    expect(Object.keys(after).sort()).toEqual(["wiki/concepts/Ada.md", "wiki/concepts/Engine.md", "wiki/index.md", "wiki/log.md"]);
    const ada = after["wiki/concepts/Ada.md"] ?? "";
    expect(ada).toContain("Text of Ada.");
    expect(ada).toContain("Text of Countess, see [[Ada|Lovelace]].");
    expect(ada).toContain("Text of Lovelace.");
    expect(ada).toMatch(/aliases:\n {2}- Countess\n {2}- Lovelace\n {2}- Enchantress of Numbers\n/);
    expect(ada).toMatch(/sources:\n {2}- notes\/Ada.md\n {2}- notes\/Countess.md\n {2}- notes\/Lovelace.md\n/);
    expect(after["wiki/concepts/Engine.md"]).toContain("Built with [[Ada|Countess]] and [[Ada|the Countess]].");
    expect(after["wiki/index.md"]).toBe("# Index\n\n- [[wiki/concepts/Ada|Ada]]\n- [[wiki/concepts/Engine|Engine]]\n");

    const again = exactChecks({ snapshot: await loadSnapshot(vault, "wiki", () => false) });
    expect(again.filter((f) => f.check === "duplicate" || f.check === "dangling-link")).toEqual([]);

    await undoLastRun(vault, ctx, { wikiFolder: "wiki", now: NOW });
    const restored = await files(vault);
    delete restored["wiki/log.md"];
    expect(restored).toEqual(before);
  });

  it("a merge into a page that is moved in the same run follows the page to its new folder", async () => {
    const vault = new MemoryVault({
      "wiki/entities/Ada.md": page("Ada", "Countess", "Text of Ada."),
      "wiki/concepts/Countess.md": page("Countess", "Lovelace", "Text of Countess."),
      "wiki/index.md": "# Index\n",
    });
    const { plan } = await apply(vault, (snapshot) => chooseFixes(exactChecks({ snapshot }), "all").filter((c) => c.fix.kind === "merge-duplicates" || c.fix.kind === "move-to-type-folder"));
    expect(plan.planned.map((c) => c.fix.kind).sort()).toEqual(["merge-duplicates", "move-to-type-folder"]);
    expect(await vault.stat("wiki/entities/Ada.md")).toBeNull();
    expect(await vault.stat("wiki/concepts/Countess.md")).toBeNull();
    const moved = await vault.read("wiki/concepts/Ada.md");
    expect(moved).toContain("Text of Ada.");
    expect(moved).toContain("Text of Countess.");
  });

  it("each planned fix names the files it writes, so a partial review can tell which fixes were carried out", async () => {
    const vault = new MemoryVault({
      "wiki/concepts/Ada.md": page("Ada", "Countess", "Text of Ada."),
      "wiki/concepts/Countess.md": page("Countess", "Lovelace", "Text of Countess."),
      "wiki/concepts/Engine.md": page("Engine", "Machine", "Built with [[Countess]]."),
    });
    const snapshot = await loadSnapshot(vault, "wiki", () => false);
    const plan = planFixes(snapshot, [merge("wiki/concepts/Ada.md", "wiki/concepts/Countess.md")], "2026-12-01");
    expect([...(plan.planned[0]?.paths ?? [])].sort()).toEqual(["wiki/concepts/Ada.md", "wiki/concepts/Countess.md", "wiki/concepts/Engine.md", "wiki/index.md"]);
  });
});

describe("mergeGroups", () => {
  const pair = (keep: string, remove: string) => ({ keep, remove, by: `${keep}<${remove}` });

  it("sends a chain to its final keeper, whichever order the merges come in", () => {
    expect(mergeGroups([pair("A", "B"), pair("B", "C")]).merges.map((m) => `${m.remove}>${m.keeper}`)).toEqual(["B>A", "C>A"]);
    expect(mergeGroups([pair("B", "C"), pair("A", "B")]).merges.map((m) => `${m.remove}>${m.keeper}`)).toEqual(["C>A", "B>A"]);
  });

  it("leaves out a merge whose page is already merged away, or that would merge a group into itself, saying why", () => {
    const twice = mergeGroups([pair("A", "C"), pair("B", "C")]);
    expect(twice.merges.map((m) => `${m.remove}>${m.keeper}`)).toEqual(["C>A"]);
    expect(twice.skipped).toEqual([{ by: "B<C", reason: "C is already merged into A in the same run." }]);
    const cycle = mergeGroups([pair("A", "B"), pair("B", "A")]);
    expect(cycle.merges.map((m) => `${m.remove}>${m.keeper}`)).toEqual(["B>A"]);
    expect(cycle.skipped).toEqual([{ by: "B<A", reason: "B is already merged into A in the same run." }]);
  });
});

describe("any sequence of merges", () => {
  const N = 6;
  const name = (i: number) => `P${i}`;
  const pathOf = (i: number) => `wiki/concepts/${name(i)}.md`;
  const merges = fc.array(
    fc.tuple(fc.nat(N - 1), fc.nat(N - 1)).filter(([a, b]) => a !== b),
    { maxLength: 8 },
  );
  const linksTo = fc.array(fc.nat(N - 1), { minLength: N, maxLength: N });

  it("loses no page's text, leaves no link to a removed page, and undoes byte for byte", async () => {
    await fc.assert(
      fc.asyncProperty(merges, linksTo, async (pairs, targets) => {
        const initial: Record<string, string> = {};
        for (let i = 0; i < N; i++) {
          initial[pathOf(i)] = `---\ntype: concept\ntitle: ${name(i)}\nsources: [notes/n${i}.md]\n---\n\nBody number ${i}. See [[${name(targets[i] ?? 0)}]].\n`;
        }
        const vault = new MemoryVault({ ...initial, "wiki/index.md": "# Index\n" });
        const { plan, ctx } = await apply(vault, () => pairs.map(([k, r]) => merge(pathOf(k), pathOf(r))));
        expect(plan.planned.length + plan.skipped.length).toBe(pairs.length);

        const after = await files(vault);
        const surviving = Object.keys(after).filter((p) => p.startsWith("wiki/concepts/"));
        const removed = Object.keys(initial).filter((p) => !(p in after));
        expect(removed.sort()).toEqual([...new Set(plan.planned.map((c) => removedBy(c.fix)))].sort());
        for (let i = 0; i < N; i++) {
          // Every page's text is still in the wiki, and its source still cited there.
          expect(surviving.some((p) => (after[p] ?? "").includes(`Body number ${i}.`))).toBe(true);
          expect(surviving.some((p) => (after[p] ?? "").includes(`notes/n${i}.md`))).toBe(true);
        }
        const snapshot = await loadSnapshot(vault, "wiki", () => false);
        const names = surviving.map((p) => p.slice("wiki/concepts/".length, -".md".length));
        for (const p of snapshot.pages) for (const link of p.links) expect(names).toContain(link);
        if (plan.planned.length === 0) return;

        await undoLastRun(vault, ctx, { wikiFolder: "wiki", now: NOW });
        const restored = await files(vault);
        delete restored["wiki/log.md"];
        expect(restored).toEqual({ ...initial, "wiki/index.md": "# Index\n" });
      }),
      { numRuns: 60 },
    );
  });
});
