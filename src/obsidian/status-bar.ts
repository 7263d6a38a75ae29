/**
 * The status-bar item: hidden while idle; during an ingest a short text with the phase, the detail
 * (note, attempt, tokens) in its tooltip, and a click that asks before cancelling (main.ts).
 * (Mobile has no status bar; the cancel command works there.)
 */
import { setTooltip } from "obsidian";
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
