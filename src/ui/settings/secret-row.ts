/** A secret picked from Obsidian's secret storage; the settings keep only its name. */
import { SecretComponent } from "obsidian";
import type { Settings } from "../../settings/schema";
import { save, type SettingRow, type SettingsContext } from "./rows";

export function secretRow(
  ctx: SettingsContext,
  name: string,
  desc: string,
  get: (s: Settings) => string,
  set: (draft: Settings, secretName: string) => void,
): SettingRow {
  return {
    name,
    desc,
    build: (setting) => {
      setting.addComponent((el) =>
        new SecretComponent(ctx.app, el)
          .setValue(get(ctx.store.settings))
          .onChange((secretName) => void save(setting, ctx.store, (draft) => set(draft, secretName.trim()))),
      );
    },
  };
}
