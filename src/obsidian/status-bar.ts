/**
 * The status-bar items. The ingest's: hidden while idle; during an ingest a short text with the phase, the detail
 * (note, attempt, tokens) in its tooltip, and a click that asks before cancelling (main.ts).
 * (Mobile has no status bar; the cancel command works there.)
 */
import { setTooltip } from "obsidian";
import { batchStatusText, batchStatusTooltip, NO_BATCHES, type BatchSnapshot } from "./batch-progress";
import type { QueueSnapshot } from "./ingest-queue";
import { statusText, statusTooltip } from "./progress";

export class StatusBar {
  constructor(readonly element: HTMLElement) {
    const el = element;
    el.addClass("synapse-status");
    el.setAttribute("role", "button");
    this.show({ running: null, queued: 0 });
  }

  show(snapshot: QueueSnapshot): void {
    const text = statusText(snapshot.running, snapshot.queued);
    this.element.setText(text);
    this.element.toggleClass("synapse-status-idle", text === "");
    setTooltip(this.element, statusTooltip(snapshot.running, snapshot.queued), { placement: "top" });
  }
}

/**
 * The batch ingests' status-bar item, beside the ingest's and made the same way: hidden while no
 * batch is out, a short text, the detail in its tooltip; a click collects results that are in, or
 * asks the provider for the latest status (batch-commands.ts).
 */
export class BatchStatusBar {
  constructor(readonly element: HTMLElement) {
    element.addClasses(["synapse-status", "synapse-batch-status"]);
    element.setAttribute("role", "button");
    this.show(NO_BATCHES);
  }

  show(snapshot: BatchSnapshot): void {
    const text = batchStatusText(snapshot);
    this.element.setText(text);
    this.element.toggleClass("synapse-status-idle", text === "");
    setTooltip(this.element, batchStatusTooltip(snapshot), { placement: "top" });
  }
}
