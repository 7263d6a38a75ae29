/**
 * The user's notes are the canon: a new page about a subject the vault already has a note on is
 * not written (`link`, the default: links to it open the note) or is written with a line linking
 * to the note (`page`); a note about a different subject (World War I) never absorbs a page (World War II).
 */
import { describe, expect, it } from "vitest";
import type { WikiPage } from "../../src/core/schemas";
import { DEFAULT_SETTINGS, type CanonMode } from "../../src/settings/schema";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { NodeVault } from "../../src/vault/node-vault";
import { ingestNote } from "../../src/wiki/ingest-note";
import { ScriptedProvider, aPage } from "../builders";
import { makeVault, readVaultFile, snapshot as vaultFiles } from "../helpers/temp-vault";

const NOW = () => Date.UTC(2026, 11, 2, 12, 0);

function entity(title: string, source: string): WikiPage {
  return aPage().ofType("entity").titled(title).withSources(source).withContent(`${title}: a band of fast winds high in the atmosphere, steering the weather.`).build();
}
function concept(title: string, source: string, content: string): WikiPage {
  return aPage().ofType("concept").titled(title).withSources(source).withContent(content).build();
}

async function ingest(files: Record<string, string>, pages: WikiPage[], mode?: CanonMode) {
  const root = makeVault(files);
  const settings = { ...structuredClone(DEFAULT_SETTINGS), ...(mode ? { userNoteCanon: mode } : {}) };
  const report = await ingestNote({ vault: new NodeVault(root), provider: new ScriptedProvider([pages]), settings, state: new MemoryStateStore(), now: NOW }, { notePath: "notes/Weather.md" });
  return { root, report };
}

const WEATHER = "# Weather\n\nThe jet stream steers storms.\n";
const stormPage = () => concept("Storm tracks", "notes/Weather.md", "Storms follow the [[Jet Stream]] across the ocean.");

describe("the user's notes are the canon", () => {
  it("by default writes no page for a subject the user has a note on, says so, and links the run's other pages to the note", async () => {
    const { root, report } = await ingest({ "notes/Jet Stream.md": "# Jet Stream\n\nMy notes on the jet stream.\n", "notes/Weather.md": WEATHER }, [entity("Jet Stream", "notes/Weather.md"), stormPage()]);
    expect(report.error).toBeNull();
    expect(Object.keys(vaultFiles(root)).filter((p) => p.includes("Jet Stream"))).toEqual(["notes/Jet Stream.md"]);
    expect(report.pages.map((p) => p.path)).toEqual(["wiki/concepts/Storm tracks.md"]);
    expect(report.linkedNotes).toEqual([{ title: "Jet Stream", notePath: "notes/Jet Stream.md", sentence: "Linked to your note [[Jet Stream]] instead of writing a page." }]);
    expect(readVaultFile(root, "wiki/concepts/Storm tracks.md")).toContain("[[notes/Jet Stream|Jet Stream]]");
    expect(readVaultFile(root, "notes/Jet Stream.md")).toBe("# Jet Stream\n\nMy notes on the jet stream.\n");
  });

  it("finds the note by an alias its frontmatter gives", async () => {
    const { root, report } = await ingest({ "notes/Winds aloft.md": "---\naliases: [Jet Stream]\n---\n\nHigh winds.\n", "notes/Weather.md": WEATHER }, [entity("Jet Stream", "notes/Weather.md"), stormPage()]);
    expect(report.linkedNotes.map((l) => l.notePath)).toEqual(["notes/Winds aloft.md"]);
    expect(Object.keys(vaultFiles(root)).some((p) => p.includes("Jet Stream"))).toBe(false);
    expect(readVaultFile(root, "wiki/concepts/Storm tracks.md")).toContain("[[notes/Winds aloft|Jet Stream]]");
  });

  it("with the setting \"page\" writes the page as before, with a line linking to the note, never under the note's name", async () => {
    const { root, report } = await ingest({ "notes/Jet Stream.md": "# Jet Stream\n\nMine.\n", "notes/Weather.md": WEATHER }, [entity("Jet Stream", "notes/Weather.md")], "page");
    expect(report.linkedNotes).toEqual([]);
    expect(report.pages).toEqual([{ path: "wiki/entities/Jet Stream (entity).md", type: "entity", title: "Jet Stream", action: "created", detail: "The page links to your note [[Jet Stream]]." }]);
    expect(readVaultFile(root, "wiki/entities/Jet Stream (entity).md")).toContain("Your own note on this subject: [[notes/Jet Stream|Jet Stream]].");
  });

  it("a note about World War I does not absorb a new World War II page", async () => {
    const { root, report } = await ingest({ "notes/World War I.md": "# World War I\n\nThe Great War.\n", "notes/Weather.md": WEATHER }, [entity("World War II", "notes/Weather.md")]);
    expect(report.linkedNotes).toEqual([]);
    expect(report.pages.map((p) => p.path)).toEqual(["wiki/entities/World War II.md"]);
    expect(readVaultFile(root, "wiki/entities/World War II.md")).not.toContain("Your own note");
  });

  it("a note in an excluded folder, or a wiki page, is not the user's canon", async () => {
    const root = makeVault({ "private/Jet Stream.md": "Secret.\n", "notes/Weather.md": WEATHER });
    const settings = { ...structuredClone(DEFAULT_SETTINGS), excludedFolders: ["private"] };
    const report = await ingestNote({ vault: new NodeVault(root), provider: new ScriptedProvider([[entity("Jet Stream", "notes/Weather.md")]]), settings, state: new MemoryStateStore(), now: NOW }, { notePath: "notes/Weather.md" });
    expect(report.linkedNotes).toEqual([]);
    expect(report.pages.map((p) => p.action)).toEqual(["created"]);
  });
});
