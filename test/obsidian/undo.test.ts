import { afterEach, describe, expect, it, vi } from "vitest";
import { aPage, ScriptedProvider } from "../builders";
import { eventually } from "../helpers/eventually";
import { loadPlugin, runCommand, type Harness } from "./plugin-harness";

afterEach(() => vi.restoreAllMocks());

const NOTE = "notes/Source note.md";
const TEXT = "# Source note\n\nA note about the Example concept.\n";

function wiki(harness: Harness): Record<string, string> {
  const out: Record<string, string> = {};
  for (const file of harness.app.vault.getFiles()) if (file.path.startsWith("wiki/") && file.path !== "wiki/log.md") out[file.path] = "";
  return out;
}

async function contents(harness: Harness): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const path of Object.keys(wiki(harness)).sort()) out[path] = await harness.read(path);
  return out;
}

/** A provider that writes one page per ingest, with the given body. */
const writes = (body: string) => new ScriptedProvider([[aPage().titled("Example concept").withSources(NOTE).withContent(body).build()]]);

async function ingestWith(harness: Harness, provider: ScriptedProvider): Promise<void> {
  current = provider;
  harness.activate(NOTE);
  runCommand(harness, "ingest-active-note");
  await harness.plugin.ingest?.settled();
}

let current: ScriptedProvider = writes("First words.");

async function load(): Promise<Harness> {
  // Undo is under test here, not the review before writing (test/obsidian/review.test.ts).
  return loadPlugin({ files: { [NOTE]: TEXT }, data: { version: 1, reviewMode: "never" }, seams: { createProvider: () => current } });
}

/** Runs the undo command and waits until it has told the user how it went. */
async function undo(harness: Harness): Promise<void> {
  const before = harness.notices.length;
  runCommand(harness, "undo-last-change");
  await eventually(() => expect(harness.notices.length).toBeGreaterThan(before));
}

/** Ingests a note, then adds the user's own line to the page it wrote; returns that page's path. */
async function ingestThenEditPage(harness: Harness): Promise<string> {
  await ingestWith(harness, writes("First words."));
  const page = Object.keys(wiki(harness)).find((p) => p.includes("Example concept")) ?? "";
  const file = harness.app.vault.getFileByPath(page);
  if (!file) throw new Error("no page");
  await harness.app.vault.process(file, (text) => `${text}\nMy own words.\n`);
  return page;
}

describe("Undo last ingest (plugin command)", () => {
  it("is named so the palette finds 'Undo last ingest'", async () => {
    const harness = await load();
    expect(harness.registered.commands__.get("undo-last-change")?.name).toMatch(/^Undo last ingest/);
  });

  it("restores every file the last ingest touched and removes the pages it created", async () => {
    const harness = await load();
    await ingestWith(harness, writes("First words."));
    // The note changes too: an unchanged note would be "already up to date" and not ingested again.
    const note = harness.app.vault.getFileByPath(NOTE);
    if (!note) throw new Error("no note");
    await harness.app.vault.modify(note, `${TEXT}\n\nA second thought.`);
    const afterFirst = await contents(harness);
    await ingestWith(harness, writes("Second words, rewritten."));
    expect(await contents(harness)).not.toEqual(afterFirst);
    await undo(harness);
    expect(harness.notices.at(-1)).toMatch(/^Undid the ingest of “Source note” \([^)]*\): \d+ files? restored\./);
    expect(await contents(harness)).toEqual(afterFirst);
    await undo(harness);
    expect(Object.keys(wiki(harness))).toEqual([]);
    expect(await harness.read("wiki/log.md")).toMatch(/## \[\d{4}-\d{2}-\d{2}\] undo \| Source note/);
    await undo(harness);
    expect(harness.notices.at(-1)).toBe("Nothing to undo.");
  });

  it("asks before discarding an edit made since, listing the file, and keeps it when told to", async () => {
    const harness = await load();
    const page = await ingestThenEditPage(harness);
    const edited = await contents(harness);

    const answer = async (button: string) => {
      const opened = harness.opened.length;
      runCommand(harness, "undo-last-change");
      await eventually(() => expect(harness.opened.length).toBeGreaterThan(opened));
      const modal = harness.opened.at(-1)?.contentEl as HTMLElement;
      expect(modal.textContent).toContain("You edited these files after the ingest of “Source note”");
      expect([...modal.querySelectorAll(".synapse-confirm-list li")].map((li) => li.textContent)).toEqual([page]);
      const before = harness.notices.length;
      [...modal.querySelectorAll("button")].find((b) => b.textContent === button)?.click();
      await eventually(() => expect(harness.notices.length).toBeGreaterThan(before));
    };
    await answer("Keep everything");
    expect(harness.notices.at(-1)).toBe("Nothing was undone; 1 edited file was kept.");
    expect(await contents(harness)).toEqual(edited);

    await answer("Undo anyway");
    expect(harness.notices.at(-1)).toMatch(/^Undid the ingest/);
    expect(Object.keys(wiki(harness))).toEqual([]);
  });

  it("undoes nothing when another run landed while the confirm window was open", async () => {
    const harness = await load();
    const page = await ingestThenEditPage(harness);

    const opened = harness.opened.length;
    runCommand(harness, "undo-last-change");
    await eventually(() => expect(harness.opened.length).toBeGreaterThan(opened));
    const modal = harness.opened.at(-1)?.contentEl as HTMLElement;
    // Meanwhile an ingest lands (a folder ingest going on in the background).
    const note = harness.app.vault.getFileByPath(NOTE);
    if (!note) throw new Error("no note");
    await harness.app.vault.modify(note, `${TEXT}\n\nA second thought.`);
    await ingestWith(harness, writes("Second words, from the second thought."));
    const landed = await contents(harness);
    expect(landed[page]).toContain("Second words");

    const before = harness.notices.length;
    [...modal.querySelectorAll("button")].find((b) => b.textContent === "Undo anyway")?.click();
    await eventually(() => expect(harness.notices.length).toBeGreaterThan(before));
    expect(harness.notices.at(-1)).toMatch(/^Synapse could not undo: The vault changed since the undo was confirmed \(the ingest of “Source note” is now the last change\); nothing was undone\./);
    expect(await contents(harness)).toEqual(landed);
  });
});
