/**
 * A run a crash interrupted is rolled back before the plugin's index reads a note: otherwise the
 * index (and every question asked of it) holds the pages of the half-written run.
 */
import { afterEach, expect, it, vi } from "vitest";
import { ObsidianVault } from "../../src/obsidian/obsidian-vault";
import { pluginWriteContext } from "../../src/obsidian/write-context";
import { applyPlan } from "../../src/write/apply";
import { nextMacrotask } from "../helpers/eventually";
import { loadPlugin, MANIFEST } from "./plugin-harness";
import { readyIndex } from "../helpers/index-internals";

afterEach(() => vi.restoreAllMocks());

const HALF_WRITTEN = "wiki/concepts/Quasar.md";

it("opens the index only once the interrupted run is rolled back", async () => {
  const harness = await loadPlugin({ files: { "notes/Stars.md": "# Stars\n\nStars shine.\n", "wiki/concepts/Star.md": "# Star\n\nA star.\n" } });
  const app = harness.app.asOriginalType__();
  // A run "killed" after its first file: the journal stays, the page it wrote stays.
  const crash = new Error("killed");
  await applyPlan(new ObsidianVault(app), [{ path: HALF_WRITTEN, type: "concept", title: "Quasar", action: "created", create: "# Quasar\n\nA quasar shines brightest.\n" }], {
    ...(await pluginWriteContext(app, MANIFEST)),
    operation: "ingest",
    label: "Stars",
    wikiFolder: "wiki",
    afterEachWrite: () => Promise.reject(crash),
  }).catch((error: unknown) => {
    if (error !== crash) throw error;
  });
  expect(await harness.read(HALF_WRITTEN)).toContain("quasar");

  // Recovery is held while it reads the journal; meanwhile nothing may read a note.
  const adapter = harness.app.vault.adapter;
  const read = adapter.read.bind(adapter);
  let release = (): void => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  let recovering = false;
  const notesReadDuringRecovery: string[] = [];
  vi.spyOn(adapter, "read").mockImplementation(async (path: string) => {
    // This device's journal (journal/<device>.json), which recovery reads first.
    if (/\/journal\/[^/]+\.json$/.test(path)) {
      recovering = true;
      await held;
    } else if (recovering && !path.startsWith(".obsidian/")) notesReadDuringRecovery.push(path);
    return read(path);
  });
  const vault = harness.app.vault;
  const readNote = vault.cachedRead.bind(vault);
  vi.spyOn(vault, "cachedRead").mockImplementation((file) => {
    if (recovering) notesReadDuringRecovery.push(file.path);
    return readNote(file);
  });

  harness.app.workspace.setLayoutReady__();
  const opened = readyIndex(harness.plugin.index);
  // Room for an index that did not wait to load, list and read the vault (it took ~600 host yields
  // here); the test passes whatever the machine's speed, as nothing may be read until the release.
  for (let i = 0; i < 3000 && notesReadDuringRecovery.length === 0; i++) await nextMacrotask();
  expect(recovering).toBe(true);
  expect(notesReadDuringRecovery).toEqual([]);
  release();
  recovering = false;

  const index = await opened;
  await harness.plugin.recovered;
  expect(harness.app.vault.getFileByPath(HALF_WRITTEN)).toBeNull();
  const hits = (await index?.retrieve("quasar", { scope: { kind: "all" }, limit: 5 })) ?? [];
  expect(hits.map((h) => h.path)).toEqual([]);
  expect(harness.notices.join("\n")).toMatch(/An interrupted ingest \(“Stars”\) was rolled back/);
});
