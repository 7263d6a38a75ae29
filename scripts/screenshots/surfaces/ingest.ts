/**
 * What an ingest ends with, over the example vault and the Offline backend: the notice of a
 * single-note ingest, the result window, a failed ingest's notice and the failed-ingests window
 * (a real run against an Ollama server that is not there), and the status bar mid-run.
 */
import { TFile } from "obsidian-test-mocks/obsidian";
import { applyProgress, startProgress } from "../../../src/obsidian/progress";
import { StatusBar } from "../../../src/obsidian/status-bar";
import { exampleVault, ingest, lastModal, rig } from "../rig";
import { clickNotice, type Harness } from "../../../test/obsidian/plugin-harness";
import type { Rendered, Surface } from "../surface";

const NOTE = "Notes/Ada Lovelace.md";
const OLLAMA_DOWN = { version: 1, operations: { ingest: "ollama" }, profiles: { ollama: { host: "http://127.0.0.1:9", model: "llama3.2" } } };

async function single(): Promise<{ notice: HTMLElement; result: Rendered | null }> {
  const r = await rig();
  await ingest(r.harness, NOTE);
  const notice = r.notices.at(-1);
  if (!notice) throw new Error("No notice");
  const result = r.harness.opened.find((m) => m.contentEl.classList.contains("synapse-result"));
  return { notice, result: result ? { title: result.titleEl.textContent ?? "", content: result.contentEl } : null };
}

async function failed(): Promise<{ notice: HTMLElement; harness: Harness }> {
  const r = await rig({ data: OLLAMA_DOWN });
  for (const path of Object.keys(exampleVault()).sort()) await ingest(r.harness, path);
  const notice = r.notices.at(-1);
  if (!notice) throw new Error("No notice");
  return { notice, harness: r.harness };
}

export const surfaces: readonly Surface[] = [
  { name: "notice-ingested", frame: "notice", render: async () => ({ content: (await single()).notice }) },
  {
    name: "result",
    frame: "modal",
    render: async () => {
      const r = await rig();
      for (const path of Object.keys(exampleVault()).sort()) await ingest(r.harness, path);
      const vaultFile = r.harness.app.vault.getFileByPath(NOTE);
      if (!(vaultFile instanceof TFile)) throw new Error(`No ${NOTE}`);
      await r.harness.app.vault.modify(vaultFile, `${await r.harness.read(NOTE)}\n## Rediscovery\n\nHer notes were republished in 1953.\n`);
      await ingest(r.harness, NOTE);
      clickNotice(r.harness, "Show details");
      const modal = lastModal(r.harness, "synapse-result");
      return { title: modal.titleEl.textContent ?? "", content: modal.contentEl };
    },
  },
  { name: "notice-failed", frame: "notice", render: async () => ({ content: (await failed()).notice }) },
  {
    name: "failed-ingests",
    frame: "modal",
    render: async () => {
      const { harness } = await failed();
      harness.plugin.ingest?.showFailed();
      const modal = lastModal(harness, "synapse-failed-ingests");
      return { title: modal.titleEl.textContent ?? "", content: modal.contentEl };
    },
  },
  {
    name: "status-bar",
    frame: "status-bar",
    render: () => {
      let progress = startProgress("Notes/Zettelkasten method.md");
      progress = applyProgress(progress, { type: "phase", phase: "generating", attempt: 2, maxAttempts: 3 });
      progress = applyProgress(progress, { type: "usage", inputTokens: 3120, outputTokens: 1044 });
      progress = applyProgress(progress, { type: "retry", attempt: 2, delayMs: 4000, reason: "rate_limit" });
      const bar = new StatusBar(createDiv());
      bar.show({ running: progress, queued: 2 });
      return Promise.resolve({ content: bar.element, tooltip: bar.element.getAttribute("aria-label") ?? "" });
    },
  },
];
