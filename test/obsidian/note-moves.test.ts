/**
 * A note renamed in Obsidian, then changed before its next ingest, is still the same source: the
 * plugin records the rename as Obsidian reports it, so the re-ingest revises the note's sections
 * under its new path instead of leaving the old ones beside new ones.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { splitFrontmatter } from "../../src/core/markdown";
import { parseBody } from "../../src/wiki/provenance";
import { aPage, ScriptedProvider } from "../builders";
import { loadPlugin, runCommand, type Harness } from "./plugin-harness";

afterEach(() => vi.restoreAllMocks());

const A = "notes/A.md";
const B = "notes/B.md";
const SHARED = "wiki/concepts/Shared topic.md";
const ONLY_A = "wiki/concepts/Only A.md";
const page = (title: string, source: string, content: string) => aPage().titled(title).withSources(source).withContent(content).build();
const sectionSources = (text: string) => parseBody(splitFrontmatter(text).body).flatMap((s) => (s.kind === "section" ? [s.source] : []));

let current = new ScriptedProvider([[]]);

async function ingest(harness: Harness, path: string, pages: ReturnType<typeof page>[]): Promise<void> {
  current = new ScriptedProvider([pages]);
  harness.activate(path);
  runCommand(harness, "ingest-active-note");
  await harness.plugin.ingest?.settled();
}

describe("a note renamed in Obsidian", () => {
  it("then changed, is revised as the same source under its new name", async () => {
    // Updates are written without the review window, which would wait for a click.
    const data = { version: 1, reviewMode: "never" };
    const harness = await loadPlugin({ files: { [A]: "# A\n\nVersion one.", [B]: "# B\n\nB's view." }, data, seams: { createProvider: () => current } });
    harness.app.workspace.setLayoutReady__();
    await harness.plugin.resumed;
    await ingest(harness, A, [page("Shared topic", A, "A's first claim about the topic."), page("Only A", A, "Something only A said.")]);
    await ingest(harness, B, [page("Shared topic", B, "B's own claim.")]);
    const note = harness.app.vault.getFileByPath(A);
    if (!note) throw new Error("no note");
    await harness.app.fileManager.renameFile(note, "archive/A renamed.md");
    await harness.plugin.moves?.settled();
    await harness.app.vault.modify(note, "# A\n\nVersion two.");

    await ingest(harness, "archive/A renamed.md", [page("Shared topic", "archive/A renamed.md", "A's second claim about the topic.")]);
    const shared = await harness.read(SHARED);
    expect(shared).toContain("A's second claim about the topic.");
    expect(shared).not.toContain("A's first claim about the topic.");
    expect(sectionSources(shared)).toEqual(["archive/A renamed.md", B]);
    expect(splitFrontmatter(shared).frontmatter.sources).toEqual(["archive/A renamed.md", B]);
    expect(await harness.read(ONLY_A)).not.toContain("Something only A said.");
  });

  it("records the moves of the notes in a renamed folder", async () => {
    const harness = await loadPlugin({ files: { [A]: "# A\n\nVersion one.", "notes/Never.md": "# Never\n\nNot ingested." }, seams: { createProvider: () => current } });
    harness.app.workspace.setLayoutReady__();
    await harness.plugin.resumed;
    await ingest(harness, A, [page("Only A", A, "Something only A said.")]);
    const folder = harness.app.vault.getFolderByPath("notes");
    if (!folder) throw new Error("no folder");
    await harness.app.fileManager.renameFile(folder, "papers");
    await harness.plugin.moves?.settled();
    // The note, unchanged, is up to date under its new path without being matched by content first.
    await ingest(harness, "papers/A.md", []);
    expect(harness.notices.at(-1)).toMatch(/"A" is already up to date/);
    expect(harness.notices.at(-1)).not.toMatch(/since moved/);
  });
});
