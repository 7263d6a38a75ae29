import { describe, expect, it, vi } from "vitest";
import { isExcluded } from "../../src/core/perimeter";
import { exactChecks } from "../../src/lint/exact-checks";
import { loadSnapshot } from "../../src/lint/snapshot";
import { MemoryVault } from "../../src/vault/memory-vault";
import { PLANTED } from "./planted-wiki";

async function lint(files: Record<string, string>, sourceChanged?: (p: string) => boolean | null) {
  const snapshot = await loadSnapshot(new MemoryVault(files), "wiki", (p) => isExcluded(p, []));
  return exactChecks({ snapshot, ...(sourceChanged ? { sourceChanged } : {}) });
}

describe("exact checks on a wiki with planted defects", () => {
  it("finds each planted defect, and only those", async () => {
    const findings = await lint(PLANTED, (note) => note === "notes/engine.md" ? false : note === "notes/ada.md");
    const got = findings.map((f) => `${f.check} ${f.page}${f.check === "dangling-link" ? ` ${f.message}` : ""}`).sort();
    expect(got).toEqual(
      [
        "dangling-link wiki/concepts/Dangling.md [[Ada Lovelac]] leads to no page or note.",
        "dangling-link wiki/concepts/Dangling.md [[Nowhere at all]] leads to no page or note.",
        "duplicate wiki/entities/Ada Lovelace.md",
        "empty-page wiki/concepts/Empty.md",
        "index wiki/index.md",
        "invalid-frontmatter wiki/concepts/Broken yaml.md",
        "missing-source-note wiki/concepts/Lost source.md",
        "missing-sources wiki/concepts/Unsourced.md",
        "orphan wiki/concepts/Orphaned idea.md",
        "stale wiki/entities/Ada Lovelace (2).md",
        "stale wiki/entities/Ada Lovelace.md",
        "wrong-folder wiki/entities/Misfiled.md",
      ].sort(),
    );
  });

  it("suggests the near name for a mistyped link, and a stub for a link to nothing", async () => {
    const findings = await lint(PLANTED);
    const typo = findings.find((f) => f.message.startsWith("[[Ada Lovelac]]"));
    expect(typo?.fixes.map((f) => [f.kind, f.label, f.safe])).toEqual([
      ["retarget-link", "Point [[Ada Lovelac]] at [[Ada Lovelace]]", true],
      ["create-stub", 'Create a stub page "Ada Lovelac"', true],
    ]);
    const nowhere = findings.find((f) => f.message.startsWith("[[Nowhere at all]]"));
    expect(nowhere?.fixes.map((f) => f.kind)).toEqual(["create-stub"]);
  });

  it("says why index.md is out of step and offers to rebuild it", async () => {
    const index = (await lint(PLANTED)).find((f) => f.check === "index");
    expect(index?.message).toBe('index.md is out of step: it does not list "Orphaned idea"; its entry for wiki/concepts/Gone leads to no page.');
    expect(index?.fixes[0]).toMatchObject({ kind: "rebuild-index", safe: true, label: "Bring index.md in step, keeping your own lines" });
  });

  it("treats a retargeting fix on a page the user edited as unsafe", async () => {
    const edited = { ...PLANTED, "wiki/concepts/Dangling.md": PLANTED["wiki/concepts/Dangling.md"]!.replace("Points to", "I changed this. Points to") };
    const typo = (await lint(edited)).find((f) => f.message.startsWith("[[Ada Lovelac]]"));
    expect(typo?.fixes[0]).toMatchObject({ kind: "retarget-link", safe: false });
  });

  it("finds nothing on a healthy wiki", async () => {
    const healthy = Object.fromEntries(
      Object.entries(PLANTED).filter(([p]) => ["notes/ada.md", "wiki/entities/Ada Lovelace.md", "wiki/concepts/Analytical Engine.md", "wiki/syntheses/Deliberately unsourced.md"].includes(p)),
    );
    healthy["notes/engine.md"] = "Engine notes about [[Analytical Engine]].";
    healthy["wiki/index.md"] = "# Wiki index\n\n- [[wiki/entities/Ada Lovelace|Ada Lovelace]]\n- [[wiki/concepts/Analytical Engine|Analytical Engine]]\n- [[wiki/syntheses/Deliberately unsourced|Deliberately unsourced]]\n";
    expect(await lint(healthy)).toEqual([]);
  });
});

