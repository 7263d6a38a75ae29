import { describe, expect, it } from "vitest";
import { splitFrontmatter } from "../../src/core/markdown";
import { DEFAULT_SETTINGS } from "../../src/settings/schema";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import type { WriteContext } from "../../src/write/apply";
import { ingestNote } from "../../src/wiki/ingest-note";
import { parseBody } from "../../src/wiki/provenance";
import { retractNote } from "../../src/wiki/retract-run";
import { SourceRegistry } from "../../src/wiki/source-registry";
import { undoLastRun } from "../../src/write/undo";
import { aPage, ScriptedProvider } from "../builders";

const A = "notes/A.md";
const B = "notes/B.md";
const NOW = () => Date.parse("2026-11-30T12:00:00Z");
const SHARED = "wiki/concepts/Shared topic.md";
const ONLY_A = "wiki/concepts/Only A.md";
const INDEX = "wiki/index.md";

function page(title: string, source: string, content: string) {
  return aPage().titled(title).withSources(source).withContent(content).build();
}

async function setup() {
  const vault = new MemoryVault({ [A]: "# A\n\nA's note.", [B]: "# B\n\nB's view." });
  const write: WriteContext = { store: new MemoryStateStore(), writer: { kind: "cli", pid: null, host: null } };
  const ingest = (notePath: string, pages: ReturnType<typeof page>[]) =>
    ingestNote({ vault, provider: new ScriptedProvider([pages]), settings: DEFAULT_SETTINGS, write, now: NOW }, { notePath, force: true });
  await ingest(A, [page("Shared topic", A, "A's claim about the topic."), page("Only A", A, "Something only A said.")]);
  await ingest(B, [page("Shared topic", B, "B's own claim.")]);
  const retract = (extra: Partial<Parameters<typeof retractNote>[2]> = {}) =>
    retractNote(vault, write, { notePath: A, wikiFolder: "wiki", isExcluded: () => false, date: "2026-12-01", now: NOW, ...extra });
  return { vault, write, retract };
}

async function allFiles(vault: MemoryVault): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const path of await vault.list("")) out[path] = await vault.read(path);
  return out;
}

const sectionSources = (text: string) => parseBody(splitFrontmatter(text).body).flatMap((s) => (s.kind === "section" ? [s.source] : []));

describe("retracting a deleted source note", () => {
  it("leaves no section of the note behind, removes the page it alone fed, and index.md follows", async () => {
    const { vault, retract } = await setup();
    await vault.remove(A);
    const outcome = await retract();
    expect(outcome.runId).not.toBeNull();
    expect(outcome.applied.map((p) => `${p.action} ${p.path}`).sort()).toEqual([`removed ${ONLY_A}`, `updated ${SHARED}`]);
    for (const path of await vault.list("wiki")) {
      const text = await vault.read(path);
      expect(text).not.toContain("A's claim");
      expect(sectionSources(text)).not.toContain(A);
    }
    expect(splitFrontmatter(await vault.read(SHARED)).frontmatter.sources).toEqual([B]);
    expect(await vault.stat(ONLY_A)).toBeNull();
    expect(await vault.read(INDEX)).not.toContain("Only A");
    expect(await vault.read(INDEX)).toContain("Shared topic");
  });

  it("is taken back whole by undo: every file byte for byte, and the note's registry entry", async () => {
    const { vault, write, retract } = await setup();
    await vault.remove(A);
    const before = await allFiles(vault);
    const entry = await new SourceRegistry(write.store).entry(A);
    expect(entry).not.toBeNull();
    await retract();
    expect(await new SourceRegistry(write.store).entry(A)).toBeNull();
    await undoLastRun(vault, write, { wikiFolder: "wiki" });
    const after = await allFiles(vault);
    // log.md keeps the record of both runs; every other file is as it was.
    delete before["wiki/log.md"];
    delete after["wiki/log.md"];
    expect(after).toEqual(before);
    expect(await new SourceRegistry(write.store).entry(A)).toEqual(entry);
  });

  it("keeps a section of the note the user edited, with the note in its sources, and reports it", async () => {
    const { vault, retract } = await setup();
    await vault.process(SHARED, (t) => t.replace("A's claim about the topic.", "A's claim, as I corrected it."));
    await vault.remove(A);
    const outcome = await retract();
    const shared = await vault.read(SHARED);
    expect(shared).toContain("A's claim, as I corrected it.");
    expect(splitFrontmatter(shared).frontmatter.sources).toContain(A);
    expect(outcome.plan.kept.map((k) => k.path)).toEqual([SHARED]);
    expect(outcome.plan.kept[0]?.detail).toMatch(/Your edit/);
  });

  it("writes only what the review keeps, and nothing when it keeps nothing", async () => {
    const { vault, write, retract } = await setup();
    await vault.remove(A);
    const before = await allFiles(vault);
    const declined = await retract({ review: () => Promise.resolve([]) });
    expect(declined.runId).toBeNull();
    expect(await allFiles(vault)).toEqual(before);
    const partly = await retract({ review: () => Promise.resolve([SHARED]) });
    expect(partly.applied.map((p) => p.path)).toEqual([SHARED]);
    expect(await vault.stat(ONLY_A)).not.toBeNull();
    // The note's part is still on a page: it stays known, to be retracted again.
    expect(await new SourceRegistry(write.store).entry(A)).not.toBeNull();
  });

  it("refuses a note that still exists outside the excluded folders, and retracts one in an excluded folder", async () => {
    const { vault, retract } = await setup();
    await expect(retract()).rejects.toThrow(/still exists/);
    const outcome = await retract({ isExcluded: (p) => p.startsWith("notes/") });
    expect(outcome.applied.length).toBe(2);
    expect(await vault.read(A)).toBe("# A\n\nA's note.");
  });

  it("names the note as the user writes it: without .md, or as a link", async () => {
    const { vault, retract } = await setup();
    await vault.remove(A);
    expect((await retract({ notePath: "[[notes/A]]", dryRun: true })).plan.notePath).toBe(A);
    expect((await retract({ notePath: "notes/A", dryRun: true })).plan.changes.length).toBe(2);
    expect(await vault.stat(ONLY_A)).not.toBeNull();
  });
});
