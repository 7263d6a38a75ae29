/** Review before apply: whether the plugin shows an ingest's plan, with its diffs, before writing. */
import type { ReviewMode } from "../../settings/schema";
import { dropdownRow, type SettingRow, type SettingsContext } from "./rows";

export const REVIEW_LABELS: Record<ReviewMode, string> = {
  always: "Always",
  changes: "When existing pages change",
  never: "Never",
};

export function reviewRow(ctx: SettingsContext): SettingRow {
  return dropdownRow(
    ctx,
    "Review before writing",
    "Show the pages an ingest would write, with their changes, and write only the ones you choose.",
    REVIEW_LABELS,
    (s) => s.reviewMode,
    (d, v) => (d.reviewMode = v),
  );
}
