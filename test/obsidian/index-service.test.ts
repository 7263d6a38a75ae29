/**
 * The search index inside the real plugin, on the mocked vault: built once the layout is ready with
 * a counting status line, kept current by vault events, persisted in shards in the plugin's state
 * folder, started warm (no note read) on the next load, rebuilt where a shard is damaged, and used
 * by the ingest for its context.
 */
import type { TFile } from "obsidian";
import { App } from "obsidian-test-mocks/obsidian";
import { afterEach, describe, expect, it, vi } from "vitest";
import SynapsePlugin from "../../src/main";
import { aPage, ScriptedProvider } from "../builders";
import { eventually, nextMacrotask } from "../helpers/eventually";
import { clickNotice, loadPlugin, MANIFEST, readBinaryOfTextFiles, runCommand, statusTexts, type Harness } from "./plugin-harness";
import { inProcessWorker } from "../helpers/in-process-worker";
import { readyIndex } from "../helpers/index-internals";

afterEach(() => vi.restoreAllMocks());

const SHARDS = ".obsidian/plugins/synapse/state/index";

function notes(n: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) files[`notes/Note ${i}.md`] = `# Note ${i}\n\nPlain words number ${i} about gardening and compost.\n`;
  return files;
}

async function search(harness: Harness, query: string): Promise<string[]> {
  const indexed = await harness.plugin.index?.forIngest();
  if (!indexed) throw new Error("no index");
  return (await indexed.retriever.retrieve(query, { scope: { kind: "all" }, limit: 5 })).map((h) => h.path);
}


async function shardFiles(app: App): Promise<string[]> {
  const adapter = app.vault.adapter as unknown as { exists(p: string): Promise<boolean>; list(p: string): Promise<{ files: string[] }> };
  return (await adapter.exists(SHARDS)) ? (await adapter.list(SHARDS)).files.filter((f) => /\/text-[0-9a-f]{2}\.bin$/.test(f)) : [];
}

/** A second plugin over the same vault and state folder, as after restarting Obsidian. */
async function restart(app: App): Promise<SynapsePlugin> {
  const plugin = new SynapsePlugin(app.asOriginalType__(), MANIFEST, { indexWorker: inProcessWorker() });
  await plugin.onload();
  return plugin;
}

