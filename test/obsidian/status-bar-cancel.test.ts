import { afterEach, describe, expect, it, vi } from "vitest";
import { loadPlugin, type Harness } from "./plugin-harness";
import { startProgress } from "../../src/obsidian/progress";
import { ConfirmModal } from "../../src/ui/confirm-modal";

/** A running ingest as the status bar sees it, and a cancel that only records that it was asked. */
function running(harness: Harness, queued: number) {
  const ingest = harness.plugin.ingest!;
  vi.spyOn(ingest.queue, "snapshot").mockReturnValue({ running: startProgress("Notes/Bees and honey.md"), queued });
  return vi.spyOn(ingest, "cancel").mockReturnValue(true);
}

function statusItem(harness: Harness): HTMLElement {
  return harness.registered.statusBarItems__[0] as HTMLElement;
}

function confirmModal(harness: Harness): ConfirmModal {
  const modal = harness.opened.at(-1);
  if (!(modal instanceof ConfirmModal)) throw new Error("No confirmation was asked");
  return modal;
}

function button(modal: ConfirmModal, label: string): HTMLButtonElement {
  const found = [...modal.contentEl.querySelectorAll("button")].find((b) => b.textContent === label);
  if (!found) throw new Error(`No button "${label}"`);
  return found;
}

describe("clicking the status bar", () => {
  afterEach(() => vi.restoreAllMocks());

  it("asks before cancelling, and cancels only when the user says so", async () => {
    const harness = await loadPlugin();
    const cancel = running(harness, 2);
    statusItem(harness).click();
    expect(cancel).not.toHaveBeenCalled();
    const modal = confirmModal(harness);
    expect(modal.contentEl.textContent).toContain('"Bees and honey"');
    expect(modal.contentEl.textContent).toContain("2 notes waiting");
    button(modal, "Cancel ingest").click();
    expect(cancel).toHaveBeenCalledTimes(1);
    expect(harness.notices.at(-1)).toBe("Cancelling the ingest…");
  });

  it("lets the ingest run on when the user keeps going or closes the window", async () => {
    const harness = await loadPlugin();
    const cancel = running(harness, 0);
    statusItem(harness).click();
    button(confirmModal(harness), "Keep going").click();
    statusItem(harness).click();
    confirmModal(harness).close();
    expect(cancel).not.toHaveBeenCalled();
  });

  it("does nothing while no ingest runs", async () => {
    const harness = await loadPlugin();
    const before = harness.opened.length;
    statusItem(harness).click();
    expect(harness.opened).toHaveLength(before);
  });
});
