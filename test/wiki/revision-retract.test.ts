import { describe, expect, it } from "vitest";
import { splitFrontmatter } from "../../src/core/markdown";
import { DEFAULT_SETTINGS } from "../../src/settings/schema";
import { MemoryVault } from "../../src/vault/memory-vault";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import type { WriteContext } from "../../src/write/apply";
import { ingestNote } from "../../src/wiki/ingest-note";
import { parseBody } from "../../src/wiki/provenance";
import { retractSource } from "../../src/wiki/retract";
import { undoLastRun } from "../../src/write/undo";
import { aPage, ScriptedProvider } from "../builders";
import { crowdedCatalogRig } from "../helpers/catalog-rig";

const A = "notes/A.md";
const B = "notes/B.md";
const NOW = () => Date.parse("2026-11-30T12:00:00Z");

function page(title: string, source: string, content: string) {
  return aPage().titled(title).withSources(source).withContent(content).build();
}

function setup() {
  const vault = new MemoryVault({ [A]: "# A\n\nVersion one.", [B]: "# B\n\nB's view." });
  const write: WriteContext = { store: new MemoryStateStore(), writer: { kind: "cli", pid: null, host: null } };
  const run = (notePath: string, pages: ReturnType<typeof page>[], extra: { capabilities?: { supportsAgenticLoop: boolean } } = {}) =>
    ingestNote(
      { vault, provider: new ScriptedProvider([pages], extra.capabilities ?? {}), settings: DEFAULT_SETTINGS, write, now: NOW },
      { notePath, force: true },
    );
  return { vault, write, run };
}

/** The user (or the note's author) replaces a file's text. */
const edit = (vault: MemoryVault, path: string, text: string) => vault.process(path, () => text);
const sourcesOf = (text: string) => splitFrontmatter(text).frontmatter.sources;
const sectionSources = (text: string) => parseBody(splitFrontmatter(text).body).flatMap((s) => (s.kind === "section" ? [s.source] : []));

describe("revising a changed note removes its part from pages it no longer yields", () => {
  it("drops the note's section and its source, keeping the other note's section and the user's text", async () => {
    const { vault, run } = setup();
    await run(A, [page("Shared topic", A, "A's claim about the topic."), page("Only A", A, "Something only A said.")]);
    await run(B, [page("Shared topic", B, "B's own claim.")]);
    const shared = "wiki/concepts/Shared topic.md";
    await edit(vault, shared, (await vault.read(shared)).replace("%% synapse:source notes/A.md", "My own note on this.\n\n%% synapse:source notes/A.md"));
    await edit(vault, A, "# A\n\nVersion two: only the other subject.");

    const report = await run(A, [page("Only A", A, "Something only A says now.")]);
    expect(report.converged).toBe(true);
    const after = await vault.read(shared);
    expect(after).not.toContain("A's claim about the topic.");
    expect(after).toContain("B's own claim.");
    expect(after).toContain("My own note on this.");
    expect(sectionSources(after)).toEqual([B]);
    expect(sourcesOf(after)).toEqual([B]);
    expect(report.pages.find((p) => p.path === shared)).toMatchObject({ action: "updated", detail: "Source note no longer yields this page; its part was removed." });
    expect(await vault.read("wiki/concepts/Only A.md")).toContain("Something only A says now.");
  });

  it("keeps a section of the note that the user edited, and the note in sources with it", async () => {
    const { vault, run } = setup();
    await run(A, [page("Shared topic", A, "A's claim about the topic.")]);
    const shared = "wiki/concepts/Shared topic.md";
    await edit(vault, shared, (await vault.read(shared)).replace("A's claim about the topic.", "A's claim, as I corrected it."));
    await edit(vault, A, "# A\n\nVersion two.");
    const before = await vault.read(shared);
    await run(A, [page("Other subject", A, "Something else.")]);
    expect(await vault.read(shared)).toBe(before);
  });

  it("leaves a page with nothing else on it in place, empty and without that source, and undo brings the part back", async () => {
    const { vault, write, run } = setup();
    await run(A, [page("Gone subject", A, "A's words on it.")]);
    const gone = "wiki/concepts/Gone subject.md";
    const before = await vault.read(gone);
    await edit(vault, A, "# A\n\nVersion two.");
    const report = await run(A, [page("Other subject", A, "Something else.")]);
    const after = await vault.read(gone);
    expect(splitFrontmatter(after).body.trim()).toBe("");
    expect(sourcesOf(after)).toEqual([]);
    expect(splitFrontmatter(after).frontmatterInvalid).toBe(false);
    expect(report.pages.find((p) => p.path === gone)?.detail).toMatch(/nothing else is left on it/);
    await undoLastRun(vault, write, { wikiFolder: "wiki" });
    expect(await vault.read(gone)).toBe(before);
  });

  it("leaves the pages alone when the pages came from an agent, which returns only what it wrote", async () => {
    const { vault, run } = setup();
    await run(A, [page("Shared topic", A, "A's claim about the topic.")]);
    const shared = "wiki/concepts/Shared topic.md";
    const before = await vault.read(shared);
    await edit(vault, A, "# A\n\nVersion two.");
    expect((await run(A, [page("Other subject", A, "Something else.")], { capabilities: { supportsAgenticLoop: true } })).converged).toBe(true);
    expect(await vault.read(shared)).toBe(before);
  });

  it("finds the pages the note yielded last time with the index as catalogue too, where nothing reads every page", async () => {
    // Filler pages that retrieval ranks above the note's page, so only the registry names it.
    const { vault, write, index, catalog } = await crowdedCatalogRig({ [A]: "# A\n\nVersion one." });
    const run = (pages: ReturnType<typeof page>[]) =>
      ingestNote({ vault, provider: new ScriptedProvider([pages]), settings: DEFAULT_SETTINGS, write, now: NOW, retriever: index, catalog }, { notePath: A });
    await run([page("Glacier", A, "Ice moves slowly downhill."), page("Lighthouse", A, "A tower with a lamp.")]);
    await edit(vault, A, "# A\n\nVersion two.");
    const report = await run([page("Lighthouse", A, "A tower with a lamp, still.")]);
    expect(report.error).toBeNull();
    const glacier = await vault.read("wiki/concepts/Glacier.md");
    expect(glacier).not.toContain("Ice moves slowly downhill.");
    expect(sourcesOf(glacier)).toEqual([]);
  });

  it("never changes a locked page", () => {
    const locked = "---\ntitle: T\nsynapse: locked\nsources: [notes/A.md]\n---\n\n%% synapse:source notes/A.md hash=0000000000000000 %%\nx\n\n%% /synapse:source %%\n";
    expect(retractSource(locked, A, "A", "2026-11-30")).toEqual({ content: locked, action: "unchanged" });
  });
});
