/**
 * The wiki's language, as the user chose it: "auto" writes each page in its note's language
 * (a bilingual vault gets a bilingual wiki); an ISO 639-1 code writes every page in that language.
 */
import { isIso6391 } from "./iso639";

export const AUTO_LANGUAGE = "auto";

/** Languages offered in the settings' dropdown: [code, name in English, name in the language]. */
export const COMMON_LANGUAGES: readonly (readonly [string, string, string])[] = [
  ["en", "English", "English"],
  ["de", "German", "Deutsch"],
  ["fr", "French", "Français"],
  ["es", "Spanish", "Español"],
  ["it", "Italian", "Italiano"],
  ["pt", "Portuguese", "Português"],
  ["nl", "Dutch", "Nederlands"],
  ["pl", "Polish", "Polski"],
  ["sv", "Swedish", "Svenska"],
  ["da", "Danish", "Dansk"],
  ["no", "Norwegian", "Norsk"],
  ["fi", "Finnish", "Suomi"],
  ["cs", "Czech", "Čeština"],
  ["tr", "Turkish", "Türkçe"],
  ["ru", "Russian", "Русский"],
  ["uk", "Ukrainian", "Українська"],
  ["ar", "Arabic", "العربية"],
  ["fa", "Persian", "فارسی"],
  ["he", "Hebrew", "עברית"],
  ["hi", "Hindi", "हिन्दी"],
  ["th", "Thai", "ไทย"],
  ["vi", "Vietnamese", "Tiếng Việt"],
  ["id", "Indonesian", "Bahasa Indonesia"],
  ["ja", "Japanese", "日本語"],
  ["zh", "Chinese", "中文"],
  ["ko", "Korean", "한국어"],
];

/** True for "auto" and for a lowercase ISO 639-1 code. */
export function isWikiLanguage(value: string): boolean {
  return value === AUTO_LANGUAGE || isIso6391(value);
}

/** The language every page must be written in, or undefined to follow each note. */
export function fixedWikiLanguage(setting: string): string | undefined {
  return setting !== AUTO_LANGUAGE && isIso6391(setting) ? setting : undefined;
}

/** "German (de)" for a language we can name, else just the code: what a model is told to write in. */
export function describeLanguage(code: string): string {
  const known = COMMON_LANGUAGES.find(([c]) => c === code);
  return known ? `${known[1]} ("${code}")` : `the language with ISO 639-1 code "${code}"`;
}
