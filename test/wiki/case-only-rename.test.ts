/**
 * A note renamed only in case or Unicode form ("Note.md" → "note.md") on a file system that ignores
 * both (macOS, Windows) is the same note under a new spelling: a rename, never a second source.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS } from "../../src/settings/schema";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import type { WriteContext } from "../../src/write/apply";
import { ingestNote } from "../../src/wiki/ingest-note";
import { SourceRegistry } from "../../src/wiki/source-registry";
import { aPage, ScriptedProvider } from "../builders";
import { CaseInsensitiveVault } from "../helpers/case-insensitive-vault";

const NOW = () => Date.parse("2026-12-01T06:00:00Z");

function setup(notePath: string) {
  const vault = new CaseInsensitiveVault({ [notePath]: "# Note\n\nGlaciers move slowly." });
  const write: WriteContext = { store: new MemoryStateStore(), writer: { kind: "cli", pid: null, host: null } };
  const provider = new ScriptedProvider([[aPage().titled("Glacier").withSources(notePath).withContent("Glaciers move slowly.").build()]]);
  const ingest = (path: string) => ingestNote({ vault, provider, settings: DEFAULT_SETTINGS, write, now: NOW }, { notePath: path });
  return { vault, write, provider, ingest };
}

describe("a case-only rename on a case-insensitive file system", () => {
  it.each([
    ["in case", "notes/Note.md", "notes/note.md"],
    ["in case, the new name decomposed (NFD)", "notes/Café.md", "notes/cafe\u0301.md"],
    ["in case of a folder", "Notes/Note.md", "notes/Note.md"],
  ])("is a rename %s: already up to date, no provider call, the registry entry moved", async (_how, from, to) => {
    const { vault, write, provider, ingest } = setup(from);
    expect((await ingest(from)).error).toBeNull();
    const calls = provider.generateCalls.length;
    const before = JSON.stringify(await vault.list(""));
    await vault.rename(from, to);

    const report = await ingest(to);
    expect(report.error).toBeNull();
    expect(report.upToDate).toMatchObject({ movedFrom: from.normalize("NFC") });
    expect(provider.generateCalls.length).toBe(calls);
    expect(Object.keys((await new SourceRegistry(write.store).load()).notes)).toEqual([to.normalize("NFC")]);
    // Nothing written: the same pages, no second section or page.
    expect(JSON.stringify(await vault.list(""))).toBe(before.replace(JSON.stringify(from).slice(1, -1), to));
  });

  it("renamed in case and changed, revises the note's section under its new spelling and forgets the old entry", async () => {
    const { vault, write, ingest } = setup("notes/Note.md");
    await ingest("notes/Note.md");
    await vault.rename("notes/Note.md", "notes/note.md");
    await vault.process("notes/note.md", () => "# Note\n\nGlaciers move slowly, and carve valleys.");
    const provider = new ScriptedProvider([[aPage().titled("Glacier").withSources("notes/note.md").withContent("Glaciers carve valleys.").build()]]);
    const report = await ingestNote({ vault, provider, settings: DEFAULT_SETTINGS, write, now: NOW }, { notePath: "notes/note.md" });
    expect(report.error).toBeNull();
    const glacier = await vault.read("wiki/concepts/Glacier.md");
    expect(glacier.match(/%% synapse:source /g)).toHaveLength(1);
    expect(glacier).toContain("%% synapse:source notes/note.md ");
    expect(glacier).toContain("Glaciers carve valleys.");
    expect(glacier).not.toContain("Glaciers move slowly.");
    expect(Object.keys((await new SourceRegistry(write.store).load()).notes)).toEqual(["notes/note.md"]);
  });
});
