/** Where the wiki lives and how far one ingest may go. */
import { AUTO_LANGUAGE, COMMON_LANGUAGES } from "../../core/wiki-language";
import { FolderInputSuggest } from "../folder-suggest";
import { reviewRow } from "./review-row";
import { dropdownRow, numberRow, save, type SettingRow, type SettingSection, type SettingsContext } from "./rows";

function wikiFolderRow(ctx: SettingsContext): SettingRow {
  return {
    name: "Wiki folder",
    desc: "The folder for the wiki's pages, index.md and log.md; notes in it are never ingested.",
    build: (setting) => {
      setting.addText((text) => {
        const store = (value: string) => void save(setting, ctx.store, (draft) => (draft.wikiFolder = value.trim().replace(/^\/+|\/+$/g, "")));
        text.setValue(ctx.store.settings.wikiFolder).onChange(store);
        new FolderInputSuggest(ctx.app, text.inputEl, store);
      });
    },
  };
}

/** The dropdown's options: follow each note, then the common languages by their own names. */
export function wikiLanguageOptions(current: string): Record<string, string> {
  const options: Record<string, string> = { [AUTO_LANGUAGE]: "Same as each note" };
  for (const [code, , own] of COMMON_LANGUAGES) options[code] = `${own} (${code})`;
  // A code set in data.json or with the CLI's --lang stays selectable even if it is not listed.
  if (!(current in options)) options[current] = current;
  return options;
}

function wikiLanguageRow(ctx: SettingsContext): SettingRow {
  return dropdownRow(
    ctx,
    "Wiki language",
    'The language pages are written in; "Same as each note" gives a German note German pages.',
    wikiLanguageOptions(ctx.store.settings.wikiLanguage),
    (s) => s.wikiLanguage,
    (d, v) => (d.wikiLanguage = v),
  );
}

function userNoteCanonRow(ctx: SettingsContext): SettingRow {
  return {
    name: "Subjects you have a note on",
    desc: "When a new page would cover a subject one of your notes already covers, link to your note instead of writing the page, or write the page with a link to your note.",
    build: (setting) => {
      setting.addDropdown((dropdown) =>
        dropdown
          .addOptions({ link: "Link to my note", page: "Write a page that links to it" })
          .setValue(ctx.store.settings.userNoteCanon)
          .onChange((value) => void save(setting, ctx.store, (draft) => (draft.userNoteCanon = value === "page" ? "page" : "link"))),
      );
    },
  };
}

export function wikiSection(ctx: SettingsContext): SettingSection {
  return {
    heading: "Wiki and limits",
    rows: [
      wikiFolderRow(ctx),
      wikiLanguageRow(ctx),
      userNoteCanonRow(ctx),
      reviewRow(ctx),
      numberRow(
        ctx,
        "Generation attempts",
        "How many times one note's pages may be written again after failing validation.",
        { min: 1, max: 10, integer: true },
        (s) => s.maxIter,
        (d, v) => (d.maxIter = v),
      ),
      numberRow(
        ctx,
        "Token budget",
        "The most tokens, sent and received, one ingest or question may use; 0 means no limit.",
        { min: 0, integer: true },
        (s) => s.tokenBudget,
        (d, v) => (d.tokenBudget = v),
      ),
      numberRow(
        ctx,
        "Request timeout (seconds)",
        "How long the backend may stay silent, before a whole reply or between two streamed tokens.",
        { min: 1, max: 3600, integer: true },
        (s) => s.requestTimeoutSeconds,
        (d, v) => (d.requestTimeoutSeconds = v),
      ),
      numberRow(
        ctx,
        "First token timeout (seconds)",
        "How long a streamed reply's first token may take; a local model on a CPU may need minutes.",
        { min: 1, max: 3600, integer: true },
        (s) => s.firstTokenTimeoutSeconds,
        (d, v) => (d.firstTokenTimeoutSeconds = v),
      ),
      numberRow(
        ctx,
        "Run timeout (seconds)",
        "How long one whole ingest, all attempts included, or one answer may take.",
        { min: 10, max: 86_400, integer: true },
        (s) => s.runTimeoutSeconds,
        (d, v) => (d.runTimeoutSeconds = v),
      ),
      numberRow(
        ctx,
        "Largest note (KB)",
        "A bigger note is refused before anything is sent; split it into smaller notes.",
        { min: 1, max: 10_240, integer: true },
        (s) => Math.round(s.maxNoteBytes / 1024),
        (d, v) => (d.maxNoteBytes = v * 1024),
      ),
    ],
  };
}