describe("exact checks and excluded folders", () => {
  const files = {
    "private/Diary.md": "Secret things. [[Nowhere]]",
    "private/deep/Plans.md": "More secrets.",
    "wiki/concepts/Open.md": "---\ntype: concept\ntitle: Open\nsources: [private/Diary.md]\n---\n\nSee [[Diary]], [[private/deep/Plans|the plans]] and [[Missing]].\n",
    "wiki/index.md": "# Wiki index\n\n- [[wiki/concepts/Open|Open]]\n",
  };

  async function lintExcluding(excludedFolders: string[]) {
    const vault = new MemoryVault(files);
    const read = vi.spyOn(vault, "read");
    const snapshot = await loadSnapshot(vault, "wiki", (p) => isExcluded(p, excludedFolders));
    const findings = exactChecks({ snapshot, sourceChanged: () => true });
    return { findings, read: read.mock.calls.map(([path]) => path) };
  }

  it("does not call a link or a source dangling when its target is a note in an excluded folder", async () => {
    const { findings, read } = await lintExcluding(["private"]);
    expect(findings.filter((f) => f.check === "dangling-link").map((f) => f.message)).toEqual(["[[Missing]] leads to no page or note."]);
    expect(findings.filter((f) => f.check === "missing-source-note" || f.check === "stale")).toEqual([]);
    // Nor is it read: what it holds stays out of lint, its own broken link included.
    expect(read.filter((p) => p.startsWith("private/"))).toEqual([]);
    expect(findings.map((f) => f.page).filter((p) => p.startsWith("private/"))).toEqual([]);
  });

  it("still reports a link to a note that exists nowhere, excluded or not", async () => {
    const { findings } = await lintExcluding(["elsewhere"]);
    expect(findings.filter((f) => f.check === "dangling-link").map((f) => f.message)).toEqual(["[[Missing]] leads to no page or note."]);
  });
});

describe("missing-source-note's suggested note", () => {
  const sourcePage = (title: string) => `---\ntype: source\ntitle: ${title}\nsources: [notes/${title}.md]\n---\n\nWhat the note said.\n`;
  const fixesOf = (findings: Awaited<ReturnType<typeof lint>>) => findings.filter((f) => f.check === "missing-source-note").map((f) => f.fixes.map((x) => `${x.kind} ${"to" in x.params ? x.params.to : "source" in x.params ? x.params.source : ""}`));

  it("never suggests the page itself when the lost note had the page's name", async () => {
    const findings = await lint({ "wiki/sources/Ada.md": sourcePage("Ada") });
    expect(fixesOf(findings)).toEqual([["retract-source notes/Ada.md", "drop-missing-source notes/Ada.md"]]);
  });

  it("nor another page of the wiki, but the note that moved even when a page of that name comes first", async () => {
    const findings = await lint({
      "wiki/sources/Ada.md": sourcePage("Ada"),
      "wiki/entities/Ada.md": "---\ntype: entity\ntitle: Ada\nsources: [notes/x.md]\n---\n\nAda.\n",
      "notes/x.md": "x",
      "zarchive/Ada.md": "The note, moved.",
    });
    expect(fixesOf(findings)).toEqual([["retarget-link zarchive/Ada.md"]]);
  });
});

describe("dangling-link's suggested target", () => {
  const entity = (title: string, body: string) => `---\ntype: entity\ntitle: ${title}\nsources: [notes/x.md]\n---\n\n${body}\n`;
  const retargets = (findings: Awaited<ReturnType<typeof lint>>) => findings.filter((f) => f.check === "dangling-link").flatMap((f) => f.fixes.filter((x) => x.kind === "retarget-link").map((x) => x.params.to));

  it("never points a page's link at the page itself, neither as the moved file nor as the nearest name", async () => {
    const moved = await lint({ "notes/x.md": "x", "wiki/entities/Ada.md": entity("Ada", "See [[archive/Ada]].") });
    expect(retargets(moved)).toEqual([]);
    const near = await lint({ "notes/x.md": "x", "wiki/entities/Ada.md": entity("Ada", "See [[Adaa]].") });
    expect(retargets(near)).toEqual([]);
  });

  it("still suggests another page of a near name", async () => {
    const findings = await lint({ "notes/x.md": "x", "wiki/entities/Ada.md": entity("Ada", "See [[Adaa]]."), "wiki/entities/Adam.md": entity("Adam", "See [[Ada]].") });
    expect(retargets(findings)).toEqual(["Adam"]);
  });
});
