/**
 * In Obsidian: index.md follows the wiki pages the user renames or deletes, and "Retract a deleted
 * source" takes a deleted note's part out of the wiki through the review and one undoable run.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ReviewPlan } from "../../src/wiki/review";
import { GoneSourceSuggestModal } from "../../src/ui/source-suggest";
import { aPage, ScriptedProvider } from "../builders";
import { eventually } from "../helpers/eventually";
import { loadPlugin, runCommand, type Harness } from "./plugin-harness";

afterEach(() => vi.restoreAllMocks());

const A = "notes/A.md";
const B = "notes/B.md";
const SHARED = "wiki/concepts/Shared topic.md";
const ONLY_A = "wiki/concepts/Only A.md";
const INDEX = "wiki/index.md";
const page = (title: string, source: string, content: string) => aPage().titled(title).withSources(source).withContent(content).build();

let current = new ScriptedProvider([[]]);
const reviewed: ReviewPlan[] = [];

async function ingest(harness: Harness, path: string, pages: ReturnType<typeof page>[]): Promise<void> {
  current = new ScriptedProvider([pages]);
  harness.activate(path);
  runCommand(harness, "ingest-active-note");
  await harness.plugin.ingest?.settled();
}

async function twoNotesIngested(): Promise<Harness> {
  const harness = await loadPlugin({
    files: { [A]: "# A\n\nVersion one.", [B]: "# B\n\nB's view." },
    data: { version: 1, reviewMode: "never" },
    seams: {
      createProvider: () => current,
      review: (plan) => {
        reviewed.push(plan);
        return Promise.resolve(plan.changes.map((c) => c.path));
      },
    },
  });
  harness.app.workspace.setLayoutReady__();
  await harness.plugin.resumed;
  await ingest(harness, A, [page("Shared topic", A, "A's claim about the topic."), page("Only A", A, "Something only A said.")]);
  await ingest(harness, B, [page("Shared topic", B, "B's own claim.")]);
  return harness;
}

describe("index.md follows pages renamed or deleted in Obsidian", () => {
  it("points a renamed page's line at its new path, and drops a deleted page's line", async () => {
    const harness = await twoNotesIngested();
    const only = harness.app.vault.getFileByPath(ONLY_A);
    if (!only) throw new Error("no page");
    await harness.app.fileManager.renameFile(only, "wiki/concepts/Only A, renamed.md");
    await eventually(async () => expect(await harness.read(INDEX)).toContain("[[wiki/concepts/Only A, renamed|Only A]]"));
    await harness.plugin.pages?.settled();
    expect(await harness.read(INDEX)).not.toContain("[[wiki/concepts/Only A|");

    const shared = harness.app.vault.getFileByPath(SHARED);
    if (!shared) throw new Error("no page");
    await harness.app.fileManager.trashFile(shared);
    await eventually(async () => expect(await harness.read(INDEX)).not.toContain("Shared topic"));
  });
});

describe("Retract a deleted source", () => {
  it("offers the deleted note, shows the plan for review, takes the note's part out, and undo brings it back", async () => {
    const harness = await twoNotesIngested();
    const sharedBefore = await harness.read(SHARED);
    const note = harness.app.vault.getFileByPath(A);
    if (!note) throw new Error("no note");
    await harness.app.fileManager.trashFile(note);
    reviewed.length = 0;

    runCommand(harness, "retract-deleted-source");
    await eventually(() => expect(harness.opened.some((m) => m instanceof GoneSourceSuggestModal)).toBe(true));
    // The picker as the user meets it: its items, and the choice of one.
    const picker = harness.opened.find((m) => m instanceof GoneSourceSuggestModal) as unknown as { getItems(): string[]; onChooseItem(source: string): void } | undefined;
    expect(picker?.getItems()).toEqual([A]);
    picker?.onChooseItem(A);
    await eventually(() => expect(reviewed.length).toBe(1));
    await harness.plugin.retract?.settled();

    expect(reviewed[0]?.changes.map((c) => `${c.action} ${c.path}`).sort()).toEqual([`removed ${ONLY_A}`, `updated ${SHARED}`]);
    expect(await harness.read(SHARED)).not.toContain("A's claim about the topic.");
    expect(harness.app.vault.getFileByPath(ONLY_A)).toBeNull();
    expect(await harness.read(INDEX)).not.toContain("Only A");
    expect(harness.notices.some((n) => /^Retracted notes\/A\.md from 2 pages\./.test(n))).toBe(true);

    runCommand(harness, "undo-last-change");
    await eventually(async () => expect(await harness.read(SHARED)).toBe(sharedBefore));
    await eventually(() => expect(harness.app.vault.getFileByPath(ONLY_A)).not.toBeNull());
  });
});
