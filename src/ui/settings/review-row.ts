/** Review before apply: whether the plugin shows an ingest's plan, with its diffs, before writing. */
import type { ReviewMode } from "../../settings/schema";
import { save, type SettingRow, type SettingsContext } from "./rows";

export const REVIEW_LABELS: Record<ReviewMode, string> = {
  always: "Always",
  changes: "When existing pages change",
  never: "Never",
};

export function reviewRow(ctx: SettingsContext): SettingRow {
  return {
    name: "Review before writing",
    desc: "Show every page an ingest would create, update or merge, with its changes, and write only the ones you choose. When existing pages change: new pages alone are written without asking.",
    build: (setting) => {
      setting.addDropdown((dropdown) =>
        dropdown
          .addOptions(REVIEW_LABELS)
          .setValue(ctx.store.settings.reviewMode)
          .onChange((value) => void save(setting, ctx.store, (draft) => (draft.reviewMode = value as ReviewMode))),
      );
    },
  };
}
