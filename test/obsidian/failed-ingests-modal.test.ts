/** The failed-ingests window: each note with its own Retry / Open note / Dismiss, times in the user's clock. */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { RunContext } from "../../src/core/run-context";
import type { WikiPage } from "../../src/core/schemas";
import { FailedIngestsModal, localTime } from "../../src/ui/failed-ingests-modal";
import { aPage, ScriptedProvider } from "../builders";
import { eventually } from "../helpers/eventually";
import { loadPlugin, runCommand, type Harness } from "./plugin-harness";

afterEach(() => vi.restoreAllMocks());

const QUEUE = ".obsidian/plugins/synapse/state/queue.json";
const FILES = {
  "Inbox/Ants.md": "# Ants\n\nAnts live in colonies.",
  "Inbox/Bees.md": "# Bees\n\nBees make honey.",
};
const FAILED = [
  { notePath: "Inbox/Ants.md", reason: "The model could not be reached.", at: "2026-12-02T04:10:00.000Z" },
  { notePath: "Inbox/Bees.md", reason: "The model could not be reached.", at: "2026-12-02T04:12:00.000Z" },
];

const writesOnePage = (): ScriptedProvider =>
  new ScriptedProvider([
    (run: RunContext): Promise<WikiPage[]> => {
      const source = run.source?.path ?? "";
      const name = source.replace(/\.md$/, "").split("/").pop() ?? "";
      return Promise.resolve([aPage().titled(`About ${name}`).withSources(source).withContent(`From [[${name}]].`).build()]);
    },
  ]);

async function showFailed(): Promise<{ harness: Harness; modal: FailedIngestsModal }> {
  const harness = await loadPlugin({ files: { ...FILES, [QUEUE]: JSON.stringify({ version: 1, pending: [], failed: FAILED }) }, seams: { createProvider: writesOnePage } });
  harness.app.workspace.setLayoutReady__();
  await harness.plugin.resumed;
  expect(harness.plugin.ingest?.failed).toHaveLength(2);
  runCommand(harness, "show-failed-ingests");
  const modal = harness.opened.at(-1);
  if (!(modal instanceof FailedIngestsModal)) throw new Error("The failed ingests window did not open");
  return { harness, modal };
}

/** The buttons of the row that names `notePath`. */
function rowButton(modal: FailedIngestsModal, notePath: string, label: string): HTMLButtonElement {
  const row = [...modal.contentEl.querySelectorAll(".synapse-failed-note")].find((r) => r.textContent?.includes(notePath));
  const button = [...(row?.querySelectorAll("button") ?? [])].find((b) => b.textContent === label);
  if (!button) throw new Error(`No "${label}" beside ${notePath}`);
  return button;
}

describe("the failed ingests window", () => {
  it("offers Retry, Open note and Dismiss beside each note, and Retry all below", async () => {
    const { modal } = await showFailed();
    for (const { notePath } of FAILED) {
      for (const label of ["Retry", "Open note", "Dismiss"]) expect(rowButton(modal, notePath, label)).toBeTruthy();
    }
    expect([...modal.contentEl.querySelectorAll(".modal-button-container button")].map((b) => b.textContent)).toEqual(["Retry all", "Close"]);
  });

  it("names each note as Obsidian names a file, with its path under the name", async () => {
    const { modal } = await showFailed();
    const rows = [...modal.contentEl.querySelectorAll(".synapse-failed-note")];
    // The mocks build a row as settingEl > [controlEl, infoEl > [nameEl, descEl]].
    expect(rows.map((row) => row.children[1]?.children[0]?.textContent)).toEqual(["Ants", "Bees"]);
    expect(rows.map((row) => row.querySelector(".synapse-result-type")?.textContent?.split(" · ")[0])).toEqual(["Inbox/Ants.md", "Inbox/Bees.md"]);
  });

  it("shows when each failed in the user's local time, not as UTC", async () => {
    const { modal } = await showFailed();
    const text = modal.contentEl.textContent ?? "";
    expect(text).not.toContain("UTC");
    expect(text).not.toContain("2026-12-02 04:10");
    expect(text).toContain(`Failed ${new Date(FAILED[0]!.at).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })}`);
  });

  it("shows a broken time stamp as it is", () => {
    expect(localTime("yesterday")).toBe("yesterday");
  });

  it("Dismiss takes one note off the list, on screen and in queue.json", async () => {
    const { harness, modal } = await showFailed();
    rowButton(modal, "Inbox/Ants.md", "Dismiss").click();
    expect(modal.contentEl.textContent).not.toContain("Inbox/Ants.md");
    expect(modal.titleEl.textContent).toBe("Failed ingests (1)");
    await harness.plugin.ingest?.saved?.settled();
    expect(harness.plugin.ingest?.failed.map((f) => f.notePath)).toEqual(["Inbox/Bees.md"]);
    const saved = JSON.parse(await harness.app.vault.adapter.read(QUEUE)) as { failed: { notePath: string }[] };
    expect(saved.failed.map((f) => f.notePath)).toEqual(["Inbox/Bees.md"]);
    expect(await harness.read("Inbox/Ants.md")).toBe(FILES["Inbox/Ants.md"]);
  });

  it("Open note opens that note", async () => {
    const { harness, modal } = await showFailed();
    const open = vi.spyOn(harness.app.workspace, "openLinkText").mockResolvedValue(undefined);
    rowButton(modal, "Inbox/Bees.md", "Open note").click();
    expect(open).toHaveBeenCalledWith("Inbox/Bees.md", "", false);
  });

  it("Retry ingests that note alone and takes it off the list when it works", async () => {
    const { harness, modal } = await showFailed();
    rowButton(modal, "Inbox/Bees.md", "Retry").click();
    await eventually(() => expect(harness.plugin.ingest?.failed.map((f) => f.notePath)).toEqual(["Inbox/Ants.md"]));
    await harness.plugin.ingest?.settled();
    expect(harness.app.vault.getFileByPath("wiki/concepts/About Bees.md")).not.toBeNull();
    expect(harness.app.vault.getFileByPath("wiki/concepts/About Ants.md")).toBeNull();
  });
});
