/**
 * The settings tab is a list of sections, each a list of rows; a row is a name, a description
 * and a function that fills an Obsidian `Setting` with its controls. The same rows feed both
 * ways Obsidian renders a tab: `display()` (every version) and `getSettingDefinitions()` (1.13+,
 * which also makes every row findable in the settings search).
 */
import { Setting, type App, type SettingDefinitionItem } from "obsidian";
import type { SettingsStore, UpdateResult } from "../../obsidian/settings-store";
import type { ReadinessReport } from "../../core/readiness";
import type { Operation, ProviderId, Settings } from "../../settings/schema";

export interface SettingRow {
  readonly name: string;
  readonly desc: string;
  readonly build: (setting: Setting) => void;
}

export interface SettingSection {
  readonly heading: string;
  readonly rows: readonly SettingRow[];
}

/** What every section needs: the app, the settings, and the readiness check. */
export interface SettingsContext {
  readonly app: App;
  readonly store: SettingsStore;
  readonly checkReadiness: (id: ProviderId) => Promise<ReadinessReport>;
  /** The operations this version of the plugin performs, each with its own provider. */
  readonly operations: readonly Operation[];
}

export function renderSections(containerEl: HTMLElement, sections: readonly SettingSection[]): void {
  for (const section of sections) {
    new Setting(containerEl).setName(section.heading).setHeading();
    for (const row of section.rows) row.build(new Setting(containerEl).setName(row.name).setDesc(row.desc));
  }
}

export function toDefinitions(sections: readonly SettingSection[]): SettingDefinitionItem[] {
  return sections.map((section) => ({
    type: "group" as const,
    heading: section.heading,
    items: section.rows.map((row) => ({ name: row.name, desc: row.desc, render: (setting: Setting) => row.build(setting) })),
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

export function textRow(
  ctx: SettingsContext,
  name: string,
  desc: string,
  get: (s: Settings) => string,
  set: (draft: Settings, value: string) => void,
  placeholder = "",
): SettingRow {
  return {
    name,
    desc,
    build: (setting) => {
      setting.addText((text) =>
        text
          .setPlaceholder(placeholder)
          .setValue(get(ctx.store.settings))
          .onChange((value) => void save(setting, ctx.store, (draft) => set(draft, value.trim()))),
      );
    },
  };
}

export interface NumberSpec {
  readonly min: number;
  readonly max?: number;
  readonly integer: boolean;
}

/** Parses a number the user typed against a range; returns the number or what is wrong with it. */
/** Commas that can only group thousands: "100,000", "1,000.50". */
const THOUSANDS = /^[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;

export function parseNumber(raw: string, spec: NumberSpec): number | string {
  const range = spec.max === undefined ? `${spec.min} or more` : `from ${spec.min} to ${spec.max}`;
  const kind = spec.integer ? "a whole number" : "a number";
  let text = raw.trim().replace(/[\s_]/g, "");
  if (text.includes(",")) {
    // "0,50" is half a dollar to many users and fifty to a comma-stripping parser: a comma is read
    // only where it cannot be a decimal comma (whole numbers, or a point after it), else refused.
    if (!THOUSANDS.test(text) || (!spec.integer && !text.includes("."))) return `Enter ${kind} ${range}, with a point for decimals (0.5), not a comma.`;
    text = text.replace(/,/g, "");
  }
  const value = Number(text);
  if (text === "" || !Number.isFinite(value) || (spec.integer && !Number.isInteger(value))) return `Enter ${kind} ${range}.`;
  if (value < spec.min || (spec.max !== undefined && value > spec.max)) return `Enter ${kind} ${range}.`;
  return value;
}

export function numberRow(
  ctx: SettingsContext,
  name: string,
  desc: string,
  spec: NumberSpec,
  get: (s: Settings) => number,
  set: (draft: Settings, value: number) => void,
): SettingRow {
  return {
    name,
    desc,
    build: (setting) => {
      setting.addText((text) => {
        text.inputEl.type = "number";
        text.inputEl.min = String(spec.min);
        if (spec.max !== undefined) text.inputEl.max = String(spec.max);
        text.setValue(String(get(ctx.store.settings))).onChange((raw) => {
          const parsed = parseNumber(raw, spec);
          if (typeof parsed === "string") {
            showProblem(setting, parsed);
            return;
          }
          void save(setting, ctx.store, (draft) => set(draft, parsed));
        });
      });
    },
  };
}

export function toggleRow(
  ctx: SettingsContext,
  name: string,
  desc: string,
  get: (s: Settings) => boolean,
  set: (draft: Settings, value: boolean) => void,
): SettingRow {
  return {
    name,
    desc,
    build: (setting) => {
      setting.addToggle((toggle) =>
        toggle.setValue(get(ctx.store.settings)).onChange((value) => void save(setting, ctx.store, (draft) => set(draft, value))),
      );
    },
  };
}
