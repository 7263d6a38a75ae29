/**
 * The plugin's settings tab. Rows are built by the section modules; this class only hands them to
 * Obsidian, imperatively through `display()` (every version) or declaratively through
 * `getSettingDefinitions()` (Obsidian 1.13+, where the rows also show up in the settings search).
 */
import { PluginSettingTab, Setting, type App, type Plugin, type SettingDefinitionItem } from "obsidian";
import { anthropicSection, openaiSection } from "./settings/api-sections";
import { cliSection } from "./settings/cli-section";
import { ollamaSection } from "./settings/ollama-section";
import { operationsSection } from "./settings/operations-section";
import { privacySection } from "./settings/privacy-section";
import { renderSections, toDefinitions, type SettingSection, type SettingsContext } from "./settings/rows";
import { wikiSection } from "./settings/wiki-section";

const OFFLINE: SettingSection = {
  heading: "Offline",
  rows: [
    {
      name: "Offline provider",
      desc: "Built in: no model, no key, no network. It builds pages from the note's own structure (title, headings, links, key terms), so it is a safe default and a way to try the wiki before choosing a model.",
      build: () => undefined,
    },
  ],
};

export class SynapseSettingTab extends PluginSettingTab {
  constructor(
    app: App,
    plugin: Plugin,
    private readonly ctx: Omit<SettingsContext, "app">,
  ) {
    super(app, plugin);
  }

  /** Every section, built fresh: the rows read the settings in force when they render. */
  sections(): SettingSection[] {
    const ctx: SettingsContext = { ...this.ctx, app: this.app };
    return [
      operationsSection(ctx),
      wikiSection(ctx),
      privacySection(ctx),
      ollamaSection(ctx),
      anthropicSection(ctx),
      openaiSection(ctx),
      cliSection(ctx),
      OFFLINE,
    ];
  }

  override display(): void {
    const { containerEl } = this;
    containerEl.empty();
    this.renderNotes(containerEl);
    renderSections(containerEl, this.sections());
  }

  override getSettingDefinitions(): SettingDefinitionItem[] {
    const notes: SettingSection[] = this.notes().length > 0
      ? [{ heading: "", rows: this.notes().map((note) => ({ name: "Attention", desc: note, build: () => undefined })) }]
      : [];
    return toDefinitions([...notes, ...this.sections()]);
  }

  /** What the user should know about the settings file itself (repairs, a newer version). */
  private notes(): string[] {
    const notes = [...this.ctx.store.loadWarnings];
    if (this.ctx.store.isReadOnly) {
      notes.unshift("These settings were saved by a newer version of the plugin; changes here last until Obsidian restarts and are not saved.");
    }
    return notes;
  }

  private renderNotes(containerEl: HTMLElement): void {
    for (const note of this.notes()) new Setting(containerEl).setName("Attention").setDesc(note).setClass("synapse-settings-note");
  }
}
