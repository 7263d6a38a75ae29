/**
 * Batch ingest's place in Obsidian: the service over the plugin's state folder, its commands (no
 * default hotkeys), the look at the recorded batches (once the wiki is whole at load, then on an
 * interval: the state folder sends no vault events, and a batch ends at the provider, not here),
 * and the choice "Ingest now" or "Send as a batch" before a folder ingest whose backend can batch.
 */
import { Notice, type App, type Plugin, type TFolder } from "obsidian";
import { plural } from "../core/plural";
import type { ProviderEnvironment } from "../providers/environment";
import { ConfirmModal } from "../ui/confirm-modal";
import { batchChoiceQuestion } from "../ui/confirm-questions";
import { modalReviewHook } from "../ui/review-modal";
import type { WriteContext } from "../write/apply";
import { reviewWhenNeeded } from "../wiki/review";
import { BATCH_CHECK_MS, BatchService, batchProviderOf, folderName } from "./batch-service";
import { BatchStatusBar } from "./status-bar";
import type { PluginEnvironment } from "./environment";
import { actionNotice, ingestibleNotes, type IngestService } from "./ingest-service";
import type { SettingsStore } from "./settings-store";

export interface BatchWiring {
  readonly write: WriteContext;
  readonly ingest: IngestService;
  readonly settings: SettingsStore;
  readonly environment: PluginEnvironment;
  /** Test seam: changes the providers' environment (a scripted server's transport, test keys). */
  readonly adjustEnvironment?: (env: ProviderEnvironment) => ProviderEnvironment;
}

export function registerBatches(plugin: Plugin, wiring: BatchWiring): BatchService {
  const { app } = plugin;
  const { settings } = wiring;
  const service = new BatchService({
    write: wiring.write,
    settings: () => settings.settings,
    environment: async (s) => {
      const env = await wiring.environment.build(s);
      return wiring.adjustEnvironment ? wiring.adjustEnvironment(env) : env;
    },
    ingestDeps: () => wiring.ingest.acceptDeps(),
    // As the plugin's own ingests are reviewed: under "Review before writing", in the review window.
    review: (signal) => reviewWhenNeeded(() => settings.settings.reviewMode, modalReviewHook(app, signal)),
    notify: (text, actions, timeoutMs) => new Notice(actions.length > 0 ? actionNotice(text, actions) : text, timeoutMs),
  });
  plugin.addCommand({ id: "collect-batch-results", name: "Collect batch results", callback: () => void service.collect() });
  plugin.addCommand({ id: "show-batch-status", name: "Show batch ingest status", callback: () => void service.status() });
  plugin.registerInterval(window.setInterval(() => void service.check(), BATCH_CHECK_MS));
  plugin.register(() => service.dispose());
  return service;
}

/**
 * The batches in the status bar (after the ingest's and the index's items): shown while one is out,
 * a click collects the results that are in, or asks the provider where the batches stand.
 */
export function showBatchesInStatusBar(plugin: Plugin, service: BatchService): BatchStatusBar {
  const item = new BatchStatusBar(plugin.addStatusBarItem());
  let ready = false;
  plugin.register(
    service.subscribe((snapshot) => {
      ready = snapshot.ready > 0 && !snapshot.collecting;
      item.show(snapshot);
    }),
  );
  plugin.registerDomEvent(item.element, "click", () => void (ready ? service.collect() : service.status()));
  return item;
}

/**
 * "Ingest notes in folder…": when the ingest backend has a batch API, the estimate both ways and
 * the choice first; otherwise (and for "Ingest now") the folder is queued as always.
 */
export async function ingestFolderOrBatch(app: App, ingest: IngestService, batches: BatchService, settings: SettingsStore, folder: TFolder): Promise<void> {
  const { notes } = ingestibleNotes(folder, settings.settings);
  // No batch API, nothing to ask: queued at once, so the ingest is under way (and `settled()` waits for it) when the command returns.
  if (notes.length === 0 || !batchProviderOf(settings.settings)) return ingest.ingestFolder(folder);
  const offer = await batches.estimate(notes);
  if (!offer) return ingest.ingestFolder(folder);
  const path = folder.isRoot() ? "" : folder.path;
  const answer = await ConfirmModal.ask(app, batchChoiceQuestion(notes.length, folderName(path), offer.estimate, offer.model || "no model"));
  if (answer === "alternative") return ingest.ingestFolder(folder);
  if (answer !== "confirm") return;
  new Notice(`Sending ${plural(notes.length, "note")} from ${folderName(path)} as a batch…`);
  await batches.start(path, notes);
}
