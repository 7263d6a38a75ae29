import { afterEach, describe, expect, it, vi } from "vitest";
import type { Modal } from "obsidian-test-mocks/obsidian";
import { diffLines } from "../../src/ui/review-modal";
import { unifiedDiff } from "../../src/wiki/review";
import { aPage, ScriptedProvider } from "../builders";
import { eventually } from "../helpers/eventually";
import { clickNotice, loadPlugin, runCommand, type Harness } from "./plugin-harness";

afterEach(() => vi.restoreAllMocks());

const NOTE = "notes/Source note.md";
const TEXT = "# Source note\n\nA note about the Example concept.\n";

/** A provider that writes two pages per ingest, with the given bodies. */
function writes(first: string, second: string): ScriptedProvider {
  return new ScriptedProvider([
    [
      aPage().titled("Example concept").withSources(NOTE).withContent(first).build(),
      aPage().titled("Second concept").withSources(NOTE).withContent(second).build(),
    ],
  ]);
}

let current = writes("First words.", "Other words.");

async function load(reviewMode?: string): Promise<Harness> {
  const data = reviewMode ? { version: 1, reviewMode } : undefined;
  return loadPlugin({ files: { [NOTE]: TEXT }, ...(data ? { data } : {}), seams: { createProvider: () => current } });
}

/** Every file of the wiki with its content. */
async function wiki(harness: Harness): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const paths = harness.app.vault.getFiles().map((f) => f.path).filter((p) => p.startsWith("wiki/")).sort();
  for (const path of paths) out[path] = await harness.read(path);
  return out;
}

/** Starts an ingest of the note; resolves with the ingest's completion (not awaited by the caller yet). */
function ingest(harness: Harness, provider: ScriptedProvider): Promise<void> {
  current = provider;
  harness.activate(NOTE);
  runCommand(harness, "ingest-active-note");
  return harness.plugin.ingest?.settled() ?? Promise.resolve();
}

async function editNote(harness: Harness, text: string): Promise<void> {
  const note = harness.app.vault.getFileByPath(NOTE);
  if (!note) throw new Error("no note");
  await harness.app.vault.modify(note, text);
}

/** Waits for the review modal to open and returns it. */
async function reviewModal(harness: Harness, openedBefore: number): Promise<Modal> {
  await eventually(() => expect(harness.opened.length).toBeGreaterThan(openedBefore));
  const modal = harness.opened.at(-1) as Modal;
  expect(modal.contentEl.classList.contains("synapse-review")).toBe(true);
  return modal;
}

function button(modal: Modal, text: string): HTMLButtonElement {
  const found = [...modal.contentEl.querySelectorAll("button")].find((b) => b.textContent === text);
  if (!found) throw new Error(`No button ${text}`);
  return found;
}

/** Clicks the footer's one apply button, which names how many changes it applies. */
function apply(modal: Modal, n: number): void {
  const buttons = [...modal.contentEl.querySelectorAll("button")].filter((b) => b.textContent?.startsWith("Apply"));
  expect(buttons.map((b) => b.textContent)).toEqual([`Apply ${n} change${n === 1 ? "" : "s"}`]);
  buttons[0]?.click();
}

function uncheck(input: HTMLInputElement): void {
  input.checked = false;
  input.dispatchEvent(new Event("change"));
}

function box(modal: Modal, path: string): HTMLInputElement {
  const found = [...modal.contentEl.querySelectorAll<HTMLInputElement>("input[type=checkbox]")].find((b) => b.dataset.path === path);
  if (!found) throw new Error(`No checkbox for ${path}`);
  return found;
}

/** Ingests once (new pages only: no review under the default), then changes the note for a second run. */
async function ingestedOnce(): Promise<{ harness: Harness; before: Record<string, string> }> {
  const harness = await load();
  await ingest(harness, writes("First words.", "Other words."));
  expect(harness.opened.filter((m) => m.contentEl.classList.contains("synapse-review"))).toEqual([]);
  await editNote(harness, `${TEXT}\nA second thought.\n`);
  return { harness, before: await wiki(harness) };
}

