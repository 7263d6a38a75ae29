/**
 * The settings tab is a list of sections, each a list of rows; a row is a name, one sentence and a
 * function that fills an Obsidian `Setting` with its control. Every row is made by `row()` (the
 * typed builders below are `row()` with one control each), and the same rows feed both ways
 * Obsidian renders a tab: `display()` (every version) and `getSettingDefinitions()` (1.13+, which
 * also makes every row findable in the settings search).
 */
import { Setting, type App, type SettingDefinitionItem } from "obsidian";
import type { SettingsStore, UpdateResult } from "../../obsidian/settings-store";
import type { ReadinessReport } from "../../core/readiness";
import type { Operation, ProviderId, Settings } from "../../settings/schema";
import { parseNumber, type NumberSpec } from "./parse-number";

export { parseNumber, type NumberSpec } from "./parse-number";

export interface SettingRow {
  readonly name: string;
  readonly desc: string;
  readonly build: (setting: Setting) => void;
  /** Shown only while this holds (a row that matters only once another choice is made); always when absent. */
  readonly visible?: (settings: Settings) => boolean;
}

export interface SettingSection {
  readonly heading: string;
  readonly rows: readonly SettingRow[];
  /** Shown only while this holds (a backend's section while some operation uses it); always when absent. */
  readonly visible?: (settings: Settings) => boolean;
}

/** What every section needs: the app, the settings, and the readiness check. */
export interface SettingsContext {
  readonly app: App;
  readonly store: SettingsStore;
  readonly checkReadiness: (id: ProviderId) => Promise<ReadinessReport>;
  /** The operations this version of the plugin performs, each with its own provider. */
  readonly operations: readonly Operation[];
  /** Shows or hides the sections after a change that decides which are in use. */
  readonly refresh: () => void;
}

export function renderSections(containerEl: HTMLElement, sections: readonly SettingSection[], settings: Settings): void {
  for (const section of sections) {
    if (section.visible && !section.visible(settings)) continue;
    new Setting(containerEl).setName(section.heading).setHeading();
    for (const row of section.rows) if (!row.visible || row.visible(settings)) row.build(new Setting(containerEl).setName(row.name).setDesc(row.desc));
  }
}

export function toDefinitions(sections: readonly SettingSection[], settings: () => Settings): SettingDefinitionItem[] {
  return sections.map((section) => ({
    type: "group" as const,
    heading: section.heading,
    ...(section.visible ? { visible: () => section.visible?.(settings()) ?? true } : {}),
    items: section.rows.map((row) => ({
      name: row.name,
      desc: row.desc,
      ...(row.visible ? { visible: () => row.visible?.(settings()) ?? true } : {}),
      render: (setting: Setting) => row.build(setting),
    })),
  }));
}

/** Shows (or clears) a validation problem under a row's description. */
export function showProblem(setting: Setting, problem: string | null): void {
  let el = setting.descEl.querySelector<HTMLElement>(".synapse-setting-problem");
  if (problem === null) {
    el?.remove();
    return;
  }
  el ??= setting.descEl.createDiv({ cls: "synapse-setting-problem" });
  el.setText(problem);
}

/** Saves a change and shows the schema's complaint, if any, on the row. */
export async function save(setting: Setting, store: SettingsStore, change: (draft: Settings) => void): Promise<UpdateResult> {
  const result = await store.update(change);
  showProblem(setting, result.ok ? null : result.problems.join(" "));
  return result;
}

/** The one row shape: a name, one sentence, and the control that fills it. */
export function row(name: string, desc: string, build: (setting: Setting) => void): SettingRow {
  return { name, desc, build };
}

export function textRow(
  ctx: SettingsContext,
  name: string,
  desc: string,
  get: (s: Settings) => string,
  set: (draft: Settings, value: string) => void,
  placeholder = "",
): SettingRow {
  return row(name, desc, (setting) => {
    setting.addText((text) =>
      text
        .setPlaceholder(placeholder)
        .setValue(get(ctx.store.settings))
        .onChange((value) => void save(setting, ctx.store, (draft) => set(draft, value.trim()))),
    );
  });
}

/**
 * A number typed as text, not `type=number`: a browser's number field hands over an empty value
 * for "0,50" and ignores a locale's decimal comma, where parseNumber reads it or says why not.
 */
export function numberRow(
  ctx: SettingsContext,
  name: string,
  desc: string,
  spec: NumberSpec,
  get: (s: Settings) => number,
  set: (draft: Settings, value: number) => void,
): SettingRow {
  return row(name, desc, (setting) => {
    setting.addText((text) => {
      text.inputEl.inputMode = spec.integer ? "numeric" : "decimal";
      text.setValue(String(get(ctx.store.settings))).onChange((raw) => {
        const parsed = parseNumber(raw, spec);
        if (typeof parsed === "string") {
          showProblem(setting, parsed);
          return;
        }
        void save(setting, ctx.store, (draft) => set(draft, parsed));
      });
    });
  });
}

export function toggleRow(
  ctx: SettingsContext,
  name: string,
  desc: string,
  get: (s: Settings) => boolean,
  set: (draft: Settings, value: boolean) => void,
): SettingRow {
  return row(name, desc, (setting) => {
    setting.addToggle((toggle) => toggle.setValue(get(ctx.store.settings)).onChange((value) => void save(setting, ctx.store, (draft) => set(draft, value))));
  });
}

/** A choice from fixed options; `after` runs once a change is saved (to show or hide sections). */
export function dropdownRow<T extends string>(
  ctx: SettingsContext,
  name: string,
  desc: string,
  options: Readonly<Record<T, string>>,
  get: (s: Settings) => T,
  set: (draft: Settings, value: T) => void,
  after?: () => void,
): SettingRow {
  const choices = options as Record<string, string>;
  return row(name, desc, (setting) => {
    setting.addDropdown((dropdown) =>
      dropdown
        .addOptions(choices)
        .setValue(get(ctx.store.settings))
        .onChange(async (value) => {
          if (!(value in choices)) return;
          const result = await save(setting, ctx.store, (draft) => set(draft, value as T));
          if (result.ok) after?.();
        }),
    );
  });
}
