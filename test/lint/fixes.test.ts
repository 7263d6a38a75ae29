import { describe, expect, it } from "vitest";
import { isExcluded } from "../../src/core/perimeter";
import { exactChecks } from "../../src/lint/exact-checks";
import { chooseFixes, planFixes, retargetLinks, withRelatedLink, type ChosenFix } from "../../src/lint/fixes";
import { loadSnapshot } from "../../src/lint/snapshot";
import type { FixKind } from "../../src/lint/types";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import { applyPlan, type WriteContext } from "../../src/write/apply";
import { newSection, renderBody } from "../../src/wiki/provenance";
import { undoLastRun } from "../../src/write/undo";
import { PLANTED } from "./planted-wiki";
import { executableParts } from "../helpers/executable-markdown";

const NOW = () => Date.UTC(2026, 10, 30, 18, 0);

async function snapshotOf(vault: MemoryVault) {
  return loadSnapshot(vault, "wiki", (p) => isExcluded(p, []));
}

async function files(vault: MemoryVault): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const path of await vault.list("")) out[path] = await vault.read(path);
  return out;
}

/** Plans the chosen fixes on the planted wiki, applies them through the write path, and returns what is needed to check and undo. */
async function applyFixes(pick: ((c: ChosenFix) => boolean) | "safe") {
  const vault = new MemoryVault(PLANTED);
  const before = await files(vault);
  const snapshot = await snapshotOf(vault);
  const findings = exactChecks({ snapshot });
  const chosen = pick === "safe" ? chooseFixes(findings, "safe") : findings.flatMap((finding) => finding.fixes.map((fix) => ({ finding, fix }))).filter(pick);
  const plan = planFixes(snapshot, chosen, "2026-11-30");
  const ctx: WriteContext = { store: new MemoryStateStore(), writer: { kind: "cli", pid: 1, host: "here" } };
  await applyPlan(vault, plan.changes, { ...ctx, operation: "lint", label: `${plan.planned.length} fixes`, wikiFolder: "wiki", now: NOW, maintainIndex: false });
  return { vault, before, plan, ctx, after: await files(vault) };
}

async function undoesByteForByte({ vault, before, ctx }: Awaited<ReturnType<typeof applyFixes>>) {
  await undoLastRun(vault, ctx, { wikiFolder: "wiki", now: NOW });
  const restored = await files(vault);
  delete restored["wiki/log.md"];
  expect(restored).toEqual(before);
}

const kind = (k: FixKind) => (c: ChosenFix) => c.fix.kind === k;