describe("the search index in Obsidian", () => {
  it("waits for the layout, then indexes in batches with a counting status line, hidden when done", async () => {
    const harness = await loadPlugin({ files: notes(120) });
    const texts = statusTexts(harness);
    // Nothing happens at load: the index opens once the layout is ready.
    await nextMacrotask();
    expect(texts).toEqual([]);
    expect(await shardFiles(harness.app)).toEqual([]);

    harness.app.workspace.setLayoutReady__();
    const index = await readyIndex(harness.plugin.index);
    expect(index?.size).toBe(120);
    expect(texts).toContain("Indexing 0 / 120");
    // At least one line between: a batch is at most 50 notes (sooner on a slow machine), counting up.
    const counts = texts.flatMap((t) => /^Indexing (\d+) \/ 120$/.exec(t)?.[1] ?? []).map(Number);
    expect(counts.filter((c) => c > 0 && c < 120).length).toBeGreaterThanOrEqual(2);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(texts.at(-1)).toBe("");
    expect((harness.registered.statusBarItems__[1] as HTMLElement).hasClass("synapse-status-idle")).toBe(true);
    expect((await search(harness, "Note 7"))[0]).toBe("notes/Note 7.md");
  });

  it("keeps up with notes created, modified, renamed and deleted", async () => {
    const harness = await loadPlugin({ files: { ...notes(5), "notes/Telescope.md": "# Telescope\n\nA refractor.\n" } });
    harness.app.workspace.setLayoutReady__();
    await readyIndex(harness.plugin.index);
    const vault = harness.app.vault;

    await vault.create("notes/Quasar.md", "# Quasar\n\nA quasar outshines its galaxy.\n");
    await eventually(async () => expect(await search(harness, "outshines")).toEqual(["notes/Quasar.md"]));

    await vault.modify(vault.getFileByPath("notes/Telescope.md") as never, "# Telescope\n\nA reflector with a parabolic mirror.\n");
    await eventually(async () => expect(await search(harness, "parabolic")).toEqual(["notes/Telescope.md"]));
    expect(await search(harness, "refractor")).toEqual([]);

    await harness.app.fileManager.renameFile(vault.getFileByPath("notes/Quasar.md") as never, "space/Quasar.md");
    await eventually(async () => expect(await search(harness, "outshines")).toEqual(["space/Quasar.md"]));

    await harness.app.fileManager.trashFile(vault.getFileByPath("notes/Telescope.md") as never);
    await eventually(async () => expect(await search(harness, "parabolic")).toEqual([]));
  });

  it("persists in shards and starts warm on the next load, reading no note", async () => {
    const harness = await loadPlugin({ files: notes(60) });
    harness.app.workspace.setLayoutReady__();
    await readyIndex(harness.plugin.index);
    harness.plugin.unload();
    await harness.plugin.index?.closed;
    const shards = await shardFiles(harness.app);
    expect(shards.length).toBeGreaterThan(1);

    const read = vi.spyOn(harness.app.vault, "read");
    const cachedRead = vi.spyOn(harness.app.vault, "cachedRead");
    const again = await restart(harness.app);
    const index = await readyIndex(again.index);
    expect(index?.size).toBe(60);
    expect(index?.rejectedShards).toBe(0);
    expect(read).not.toHaveBeenCalled();
    expect(cachedRead).not.toHaveBeenCalled();
  });

  it("on unload stops the index and writes what changed since the last write; the next start has it without reading", async () => {
    const harness = await loadPlugin({ files: notes(10) });
    harness.app.workspace.setLayoutReady__();
    await readyIndex(harness.plugin.index);
    await harness.app.vault.modify(harness.app.vault.getFileByPath("notes/Note 3.md") as never, "# Note 3\n\nNow about beekeeping.\n");
    await eventually(async () => expect(await search(harness, "beekeeping")).toEqual(["notes/Note 3.md"]));
    // The mock runs a plugin's unload callbacks only once it counts as loaded (the harness called onload).
    (harness.registered as unknown as { loaded__: boolean }).loaded__ = true;
    harness.plugin.unload();
    await harness.plugin.index?.closed;
    expect(await readyIndex(harness.plugin.index)).toBeNull();

    const read = vi.spyOn(harness.app.vault, "read");
    const cachedRead = vi.spyOn(harness.app.vault, "cachedRead");
    const again = await restart(harness.app);
    const index = await readyIndex(again.index);
    expect(read).not.toHaveBeenCalled();
    expect(cachedRead).not.toHaveBeenCalled();
    expect(index?.searchText("beekeeping", { scope: { kind: "all" }, limit: 5 }).map((h) => h.path)).toEqual(["notes/Note 3.md"]);
  });

  it("drops a truncated shard on open and indexes its notes again", async () => {
    const harness = await loadPlugin({ files: notes(60) });
    harness.app.workspace.setLayoutReady__();
    await readyIndex(harness.plugin.index);
    harness.plugin.unload();
    await harness.plugin.index?.closed;
    const adapter = harness.app.vault.adapter as unknown as { readBinary(p: string): Promise<ArrayBuffer>; writeBinary(p: string, d: ArrayBuffer): Promise<void> };
    const shard = (await shardFiles(harness.app))[0] as string;
    const bytes = await adapter.readBinary(shard);
    await adapter.writeBinary(shard, bytes.slice(0, Math.floor(bytes.byteLength / 2)));

    const again = await restart(harness.app);
    const index = await readyIndex(again.index);
    expect(index?.rejectedShards).toBe(1);
    expect(index?.size).toBe(60);
    again.unload();
    await again.index?.closed;
    const third = await restart(harness.app);
    expect((await readyIndex(third.index))?.rejectedShards).toBe(0);
  });

  it("an ingest quotes the wiki page related by content, not the unrelated ones, and the page it writes is indexed", async () => {
    const page = (title: string, body: string) => `---\ntype: concept\ntitle: ${title}\nsources:\n  - notes/Old.md\nlang: en\n---\n${body}\n`;
    const provider = new ScriptedProvider([[aPage().titled("Zettelkasten").withSources("notes/Zettelkasten.md").withContent("Cards with a hyperlinked lattice.").build()]]);
    const harness = await loadPlugin({
      files: {
        "notes/Zettelkasten.md": "# Zettelkasten\n\nAtomic notes on index cards, each with a unique identifier, linked to one another.\n",
        "wiki/concepts/Slip-box method.md": page("Slip-box method", "Atomic notes on index cards with a unique identifier; Luhmann wrote seventy books with it."),
        "wiki/concepts/Sourdough baking.md": page("Sourdough baking", "A starter of wild yeast and a long fermentation."),
      },
      seams: { createProvider: () => provider },
    });
    readBinaryOfTextFiles(harness.app);
    harness.app.workspace.setLayoutReady__();
    harness.activate("notes/Zettelkasten.md");
    expect(runCommand(harness, "ingest-active-note")).toBe(true);
    await harness.plugin.ingest?.settled();

    const context = provider.generateCalls[0]?.retrievalContext ?? "";
    expect(context).toContain("seventy books");
    expect(context).not.toContain("Sourdough");
    expect(provider.analyzeCalls[0]?.vaultContext).toContain("Slip-box method");
    // The result window's run log says what the context held.
    clickNotice(harness, "Show details");
    expect(harness.modals.at(-1)?.textContent).toContain("context: 1 passage from 1 page");
    // The user's note has the plain name, so the new page carries its type.
    const written = "wiki/concepts/Zettelkasten (concept).md";
    expect(harness.app.vault.getFileByPath(written) as TFile | null).not.toBeNull();
    expect((await search(harness, "hyperlinked lattice"))[0]).toBe(written);
  });

  it("reopens when the excluded folders change: a note in a newly excluded folder is no longer found", async () => {
    const harness = await loadPlugin({ files: { "notes/Open.md": "# Open\n\nA lighthouse.\n", "private/Diary.md": "# Diary\n\nA lighthouse keeper's secret.\n" } });
    harness.app.workspace.setLayoutReady__();
    expect((await search(harness, "lighthouse")).sort()).toEqual(["notes/Open.md", "private/Diary.md"]);
    harness.registered.data__ = { ...(harness.registered.data__ as object), excludedFolders: ["private"] };
    await harness.plugin.onExternalSettingsChange();
    expect(await search(harness, "lighthouse")).toEqual(["notes/Open.md"]);
  });
});
