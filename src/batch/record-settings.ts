/**
 * The settings a later step of a batch runs with: the vault's, with the record's provider, model
 * and submission choices put back, so a collect builds its requests (and counts its attempts) as
 * the submission did, whatever the settings say now. The plugin's counterpart of the CLI's flags.
 */
import { isWikiLanguage } from "../core/wiki-language";
import type { Settings } from "../settings/schema";
import type { BatchRecord } from "./record";

export function recordSettings(settings: Settings, record: BatchRecord): Settings {
  const next: Settings = structuredClone(settings);
  next.operations.ingest = record.provider;
  const { baseUrl, maxIter, lang } = record.flags;
  if (record.provider === "anthropic") {
    next.profiles.anthropic.model = record.model;
    if (baseUrl) next.profiles.anthropic.baseUrl = baseUrl;
  } else {
    next.profiles.openai.model = record.model;
    if (baseUrl) {
      next.profiles.openai.baseUrl = baseUrl;
      next.profiles.openai.preset = "custom";
    }
  }
  const attempts = Number(maxIter);
  if (maxIter !== null && Number.isInteger(attempts) && attempts >= 1 && attempts <= 10) next.maxIter = attempts;
  if (lang !== null && isWikiLanguage(lang)) next.wikiLanguage = lang;
  return next;
}
