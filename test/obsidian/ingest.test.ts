import { afterEach, describe, expect, it, vi } from "vitest";
import { SynapseError } from "../../src/core/errors";
import type { RunContext } from "../../src/core/run-context";
import type { WikiPage } from "../../src/core/schemas";
import { aPage, ScriptedProvider } from "../builders";
import type { TFolder } from "obsidian";
import type { FolderSuggestModal } from "../../src/ui/folder-suggest";
import { clickNotice, loadPlugin, runCommand, type Harness } from "./plugin-harness";
import { eventually } from "../helpers/eventually";
import { fixtureNote } from "../helpers/fixture-notes";

afterEach(() => vi.restoreAllMocks());

/** A note of the fixtures (test/fixtures/notes), as a user's vault would hold it. */
function fixtureText(relative: string): string {
  return fixtureNote(relative).text;
}

const NOTE = "Getting started/Link notes.md";

function wikiFiles(harness: Harness): string[] {
  return harness.app.vault
    .getFiles()
    .map((f) => f.path)
    .filter((p) => p.startsWith("wiki/"))
    .sort();
}

function statusText(harness: Harness): string {
  return (harness.registered.statusBarItems__[0] as HTMLElement).textContent ?? "";
}

/** Generates valid pages, except for notes named in `hold`: those wait until the run is cancelled. */
function holdingProvider(hold: (path: string) => boolean): ScriptedProvider {
  return new ScriptedProvider([
    (run: RunContext): Promise<WikiPage[]> => {
      const source = run.source?.path ?? "";
      if (!hold(source)) {
        return Promise.resolve([aPage().titled(`Page for ${source.replace(/\.md$/, "")}`).withSources(source).withContent(`From [[${source.replace(/\.md$/, "")}]].`).build()]);
      }
      return new Promise((_resolve, reject) => {
        if (run.signal.aborted) reject(new SynapseError("cancelled", "The run was cancelled."));
        run.signal.addEventListener("abort", () => reject(new SynapseError("cancelled", "The run was cancelled.")), { once: true });
      });
    },
  ]);
}

