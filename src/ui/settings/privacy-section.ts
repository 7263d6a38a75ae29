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
    desc: "Notes in these folders (one per line, with their subfolders) are never sent to any backend, local or not.",
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
        "Refuse every backend that would send notes off this machine: only the offline provider and servers on this computer are used.",
        (s) => s.localOnly,
        (d, v) => (d.localOnly = v),
      ),
      excludedFoldersRow(ctx),
      toggleRow(
        ctx,
        "Log prompts and replies",
        "Keep what was sent to and received from the backend (shortened, with keys removed) in the run log shown after an ingest. Off: the log holds only counts and timings.",
        (s) => s.logContent,
        (d, v) => (d.logContent = v),
      ),
    ],
  };
}