describe("review before apply in the plugin", () => {
  it("shows every change with a header (badge, title, counts, path) and its diff, and applies all with one button", async () => {
    const { harness, before } = await ingestedOnce();
    const opened = harness.opened.length;
    const done = ingest(harness, writes("Rewritten words.", "Other words, more of them."));
    const modal = await reviewModal(harness, opened);
    const headers = [...modal.contentEl.querySelectorAll(".synapse-review-header")].map((l) => l.textContent);
    expect(headers).toEqual(["UpdateExample concept+1−1", "UpdateSecond concept+1−1"]);
    expect([...modal.contentEl.querySelectorAll(".synapse-review-path")].map((p) => p.textContent)).toEqual([
      expect.stringMatching(/^wiki\/.*Example concept\.md$/),
      expect.stringMatching(/^wiki\/.*Second concept\.md$/),
    ]);
    // The diff is text in classed lines, never HTML: what was removed and what is added.
    const added = [...modal.contentEl.querySelectorAll(".synapse-diff-line.is-added")].map((l) => l.textContent);
    const removed = [...modal.contentEl.querySelectorAll(".synapse-diff-line.is-removed")].map((l) => l.textContent);
    expect(added).toContain("+Rewritten words.");
    expect(removed).toContain("-First words.");
    expect(modal.contentEl.querySelectorAll(".synapse-diff-line.is-hunk").length).toBeGreaterThan(0);
    // Synapse's own markers, ids and hashes are not the user's content: none shows, not even as a −/+ pair.
    expect(modal.contentEl.textContent).not.toMatch(/%%|synapse_id|synapse_hash|synapse:/);
    // Nothing is written while the user reads.
    expect(await wiki(harness)).toEqual(before);

    apply(modal, 2);
    await done;
    const after = await wiki(harness);
    const pages = Object.keys(after).filter((p) => p.endsWith("concept.md"));
    expect(pages).toHaveLength(2);
    expect(after[pages[0] as string]).toContain("Rewritten words.");
    expect(after[pages[1] as string]).toContain("Other words, more of them.");
    expect(harness.notices.at(-1)).toMatch(/^Synapse ingested "Source note": 2 pages updated\.$/);
  });

  it("unchecking a change makes the one button apply one change fewer, and only the checked ones are written and reports the rest as left out", async () => {
    const { harness, before } = await ingestedOnce();
    const opened = harness.opened.length;
    const done = ingest(harness, writes("Rewritten words.", "Other words, more of them."));
    const modal = await reviewModal(harness, opened);
    const second = Object.keys(before).find((p) => p.endsWith("Second concept.md")) ?? "";
    const first = Object.keys(before).find((p) => p.endsWith("Example concept.md")) ?? "";
    uncheck(box(modal, second));
    apply(modal, 1);
    await done;
    const after = await wiki(harness);
    expect(after[first]).toContain("Rewritten words.");
    expect(after[second]).toBe(before[second]);
    expect(harness.notices.at(-1)).toBe('Synapse ingested "Source note": 1 page updated. 1 change left out at review: ingest the note again to review it.');
    clickNotice(harness, "Show details");
    const result = harness.modals.at(-1) as HTMLElement;
    expect(result.textContent).toContain("Left out at review: not written.");
  });

  it("offers a change left out again at the next ingest of the unchanged note, not 'already up to date'", async () => {
    const { harness, before } = await ingestedOnce();
    const second = Object.keys(before).find((p) => p.endsWith("Second concept.md")) ?? "";
    const opened = harness.opened.length;
    const done = ingest(harness, writes("Rewritten words.", "Other words, more of them."));
    const modal = await reviewModal(harness, opened);
    uncheck(box(modal, second));
    apply(modal, 1);
    await done;

    const again = harness.opened.length;
    const next = ingest(harness, writes("Rewritten words.", "Other words, more of them."));
    const offered = await reviewModal(harness, again);
    expect([...offered.contentEl.querySelectorAll<HTMLInputElement>("input[type=checkbox]")].map((b) => b.dataset.path)).toEqual([second]);
    apply(offered, 1);
    await next;
    expect((await wiki(harness))[second]).toContain("Other words, more of them.");
    expect(harness.notices.at(-1)).toBe('Synapse ingested "Source note": 1 page updated, 1 unchanged.');

    await ingest(harness, writes("Rewritten words.", "Other words, more of them."));
    expect(harness.notices.at(-1)).toMatch(/is already up to date/);
  });

  it("'Cancel' writes nothing at all (not even a log entry), and closing the window is the same", async () => {
    for (const how of ["Cancel", "close"] as const) {
      const { harness, before } = await ingestedOnce();
      const opened = harness.opened.length;
      const done = ingest(harness, writes("Rewritten words.", "Other words, more of them."));
      const modal = await reviewModal(harness, opened);
      if (how === "Cancel") button(modal, "Cancel").click();
      else modal.close();
      await done;
      expect(await wiki(harness)).toEqual(before);
      expect(harness.notices.at(-1)).toBe('Nothing written for "Source note": you applied none of its 2 changes.');
      // Nothing was recorded as ingested: the next ingest asks again instead of saying "up to date".
      const again = harness.opened.length;
      const next = ingest(harness, writes("Rewritten words.", "Other words, more of them."));
      apply(await reviewModal(harness, again), 2);
      await next;
      expect(await wiki(harness)).not.toEqual(before);
    }
  });

  it("cancelling the ingest while the window is open closes it and writes nothing", async () => {
    const { harness, before } = await ingestedOnce();
    const opened = harness.opened.length;
    const done = ingest(harness, writes("Rewritten words.", "Other words, more of them."));
    const modal = await reviewModal(harness, opened);
    expect(runCommand(harness, "cancel-ingest")).toBe(true);
    await done;
    expect(harness.notices.at(-1)).toBe('Ingest of "Source note" cancelled; nothing was written.');
    expect(await wiki(harness)).toEqual(before);
    // The window closed itself (a closed modal is emptied).
    expect(modal.contentEl.childElementCount).toBe(0);
  });

  it("'Always' asks before creating pages too; 'Never' writes updates without asking", async () => {
    const always = await load("always");
    const opened = always.opened.length;
    const done = ingest(always, writes("First words.", "Other words."));
    const modal = await reviewModal(always, opened);
    expect([...modal.contentEl.querySelectorAll(".synapse-review-header")].map((l) => l.textContent)).toEqual(["NewExample concept", "NewSecond concept"]);
    // A new page is shown as its text: no diff lines, no frontmatter.
    expect(modal.contentEl.querySelectorAll(".synapse-diff-line")).toHaveLength(0);
    const pages = [...modal.contentEl.querySelectorAll(".synapse-review-page")].map((p) => p.textContent ?? "");
    expect(pages[0]).toContain("First words.");
    expect(pages.join("\n")).not.toMatch(/^---|type: concept|synapse/m);
    apply(modal, 2);
    await done;
    expect(always.notices.at(-1)).toMatch(/2 pages created/);

    const never = await load("never");
    await ingest(never, writes("First words.", "Other words."));
    await editNote(never, `${TEXT}\nA second thought.\n`);
    await ingest(never, writes("Rewritten words.", "Other words."));
    expect(never.opened.filter((m) => m.contentEl.classList.contains("synapse-review"))).toEqual([]);
    expect(never.notices.at(-1)).toMatch(/1 page updated/);
  });

  it("a change of the setting takes effect at the next ingest, without a restart", async () => {
    const harness = await load("never");
    await harness.plugin.ingest?.settled();
    const store = (harness.plugin as unknown as { store: { update(change: (d: { reviewMode: string }) => void): Promise<unknown> } }).store;
    await store.update((draft) => (draft.reviewMode = "always"));
    const opened = harness.opened.length;
    const done = ingest(harness, writes("First words.", "Other words."));
    button(await reviewModal(harness, opened), "Cancel").click();
    await done;
    expect(Object.keys(await wiki(harness))).toEqual([]);
  });
});

describe("diff lines", () => {
  it("drops the file headers and classes each line by what it does", () => {
    const diff = unifiedDiff("wiki/a.md", "one\ntwo\n", "one\nthree\n");
    expect(diffLines(diff).map((l) => l.kind)).toEqual(["hunk", "context", "removed", "added"]);
    expect(diffLines(unifiedDiff("wiki/a.md", null, "new\n")).map((l) => [l.kind, l.text])).toEqual([
      ["hunk", "@@ -0,0 +1,1 @@"],
      ["added", "+new"],
    ]);
  });

  it("keeps a line that looks like a header inside a hunk as content", () => {
    const diff = unifiedDiff("wiki/a.md", "--- x\n", "+++ y\n");
    expect(diffLines(diff).map((l) => [l.kind, l.text])).toEqual([
      ["hunk", "@@ -1,1 +1,1 @@"],
      ["removed", "---- x"],
      ["added", "++++ y"],
    ]);
  });
});
