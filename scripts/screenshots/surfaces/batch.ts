/**
 * Batch ingest in Obsidian: the folder ingest's choice ("Send as a batch" or "Ingest now", with the
 * estimate both ways, computed from the example vault's notes for an Anthropic model), and the
 * notices a batch ends with — results are in, and a collect with notes to retry — and the status bar
 * while a batch is out.
 */
import { estimateIngest } from "../../../src/batch/estimate";
import { actionNotice } from "../../../src/obsidian/ingest-service";
import { BatchStatusBar } from "../../../src/obsidian/status-bar";
import { ConfirmModal } from "../../../src/ui/confirm-modal";
import { batchChoiceQuestion } from "../../../src/ui/confirm-questions";
import { exampleVault, rig } from "../rig";
import type { Surface } from "../surface";

const MODEL = "claude-sonnet-4-6";

export const surfaces: readonly Surface[] = [
  {
    name: "batch-choice",
    frame: "modal",
    render: async () => {
      const r = await rig();
      const texts = Object.values(exampleVault());
      const modal = new ConfirmModal(r.harness.app.asOriginalType__(), batchChoiceQuestion(texts.length, '"Notes"', estimateIngest(texts, MODEL, {}), MODEL), () => undefined);
      modal.onOpen();
      return { title: modal.titleEl.textContent ?? "", content: modal.contentEl };
    },
  },
  {
    name: "notice-batch-results",
    frame: "notice",
    render: () => Promise.resolve({ content: wrap(actionNotice("Batch results are in for 12 notes.", [{ label: "Collect", run: () => undefined }])) }),
  },
  {
    name: "notice-batch-collected",
    frame: "notice",
    render: () =>
      Promise.resolve({
        content: wrap(
          actionNotice('Batch of 12 notes from "Notes": 10 applied, 2 failed. "Retry failed" ingests the failed notes now, interactively, at the usual price.', [
            { label: "Retry failed", run: () => undefined },
          ]),
        ),
      }),
  },
  {
    name: "status-bar-batch",
    frame: "status-bar",
    render: () => {
      const bar = new BatchStatusBar(createDiv());
      bar.show({
        notes: 12,
        lines: ['"Notes" with Anthropic (claude-sonnet-4-6): 12 running; in progress at the provider, 7 of 12 requests done.'],
        ready: 0,
        collecting: false,
      });
      return Promise.resolve({ content: bar.element, tooltip: bar.element.getAttribute("aria-label") ?? "" });
    },
  },
];

function wrap(fragment: DocumentFragment): HTMLElement {
  const el = createDiv();
  el.appendChild(fragment);
  return el;
}