describe("ingesting from Obsidian", () => {
  it("'Ingest active note' runs the Offline provider on the mocked vault and writes the pages", async () => {
    const harness = await loadPlugin({ files: { [NOTE]: fixtureText(`en/${NOTE}`) } });
    harness.activate(NOTE);
    expect(runCommand(harness, "ingest-active-note")).toBe(true);
    await harness.plugin.ingest?.settled();

    const files = wikiFiles(harness);
    expect(files).toContain("wiki/index.md");
    expect(files).toContain("wiki/log.md");
    const pages = files.filter((p) => p !== "wiki/index.md" && p !== "wiki/log.md");
    expect(pages.length).toBeGreaterThan(0);
    // The source note is untouched; pages cite it and the index links them.
    expect(await harness.read(NOTE)).toBe(fixtureText(`en/${NOTE}`));
    const first = await harness.read(pages[0] as string);
    expect(first).toMatch(/^---\n/);
    expect(first).toContain(NOTE);
    const index = await harness.read("wiki/index.md");
    expect(index).toContain("[[");

    expect(harness.notices.some((n) => /^Synapse ingested "Link notes": \d+ pages? created/.test(n))).toBe(true);
    // No window opens by itself; the notice's "Show details" lists the pages as links that open them.
    expect(harness.modals).toEqual([]);
    clickNotice(harness, "Show details");
    const modal = harness.modals.at(-1) as HTMLElement;
    const links = [...modal.querySelectorAll<HTMLAnchorElement>("a.internal-link")].map((a) => a.dataset.href);
    expect(links.sort()).toEqual(pages);
    expect(statusText(harness)).toBe("");
  });

  it("a single note's ingest opens no window: its notice offers 'Show details' and 'Undo', which takes the pages back", async () => {
    const harness = await loadPlugin({ files: { [NOTE]: fixtureText(`en/${NOTE}`) } });
    harness.activate(NOTE);
    runCommand(harness, "ingest-active-note");
    await harness.plugin.ingest?.settled();
    expect(harness.opened).toEqual([]);
    const buttons = [...(harness.noticeEls.at(-1)?.querySelectorAll("button") ?? [])].map((b) => b.textContent);
    expect(buttons).toEqual(["Show details", "Undo"]);
    const pages = wikiFiles(harness).filter((p) => p !== "wiki/index.md" && p !== "wiki/log.md");
    expect(pages.length).toBeGreaterThan(0);
    clickNotice(harness, "Undo");
    await eventually(() => expect(harness.app.vault.getFileByPath(pages[0] as string)).toBeNull());
  });

  it("the ribbon button ingests the active note, and asks for one when none is open", async () => {
    const harness = await loadPlugin({ files: { "notes/Plain note.md": "# Plain note\n\nA short note about [[Bees]] and honey." } });
    harness.activate(null);
    harness.clickRibbon();
    expect(harness.notices).toContain("Open a Markdown note to ingest it.");

    harness.activate("notes/Plain note.md");
    harness.clickRibbon();
    await harness.plugin.ingest?.settled();
    expect(wikiFiles(harness).length).toBeGreaterThan(2);
  });

  it("shows the phase in the status bar, and 'Cancel running ingest' stops the run without writing", async () => {
    const provider = holdingProvider(() => true);
    const harness = await loadPlugin({ files: { "a.md": "# A\n\nSomething about apples." }, seams: { createProvider: () => provider } });
    harness.activate("a.md");
    runCommand(harness, "ingest-active-note");
    await eventually(() => expect(statusText(harness)).toBe("Synapse: generating"));
    expect(harness.registered.commands__.get("cancel-ingest")?.checkCallback?.(true)).toBe(true);

    expect(runCommand(harness, "cancel-ingest")).toBe(true);
    await harness.plugin.ingest?.settled();
    expect(harness.notices).toContain('Ingest of "a" cancelled; nothing was written.');
    expect(wikiFiles(harness)).toEqual([]);
    expect(statusText(harness)).toBe("");
    expect(harness.registered.commands__.get("cancel-ingest")?.checkCallback?.(true)).toBe(false);
  });

  it("clicking the status bar cancels too, once the user confirms", async () => {
    const provider = holdingProvider(() => true);
    const harness = await loadPlugin({ files: { "a.md": "# A\n\nApples." }, seams: { createProvider: () => provider } });
    harness.activate("a.md");
    runCommand(harness, "ingest-active-note");
    await eventually(() => expect(statusText(harness)).toContain("generating"));
    (harness.registered.statusBarItems__[0] as HTMLElement).click();
    const confirm = [...(harness.opened.at(-1)?.contentEl.querySelectorAll("button") ?? [])].find((b) => b.textContent === "Cancel ingest");
    if (!confirm) throw new Error("The click did not ask before cancelling");
    confirm.click();
    await harness.plugin.ingest?.settled();
    expect(harness.notices).toContain('Ingest of "a" cancelled; nothing was written.');
  });

  it("unloading the plugin stops the running ingest and the waiting ones, writing nothing (they resume at the next start)", async () => {
    const provider = holdingProvider(() => true);
    const harness = await loadPlugin({ files: { "a.md": "# A\n\nApples.", "b.md": "# B\n\nBananas." }, seams: { createProvider: () => provider } });
    harness.activate("a.md");
    runCommand(harness, "ingest-active-note");
    await eventually(() => expect(statusText(harness)).toContain("generating"));
    harness.activate("b.md");
    runCommand(harness, "ingest-active-note");
    // Obsidian loads a plugin through Component.load(); the harness awaited onload() itself.
    harness.registered.loaded__ = true;
    harness.plugin.unload();
    await harness.plugin.ingest?.settled();
    // Not cancelled by the user: no "cancelled" notice, and both stay queued (test/obsidian/ingest-resume.test.ts).
    expect(harness.notices.filter((n) => n.includes("cancelled"))).toEqual([]);
    expect(harness.plugin.ingest?.saved?.pending.map((n) => n.notePath)).toEqual(["a.md", "b.md"]);
    expect(provider.analyzeCalls).toHaveLength(1);
    expect(wikiFiles(harness)).toEqual([]);
  });

  it("runs one ingest at a time: the next waits in the queue, then runs", async () => {
    const provider = holdingProvider((path) => path === "a.md");
    const harness = await loadPlugin({
      files: { "a.md": "# A\n\nApples.", "b.md": "# B\n\nBananas." },
      seams: { createProvider: () => provider },
    });
    harness.activate("a.md");
    runCommand(harness, "ingest-active-note");
    await eventually(() => expect(statusText(harness)).toContain("generating"));
    harness.activate("b.md");
    runCommand(harness, "ingest-active-note");
    expect(statusText(harness)).toContain("1 more");
    // b has not started: a still holds the queue.
    expect(provider.analyzeCalls).toHaveLength(1);

    // Asking again for the running note does not start a second run.
    harness.activate("a.md");
    runCommand(harness, "ingest-active-note");
    expect(harness.notices).toContain('"a" is already being ingested.');

    runCommand(harness, "cancel-ingest");
    await harness.plugin.ingest?.settled();
    expect(provider.analyzeCalls).toHaveLength(2);
    expect(wikiFiles(harness)).toContain("wiki/concepts/Page for b.md");
    expect(harness.notices.some((n) => n.startsWith('Synapse ingested "b"'))).toBe(true);
  });

  it("reports a provider that cannot be built (no API key) in words, without writing", async () => {
    const harness = await loadPlugin({
      files: { "a.md": "# A\n\nApples." },
      data: { version: 1, operations: { ingest: "anthropic" } },
    });
    harness.activate("a.md");
    runCommand(harness, "ingest-active-note");
    await harness.plugin.ingest?.settled();
    expect(harness.notices.some((n) => n.startsWith('Synapse could not ingest "a": No Anthropic API key was found'))).toBe(true);
    expect(wikiFiles(harness)).toEqual([]);
  });

  it("refuses a remote provider in local-only mode before anything is sent", async () => {
    const harness = await loadPlugin({
      files: { "a.md": "# A\n\nApples." },
      data: { version: 1, localOnly: true, operations: { ingest: "anthropic" } },
    });
    harness.app.secretStorage.setSecret("synapse-anthropic-api-key", "sk-ant-test-0123456789");
    harness.activate("a.md");
    runCommand(harness, "ingest-active-note");
    await harness.plugin.ingest?.settled();
    expect(harness.notices.some((n) => n.includes("Local-only mode is on"))).toBe(true);
    expect(wikiFiles(harness)).toEqual([]);
  });

  it("never sends a note from an excluded folder", async () => {
    const provider = holdingProvider(() => false);
    const harness = await loadPlugin({
      files: { "Private/diary.md": "# Diary\n\nSecret thoughts." },
      data: { version: 1, excludedFolders: ["Private"] },
      seams: { createProvider: () => provider },
    });
    harness.activate("Private/diary.md");
    runCommand(harness, "ingest-active-note");
    await harness.plugin.ingest?.settled();
    expect(provider.analyzeCalls).toHaveLength(0);
    expect(harness.notices.some((n) => n.includes("excluded folder"))).toBe(true);
  });

  describe("'Ingest notes in folder…'", () => {
    const files = {
      "Inbox/Bees.md": "# Bees\n\nBees make [[Honey]].",
      "Inbox/Deep/Honey.md": "# Honey\n\nMade by [[Bees]].",
      "Inbox/Private/Diary.md": "# Diary\n\nNot for any model.",
      "Inbox/picture.png": "",
      "wiki/Old page.md": "# Old",
    };

    function folderAt(folders: TFolder[], path: string): TFolder {
      const folder = folders.find((f) => f.path === path);
      if (!folder) throw new Error(`No folder ${path}`);
      return folder;
    }

    async function chooseFolder(harness: Harness, path: string): Promise<void> {
      runCommand(harness, "ingest-folder");
      const modal = harness.opened.at(-1) as unknown as FolderSuggestModal;
      const folders = modal.getItems();
      expect(folders.map((f) => modal.getItemText(f))).toEqual(expect.arrayContaining(["/", "Inbox", "Inbox/Deep", "wiki"]));
      modal.onChooseItem(folderAt(folders, path));
      await harness.plugin.ingest?.settled();
    }

    it("queues every note below the folder except excluded ones and the wiki, then reports once", async () => {
      const provider = holdingProvider(() => false);
      const harness = await loadPlugin({ files, data: { version: 1, excludedFolders: ["Inbox/Private"] }, seams: { createProvider: () => provider } });
      await chooseFolder(harness, "Inbox");
      expect(harness.notices[0]).toBe('Queued 2 notes from "Inbox" (1 skipped: in the wiki folder or an excluded folder).');
      expect(provider.analyzeCalls.map((c) => c.sourceText.split("\n")[0])).toEqual(["# Bees", "# Honey"]);
      expect(harness.notices.at(-1)).toBe('Synapse, folder "Inbox": 2 notes ingested.');
      const links = [...(harness.modals.at(-1) as HTMLElement).querySelectorAll<HTMLAnchorElement>("a.internal-link")].map((a) => a.dataset.href ?? "");
      expect(links).toHaveLength(2);
      for (const link of links) expect(harness.app.vault.getFileByPath(link)).not.toBeNull();
    });

    it("cancel stops the running note and drops the rest of the batch", async () => {
      const provider = holdingProvider(() => true);
      const harness = await loadPlugin({ files, seams: { createProvider: () => provider } });
      runCommand(harness, "ingest-folder");
      const modal = harness.opened.at(-1) as unknown as FolderSuggestModal;
      modal.onChooseItem(folderAt(modal.getItems(), "Inbox"));
      await eventually(() => expect(statusText(harness)).toMatch(/generating · 2 more$/));
      runCommand(harness, "cancel-ingest");
      await harness.plugin.ingest?.settled();
      expect(provider.analyzeCalls).toHaveLength(1);
      expect(harness.notices.at(-1)).toBe('Synapse, folder "Inbox": 0 notes ingested, 1 not, 2 cancelled.');
      expect(wikiFiles(harness)).toEqual(["wiki/Old page.md"]);
    });
  });
});
