/** "Check wiki health" over the example vault ingested by the Offline backend: with findings, and with none. */
import { LINT_VIEW_TYPE } from "../../../src/ui/lint-view";
import { ingest, ingestedRig, rig } from "../rig";
import type { Surface } from "../surface";

export const surfaces: readonly Surface[] = [
  {
    name: "lint-findings",
    frame: "tab-view",
    viewType: LINT_VIEW_TYPE,
    render: async () => {
      const r = await ingestedRig();
      // A page whose note is gone, a broken link and a page nothing links to: what a wiki gathers.
      const { harness } = r;
      const clipping = harness.app.vault.getFileByPath("Clippings/Local-first software.md");
      if (clipping) await harness.app.fileManager.trashFile(clipping);
      await harness.app.vault.create("wiki/concepts/Difference engine.md", "---\ntype: concept\ntitle: Difference engine\n---\nBabbage's earlier machine; see [[Charles Babbage]].\n");
      const view = await harness.plugin.openLintView();
      if (!view) throw new Error("No lint view");
      return { title: "Wiki health", content: view.contentEl };
    },
  },
  {
    name: "lint-empty",
    frame: "tab-view",
    viewType: LINT_VIEW_TYPE,
    render: async () => {
      const r = await rig();
      await ingest(r.harness, "Notes/Ada Lovelace.md");
      const view = await r.harness.plugin.openLintView();
      if (!view) throw new Error("No lint view");
      return { title: "Wiki health", content: view.contentEl };
    },
  },
];
