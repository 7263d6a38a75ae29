/** What may leave this machine, and what is logged. */
import { save, toggleRow, type SettingRow, type SettingSection, type SettingsContext } from "./rows";

/** One folder per line; blank lines and surrounding slashes dropped, duplicates once. */
export function parseFolderList(text: string): string[] {
  const folders = text
    .split(/\r?\n/)
    .map((line) => line.trim().replace(/\\/g, "/").replace(/^\/+|\/+$/g, ""))
    .filter((line) => line.length > 0);
  return [...new Set(folders)];
}

function excludedFoldersRow(ctx: SettingsContext): SettingRow {
  return {
    name: "Excluded folders",
    desc: "One folder per line whose notes, subfolders included, are never sent to any backend.",
    build: (setting) => {
      setting.addTextArea((area) => {
        area.inputEl.rows = 4;
        area
          .setPlaceholder("Journal\nprivate/health")
          .setValue(ctx.store.settings.excludedFolders.join("\n"))
          .onChange((value) => void save(setting, ctx.store, (draft) => (draft.excludedFolders = parseFolderList(value))));
      });
    },
  };
}

export function privacySection(ctx: SettingsContext): SettingSection {
  return {
    heading: "Privacy",
    rows: [
      toggleRow(
        ctx,
        "Local-only mode",
        "Refuse every backend that would send notes off this machine.",
        (s) => s.localOnly,
        (d, v) => (d.localOnly = v),
      ),
      excludedFoldersRow(ctx),
      toggleRow(
        ctx,
        "Log prompts and replies",
        "Keep what was sent and received, shortened and with keys removed, in the run log of an ingest.",
        (s) => s.logContent,
        (d, v) => (d.logContent = v),
      ),
    ],
  };
}