describe("lint fixes through the write path", () => {
  it("fix all on a wiki without index.md writes the index, listing every page, and undo removes it", async () => {
    const { "wiki/index.md": _index, ...withoutIndex } = PLANTED;
    const vault = new MemoryVault(withoutIndex);
    const snapshot = await snapshotOf(vault);
    const plan = planFixes(snapshot, chooseFixes(exactChecks({ snapshot }), "all"), "2026-11-30");
    const ctx: WriteContext = { store: new MemoryStateStore(), writer: { kind: "cli", pid: 1, host: "here" } };
    await applyPlan(vault, plan.changes, { ...ctx, operation: "lint", label: "all fixes", wikiFolder: "wiki", now: NOW, maintainIndex: false });
    const index = await vault.read("wiki/index.md");
    const kept = snapshot.pages.filter((p) => !plan.changes.some((c) => c.path === p.path && c.remove));
    expect(kept.length).toBeGreaterThan(3);
    for (const page of kept) expect(index).toContain(`[[${page.path.replace(/\.md$/, "")}`);
    await undoLastRun(vault, ctx, { wikiFolder: "wiki", now: NOW });
    expect(await vault.stat("wiki/index.md")).toBeNull();
  });

  it("retargets a mistyped link, keeping what it showed, and undoes byte for byte", async () => {
    const run = await applyFixes(kind("retarget-link"));
    expect(run.after["wiki/concepts/Dangling.md"]).toContain("[[Ada Lovelace|Ada Lovelac]]");
    expect(run.after["wiki/concepts/Dangling.md"]).toContain("[[Nowhere at all]]");
    expect(run.after["wiki/log.md"]).toMatch(/## \[2026-11-30\] lint \| 1 fixes/);
    await undoesByteForByte(run);
  });

  it("creates a stub page for a link to nothing, and undo removes it", async () => {
    const run = await applyFixes((c) => c.fix.kind === "create-stub" && c.fix.params.title === "Nowhere at all");
    expect(run.after["wiki/concepts/Nowhere at all.md"]).toMatch(/^---\ntype: concept\ntitle: Nowhere at all\nsources:\n {2}- notes\/engine.md/);
    await undoesByteForByte(run);
  });

  it("writes a stub for a hostile link target inert", async () => {
    const vault = new MemoryVault({ "wiki/concepts/Old.md": "---\ntitle: Old\nsources: [notes/a.md]\n---\n\nSee [[<%* tR += 1 %> <img src=x onerror=alert(1)>]].\n" });
    const snapshot = await snapshotOf(vault);
    const chosen = exactChecks({ snapshot }).flatMap((finding) => finding.fixes.filter((f) => f.kind === "create-stub").map((fix) => ({ finding, fix })));
    expect(chosen).toHaveLength(1);
    const plan = planFixes(snapshot, chosen, "2026-11-30");
    const created = plan.changes.map((c) => c.create ?? c.update?.("# Index\n").content ?? "").join("\n");
    expect(created).toContain("# <\\%* tR += 1 %> &lt;img src=x onerror=alert(1)>");
    expect(executableParts(created)).toEqual([]);
  });

  it("lists an orphan in index.md and rebuilds an index out of step, keeping the user's lines", async () => {
    const run = await applyFixes((c) => c.fix.kind === "add-to-index" || c.fix.kind === "rebuild-index");
    const index = run.after["wiki/index.md"] ?? "";
    expect(index).toContain("[[wiki/concepts/Orphaned idea|Orphaned idea]]");
    expect(index).not.toContain("Gone");
    expect(index.startsWith("# Wiki index\n")).toBe(true);
    await undoesByteForByte(run);
  });

  it("links an orphan from a page drawn from the same source, so it is an orphan no more, and undoes byte for byte", async () => {
    const run = await applyFixes(kind("link-from-related"));
    expect(run.plan.planned.map((c) => c.fix.label)).toEqual(['Link it from "Dangling"']);
    expect(run.after["wiki/concepts/Dangling.md"]).toBe(`${PLANTED["wiki/concepts/Dangling.md"]}\n## Related\n\n- [[Orphaned idea]]\n`);
    const remaining = exactChecks({ snapshot: await snapshotOf(run.vault) });
    expect(remaining.filter((f) => f.check === "orphan")).toEqual([]);
    await undoesByteForByte(run);
  });

  it("merges duplicates: sources and aliases unioned, every link to the removed page rewritten, the page removed", async () => {
    const run = await applyFixes(kind("merge-duplicates"));
    expect(run.after["wiki/entities/Ada Lovelace (2).md"]).toBeUndefined();
    const kept = run.after["wiki/entities/Ada Lovelace.md"] ?? "";
    expect(kept).toContain("Countess of Lovelace");
    expect(kept).toContain("A second page about");
    expect(run.after["wiki/index.md"]).not.toContain("Ada Lovelace (2)");
    await undoesByteForByte(run);
  });

  it("moves a page to its type folder and drops a source that no longer exists", async () => {
    const run = await applyFixes((c) => c.fix.kind === "move-to-type-folder" || c.fix.kind === "drop-missing-source");
    expect(run.after["wiki/entities/Misfiled.md"]).toBeUndefined();
    expect(run.after["wiki/concepts/Misfiled.md"]).toBe(PLANTED["wiki/entities/Misfiled.md"]);
    expect(run.after["wiki/index.md"]).toContain("[[wiki/concepts/Misfiled|Misfiled]]");
    expect(run.after["wiki/concepts/Lost source.md"]).not.toContain("notes/deleted.md");
    await undoesByteForByte(run);
  });

  it("retracts a source note that is gone: a page it alone fed goes, with its index line, and undo restores every byte", async () => {
    const run = await applyFixes(kind("retract-source"));
    expect(run.plan.planned.map((c) => c.fix.kind)).toEqual(["retract-source"]);
    expect(run.after["wiki/concepts/Lost source.md"]).toBeUndefined();
    expect(run.after["wiki/index.md"]).not.toContain("Lost source");
    expect(run.after["wiki/index.md"]).toContain("[[wiki/entities/Ada Lovelace|");
    await undoesByteForByte(run);
  });

  it("retracts once for every page citing the gone note: its sections leave a shared page, other notes' stay", async () => {
    const gone = "notes/gone.md";
    const kept = "notes/ada.md";
    const body = renderBody([newSection(gone, "What the gone note said."), newSection(kept, "What Ada's note says.")]);
    const vault = new MemoryVault({
      [kept]: "Ada.",
      "wiki/concepts/Shared.md": `---\ntype: concept\ntitle: Shared\nsources: [${gone}, ${kept}]\n---\n\n${body}\n`,
      "wiki/concepts/Only gone.md": `---\ntype: concept\ntitle: Only gone\nsources: [${gone}]\n---\n\n${renderBody([newSection(gone, "Only the gone note.")])}\n`,
      "wiki/index.md": "# Wiki index\n\n## Concepts\n\n- [[wiki/concepts/Shared|Shared]]\n- [[wiki/concepts/Only gone|Only gone]]\n",
    });
    const snapshot = await snapshotOf(vault);
    const chosen = chooseFixes(exactChecks({ snapshot }).filter((f) => f.check === "missing-source-note"), "all");
    expect(chosen.map((c) => `${c.fix.kind} ${c.finding.page}`).sort()).toEqual(["retract-source wiki/concepts/Only gone.md", "retract-source wiki/concepts/Shared.md"]);
    const plan = planFixes(snapshot, chosen, "2026-11-30");
    expect(plan.planned.length).toBe(2);
    await applyPlan(vault, plan.changes, { store: new MemoryStateStore(), writer: { kind: "cli", pid: 1, host: "here" }, operation: "lint", label: "fixes", wikiFolder: "wiki", now: NOW, maintainIndex: false });
    const shared = await vault.read("wiki/concepts/Shared.md");
    expect(shared).not.toContain("What the gone note said.");
    expect(shared).toContain("What Ada's note says.");
    expect(shared).not.toContain(gone);
    expect(await vault.stat("wiki/concepts/Only gone.md")).toBeNull();
    expect(await vault.read("wiki/index.md")).toBe("# Wiki index\n\n## Concepts\n\n- [[wiki/concepts/Shared|Shared]]\n");
  });

  it("'fix all safe' leaves the exact checks with nothing a safe fix could mend, and no user text changed", async () => {
    const run = await applyFixes("safe");
    const remaining = exactChecks({ snapshot: await snapshotOf(run.vault) });
    // What is left needs a person: duplicates, broken YAML, an empty page, a lost source…
    expect(remaining.filter((f) => f.fixes.some((x) => x.safe && x.kind !== "create-stub"))).toEqual([]);
    expect(remaining.map((f) => f.check).sort()).toEqual(["duplicate", "empty-page", "invalid-frontmatter", "missing-source-note", "missing-sources", "wrong-folder"]);
    // The user's notes and the page they wrote themselves are untouched.
    for (const path of ["notes/ada.md", "notes/engine.md", "wiki/syntheses/Deliberately unsourced.md"]) expect(run.after[path]).toBe(run.before[path]);
    await undoesByteForByte(run);
  });
});

describe("withRelatedLink", () => {
  it("adds the link under an existing Related heading, before the next heading, and never twice", () => {
    const md = "Text.\n\n## See also\n\n- [[A]]\n\n## Notes\n\nMore.\n";
    const once = withRelatedLink(md, "B");
    expect(once).toBe("Text.\n\n## See also\n\n- [[A]]\n- [[B]]\n\n## Notes\n\nMore.\n");
    expect(withRelatedLink(once, "B")).toBe(once);
    expect(withRelatedLink("Text with `[[B]]` in code.\n", "B")).toBe("Text with `[[B]]` in code.\n\n## Related\n\n- [[B]]\n");
  });
});

describe("retargetLinks", () => {
  it("keeps headings and aliases, and leaves links in code alone", () => {
    const md = "[[Old#Part]] [[Old|shown]] `[[Old]]`\n```\n[[Old]]\n```\n![[Old]]";
    expect(retargetLinks(md, (t) => t === "Old", "New")).toBe("[[New#Part|Old]] [[New|shown]] `[[Old]]`\n```\n[[Old]]\n```\n![[New]]");
  });
});

describe("a contradiction's fix in a batch of fixes", () => {
  it("is left out, saying how to settle it: the CLI's flags in a terminal, the finding's buttons in Obsidian", async () => {
    const snapshot = await snapshotOf(new MemoryVault(PLANTED));
    const finding = { check: "contradiction" as const, severity: "warning" as const, page: "wiki/entities/Ada Lovelace.md", message: "", fixes: [] };
    const plan = planFixes(snapshot, [{ finding, fix: { kind: "dismiss-contradiction", label: "Dismiss it: not a real contradiction", safe: false, params: { id: "c-1" } } }], "2026-11-30");
    expect(plan.planned).toEqual([]);
    const [skipped] = plan.skipped;
    expect(skipped?.reason).toContain("synapse lint --resolve <id>");
    expect(skipped?.pluginReason).toBe('A contradiction is settled one at a time: choose "Keep what … says" or "Dismiss it" on its finding.');
  });
});
