/**
 * A file name alone proves no move: Untitled.md, README.md, index.md and dated daily notes repeat
 * across folders. A new note that shares a deleted note's file name but none of its pages is a note
 * of its own: the deleted note's sections and registry entry stay as they were.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS } from "../../src/settings/schema";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import type { WriteContext } from "../../src/write/apply";
import { ingestNote } from "../../src/wiki/ingest-note";
import { SourceRegistry } from "../../src/wiki/source-registry";
import { aPage, ScriptedProvider } from "../builders";

const NOW = () => Date.parse("2026-12-01T06:00:00Z");
const page = (title: string, source: string, content: string) => aPage().titled(title).withSources(source).withContent(content).build();

function rig() {
  const vault = new MemoryVault();
  const write: WriteContext = { store: new MemoryStateStore(), writer: { kind: "cli", pid: null, host: null } };
  const ingest = (notePath: string, pages: ReturnType<typeof page>[]) =>
    ingestNote({ vault, provider: new ScriptedProvider([pages]), settings: DEFAULT_SETTINGS, write, now: NOW }, { notePath });
  return { vault, write, ingest };
}

describe("a new note with a deleted note's file name, in another folder", () => {
  it.each(["Untitled.md", "README.md", "index.md", "2026-11-30.md"])("is not taken for it when it yields none of its pages (%s)", async (name) => {
    const { vault, write, ingest } = rig();
    const old = `notes/old/${name}`;
    const fresh = `notes/new/${name}`;
    await vault.create(old, "# Ice\n\nGlaciers move slowly.");
    expect((await ingest(old, [page("Glacier", old, "Glaciers move slowly.")])).error).toBeNull();
    await vault.remove(old);
    await vault.create(fresh, "# Fire\n\nVolcanoes erupt lava.");

    const report = await ingest(fresh, [page("Volcano", fresh, "Volcanoes erupt lava.")]);
    expect(report.error).toBeNull();
    expect(report.pages.map((p) => p.path)).toEqual(["wiki/concepts/Volcano.md"]);
    const glacier = await vault.read("wiki/concepts/Glacier.md");
    expect(glacier).toContain("Glaciers move slowly.");
    expect(glacier).toContain(`%% synapse:source ${old} `);
    const notes = (await new SourceRegistry(write.store).load()).notes;
    expect(notes[old]?.pages).toEqual(["wiki/concepts/Glacier.md"]);
    expect(notes[fresh]?.pages).toEqual(["wiki/concepts/Volcano.md"]);
    expect(notes[fresh]?.formerPaths).toBeUndefined();
  });

  it("is taken for it when it yields one of its pages again: a note moved and changed", async () => {
    const { vault, write, ingest } = rig();
    await vault.create("notes/old/Untitled.md", "# Ice\n\nGlaciers move slowly.");
    await ingest("notes/old/Untitled.md", [page("Glacier", "notes/old/Untitled.md", "Glaciers move slowly."), page("Moraine", "notes/old/Untitled.md", "Rock a glacier left.")]);
    await vault.remove("notes/old/Untitled.md");
    await vault.create("notes/new/Untitled.md", "# Ice\n\nGlaciers move slowly and carve valleys.");

    const report = await ingest("notes/new/Untitled.md", [page("glacier", "notes/new/Untitled.md", "Glaciers carve valleys.")]);
    expect(report.error).toBeNull();
    const glacier = await vault.read("wiki/concepts/Glacier.md");
    expect(glacier).toContain("Glaciers carve valleys.");
    expect(glacier).not.toContain("%% synapse:source notes/old/Untitled.md ");
    expect(await vault.read("wiki/concepts/Moraine.md")).not.toContain("Rock a glacier left.");
    expect(Object.keys((await new SourceRegistry(write.store).load()).notes)).toEqual(["notes/new/Untitled.md"]);
  });
});
