/**
 * The Obsidian composition root: it wires settings, the vault adapter, the transports and the
 * ingest service into commands, a ribbon button, a status-bar item and a settings tab, and does
 * nothing heavy. The provider SDKs, the ingest pipeline and the desktop streaming transport are
 * loaded on first use, so `onload` only registers and returns.
 */
import { Notice, Plugin, type App, type PluginManifest } from "obsidian";
import { registerCommands } from "./obsidian/commands";
import { PluginEnvironment } from "./obsidian/environment";
import { IngestService, providerServices, type ProviderFactory } from "./obsidian/ingest-service";
import { SettingsStore } from "./obsidian/settings-store";
import { StatusBar } from "./obsidian/status-bar";
import { ObsidianVault } from "./obsidian/obsidian-vault";
import { confirmWithModal, undoLastChange } from "./obsidian/undo-service";
import { pluginWriteContext } from "./obsidian/write-context";
import { effectiveWikiFolder } from "./wiki/page-paths";
import { describeRecovery, recoverInterruptedRun } from "./wiki/recover";
import { DEFAULT_SETTINGS, type Operation, type Settings } from "./settings/schema";
import { SynapseSettingTab } from "./ui/settings-tab";

/** The operations this version performs in Obsidian; each gets its provider picker in the settings. */
const OPERATIONS: readonly Operation[] = ["ingest"];

export interface PluginSeams {
  /** Replaces the provider factory, so a test can ingest with a provider of its own. */
  readonly createProvider?: ProviderFactory;
}

export default class SynapsePlugin extends Plugin {
  /** Set by onload; the ingest queue and its reporting. */
  ingest: IngestService | null = null;
  private store: SettingsStore | null = null;
  /** Settles once the start-up recovery of an interrupted run is done (tests wait on it). */
  recovered: Promise<void> = Promise.resolve();

  constructor(
    app: App,
    manifest: PluginManifest,
    private readonly seams: PluginSeams = {},
  ) {
    super(app, manifest);
  }

  override async onload(): Promise<void> {
    const store = await SettingsStore.open({ load: () => this.loadData(), save: (data) => this.saveData(data) });
    this.store = store;
    const environment = new PluginEnvironment(this.app);
    const write = pluginWriteContext(this.app, this.manifest);
    const ingest = new IngestService(this.app, store, environment, this.seams.createProvider, write);
    this.ingest = ingest;
    this.register(() => ingest.dispose());

    registerCommands(this, ingest);
    this.addCommand({
      id: "undo-last-change",
      // "Undo last ingest" first, so the palette finds it by the words people use.
      name: "Undo last ingest or other change",
      callback: () => void undoLastChange(this.app, write, store.settings.wikiFolder, confirmWithModal(this.app)),
    });
    const status = new StatusBar(this.addStatusBarItem());
    this.register(ingest.queue.subscribe((snapshot) => status.show(snapshot)));
    this.registerDomEvent(status.element, "click", () => {
      if (ingest.cancel()) new Notice("Cancelling the running ingest…");
    });

    this.addSettingTab(
      new SynapseSettingTab(this.app, this, {
        store,
        operations: OPERATIONS,
        checkReadiness: async (id) => providerServices.checkReadiness(id, await environment.build(store.settings)),
      }),
    );

    this.app.workspace.onLayoutReady(() => {
      // A run a crash (or a killed CLI) interrupted is rolled back before anything else reads the wiki.
      this.recovered = recoverInterruptedRun(new ObsidianVault(this.app), { ...write, wikiFolder: effectiveWikiFolder(store.settings.wikiFolder) })
        .then((report) => {
          const text = describeRecovery(report);
          if (text) new Notice(text, 15000);
        })
        .catch((error: unknown) => {
          new Notice(`Synapse could not check for an interrupted run: ${error instanceof Error ? error.message : String(error)}`);
        });
      if (store.loadWarnings.length > 0) {
        new Notice(`Synapse reset some settings to their defaults: ${store.loadWarnings.join(" ")}`, 15000);
      }
    });
  }

  /** The settings in force (defaults until onload has read data.json). */
  get currentSettings(): Settings {
    return this.store?.settings ?? DEFAULT_SETTINGS;
  }

  override async onExternalSettingsChange(): Promise<void> {
    await this.store?.reload();
  }
}
