/**
 * Every question Synapse asks before losing something goes through the one confirm modal: the
 * undo that would discard edits, the status bar's cancel, and clearing Ask's conversation. Each
 * names what it touches, offers "keep" and a warning button named for the action, and closing
 * the window answers no.
 */
import { WorkspaceLeaf } from "obsidian-test-mocks/obsidian";
import { afterEach, describe, expect, it, vi } from "vitest";
import { startProgress } from "../../src/obsidian/progress";
import { confirmWithModal } from "../../src/obsidian/undo-service";
import { ConfirmModal } from "../../src/ui/confirm-modal";
import { QueryView, type QueryController } from "../../src/ui/query-view";
import { loadPlugin, type Harness } from "./plugin-harness";

afterEach(() => vi.restoreAllMocks());

/** The last modal opened, which must be the one confirm modal. */
function asked(harness: Harness): ConfirmModal {
  const modal = harness.opened.at(-1);
  if (!(modal instanceof ConfirmModal)) throw new Error(`The question was asked by ${modal?.constructor.name ?? "no modal"}, not the confirm modal`);
  return modal;
}

function buttons(modal: ConfirmModal): { text: string; warning: boolean }[] {
  return [...modal.contentEl.querySelectorAll(".modal-button-container button")].map((b) => ({ text: b.textContent ?? "", warning: b.classList.contains("mod-warning") }));
}

describe("the one confirm modal", () => {
  it("asks before an undo discards edits, listing the files, and closing it keeps them", async () => {
    const harness = await loadPlugin();
    const answer = confirmWithModal(harness.app.asOriginalType__())("the ingest of “Ada”", ["wiki/entities/Ada Lovelace.md"]);
    const modal = asked(harness);
    expect([...modal.contentEl.querySelectorAll("li")].map((li) => li.textContent)).toEqual(["wiki/entities/Ada Lovelace.md"]);
    expect(buttons(modal)).toEqual([
      { text: "Undo anyway", warning: true },
      { text: "Keep everything", warning: false },
    ]);
    modal.close();
    await expect(answer).resolves.toBe(false);
  });

  it("asks before the status bar's click cancels the running ingest", async () => {
    const harness = await loadPlugin();
    const ingest = harness.plugin.ingest;
    if (!ingest) throw new Error("No ingest service");
    vi.spyOn(ingest.queue, "snapshot").mockReturnValue({ running: startProgress("Notes/Bees and honey.md"), queued: 1 });
    const cancel = vi.spyOn(ingest, "cancel").mockReturnValue(true);
    (harness.registered.statusBarItems__[0] as HTMLElement).click();
    const modal = asked(harness);
    expect(modal.contentEl.textContent).toContain("The note waiting after it will not be ingested.");
    expect(buttons(modal).map((b) => b.text)).toEqual(["Cancel ingest", "Keep going"]);
    [...modal.contentEl.querySelectorAll("button")].find((b) => b.textContent === "Cancel ingest")?.click();
    expect(cancel).toHaveBeenCalledTimes(1);
  });

  it("asks before Ask's conversation is cleared", async () => {
    const harness = await loadPlugin();
    const clear = vi.fn(() => Promise.resolve());
    const controller: QueryController = {
      ask: () => Promise.reject(new Error("not asked")),
      save: () => Promise.resolve(null),
      history: () => Promise.resolve([{ question: "Who was Ada?", answer: "A mathematician.", at: "2026-01-01T00:00:00Z", citations: [] }]),
      clear,
      open: () => undefined,
    };
    const view = new QueryView(WorkspaceLeaf.create2__(harness.app).asOriginalType3__(), controller);
    await view.onOpen();
    [...view.contentEl.querySelectorAll("button")].find((b) => b.textContent === "Clear conversation")?.click();
    const modal = asked(harness);
    expect(buttons(modal)).toEqual([
      { text: "Clear", warning: true },
      { text: "Keep", warning: false },
    ]);
    modal.close();
    expect(clear).not.toHaveBeenCalled();
  });
});
