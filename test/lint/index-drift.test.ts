import { describe, expect, it } from "vitest";
import { isExcluded } from "../../src/core/perimeter";
import { exactChecks } from "../../src/lint/exact-checks";
import { chooseFixes, planFixes } from "../../src/lint/fixes";
import { loadSnapshot } from "../../src/lint/snapshot";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import { applyPlan } from "../../src/write/apply";

const page = (type: string, title: string) => `---\ntype: ${type}\ntitle: ${title}\nsources: [notes/a.md]\n---\n\n${title} text.\n`;

const INDEX = [
  "# Wiki index",
  "",
  "My own preface, with a link to [[Somewhere I mean to write]].",
  "",
  "## Concepts",
  "",
  "- [[wiki/concepts/Kept|An old title]] — my annotation",
  "- [[wiki/concepts/Renamed away|Renamed away]]",
  "- [[wiki/concepts/Deleted|Deleted]] — why I cared",
  "",
].join("\n");

function vault(): MemoryVault {
  return new MemoryVault({
    "notes/a.md": "A.",
    "wiki/concepts/Kept.md": page("concept", "Kept"),
    "wiki/concepts/Renamed here.md": page("concept", "Renamed here"),
    "wiki/entities/New one.md": page("entity", "New one"),
    "wiki/index.md": INDEX,
  });
}

async function lintIndex(v: MemoryVault) {
  const snapshot = await loadSnapshot(v, "wiki", (p) => isExcluded(p, []));
  return { snapshot, findings: exactChecks({ snapshot }).filter((f) => f.check === "index") };
}

describe("lint's index finding names each entry, and its fix is exact", () => {
  it("names every page index.md does not list and every entry that leads nowhere", async () => {
    const { findings } = await lintIndex(vault());
    expect(findings.map((f) => f.message)).toEqual([
      "index.md is out of step: it does not list \"Renamed here\", \"New one\"; its entries for wiki/concepts/Renamed away, wiki/concepts/Deleted lead to no page.",
    ]);
    expect(findings[0]?.fixes[0]?.label).toBe("Bring index.md in step, keeping your own lines");
  });

  it("adds exactly the missing pages and removes exactly the dangling entries, keeping every other line byte for byte", async () => {
    const v = vault();
    const { snapshot, findings } = await lintIndex(v);
    const plan = planFixes(snapshot, chooseFixes(findings, "safe"), "2026-12-01");
    await applyPlan(v, plan.changes, { store: new MemoryStateStore(), writer: { kind: "cli", pid: null, host: null }, operation: "lint", label: "fix", wikiFolder: "wiki", maintainIndex: false });
    expect(await v.read("wiki/index.md")).toBe(
      [
        "# Wiki index",
        "",
        "My own preface, with a link to [[Somewhere I mean to write]].",
        "",
        "## Entities",
        "",
        "- [[wiki/entities/New one|New one]]",
        "",
        "## Concepts",
        "",
        // An entry whose page is there keeps its title and annotation: the fix changes no other line.
        "- [[wiki/concepts/Kept|An old title]] — my annotation",
        "- [[wiki/concepts/Renamed here|Renamed here]]",
        // What the user wrote after a gone page's link stays, without the link.
        "- Deleted — why I cared",
        "",
      ].join("\n"),
    );
    expect((await lintIndex(v)).findings).toEqual([]);
  });
});
