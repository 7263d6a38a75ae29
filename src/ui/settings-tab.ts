/**
 * The plugin's settings tab. Rows are built by the section modules; this class only hands them to
 * Obsidian, imperatively through `display()` (every version) or declaratively through
 * `getSettingDefinitions()` (Obsidian 1.13+, where the rows also show up in the settings search).
 * A backend's section shows only while an operation (or vector search) uses it; choosing another
 * backend shows its section at once.
 */
import { PluginSettingTab, Setting, type App, type Plugin, type SettingDefinitionItem } from "obsidian";
import type { ProviderId, Settings } from "../settings/schema";
import { anthropicSection, openaiSection } from "./settings/api-sections";
import { cliSection } from "./settings/cli-section";
import { ollamaSection } from "./settings/ollama-section";
import { operationsSection } from "./settings/operations-section";
import { privacySection } from "./settings/privacy-section";
import { renderSections, row, toDefinitions, type SettingSection, type SettingsContext } from "./settings/rows";
import { wikiSection } from "./settings/wiki-section";

/** The backends some operation routes to, vector search's included. */
export function backendsInUse(settings: Settings): ReadonlySet<ProviderId> {
  const used = new Set<ProviderId>(Object.values(settings.operations));
  if (settings.embedding.provider !== "none") used.add(settings.embedding.provider);
  return used;
}

const OFFLINE: SettingSection = {
  heading: "Offline",
  rows: [row("Offline provider", "Built in: pages from the note's own title, headings, links and key terms, with no model, key or network.", () => undefined)],
};

/** A section shown while its backend is in use. */
const whenUsed = (id: ProviderId, section: SettingSection): SettingSection => ({ ...section, visible: (s) => backendsInUse(s).has(id) });

export class SynapseSettingTab extends PluginSettingTab {
  /** Whether `display()` drew the tab (before Obsidian 1.13); then a change of backend draws it again. */
  private drawnImperatively = false;

  constructor(
    app: App,
    plugin: Plugin,
    private readonly ctx: Omit<SettingsContext, "app" | "refresh">,
  ) {
    super(app, plugin);
  }

  /** Every section, built fresh: the rows read the settings in force when they render. */
  sections(): SettingSection[] {
    const ctx: SettingsContext = { ...this.ctx, app: this.app, refresh: () => this.refresh() };
    return [
      operationsSection(ctx),
      whenUsed("offline", OFFLINE),
      whenUsed("ollama", ollamaSection(ctx)),
      whenUsed("anthropic", anthropicSection(ctx)),
      whenUsed("openai", openaiSection(ctx)),
      whenUsed("cli", cliSection(ctx)),
      wikiSection(ctx),
      privacySection(ctx),
    ];
  }

  override display(): void {
    this.draw();
  }

  private draw(): void {
    this.drawnImperatively = true;
    const { containerEl } = this;
    containerEl.empty();
    this.renderNotes(containerEl);
    renderSections(containerEl, this.sections(), this.ctx.store.settings);
  }

  override getSettingDefinitions(): SettingDefinitionItem[] {
    const notes = this.notes();
    const noteSection: SettingSection[] = notes.length > 0 ? [{ heading: "Settings file", rows: notes.map((note) => row(note.name, note.desc, () => undefined)) }] : [];
    return toDefinitions([...noteSection, ...this.sections()], () => this.ctx.store.settings);
  }

  private refresh(): void {
    if (this.drawnImperatively) {
      this.draw();
      return;
    }
    // Obsidian 1.13+ rendered the definitions: re-evaluating their `visible` shows and hides the sections.
    const declarative = this as unknown as { refreshDomState?: () => void };
    declarative.refreshDomState?.();
  }

  /** What the user should know about the settings file itself (repairs, a newer version), each under its own name. */
  private notes(): { name: string; desc: string }[] {
    const notes = this.ctx.store.loadWarnings.map((warning) => ({ name: "Reset to its default", desc: warning }));
    if (this.ctx.store.isReadOnly) {
      notes.unshift({ name: "Changes are not saved", desc: "A newer version of the plugin saved these settings, so changes here last only until Obsidian restarts." });
    }
    return notes;
  }

  private renderNotes(containerEl: HTMLElement): void {
    for (const note of this.notes()) new Setting(containerEl).setName(note.name).setDesc(note.desc).setClass("synapse-settings-note");
  }
}
