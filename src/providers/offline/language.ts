/**
 * Language guess for the Offline provider: tinyld (pure JS, ISO 639-1 codes) on the note's prose.
 * Scripts that name their language outright are decided first, which is both faster and more
 * reliable than n-grams on short notes.
 */
import { detect } from "tinyld";
import { isIso6391 } from "../../core/iso639";

const SCRIPT_LANGUAGES: readonly [RegExp, string][] = [
  [/[\u3040-\u30ff]/u, "ja"],
  [/[\uac00-\ud7af]/u, "ko"],
  [/[\u0e00-\u0e7f]/u, "th"],
  [/[\u1780-\u17ff]/u, "km"],
  [/[\u0980-\u09ff]/u, "bn"],
  [/[\u0590-\u05ff]/u, "he"],
  [/[\u0370-\u03ff]/u, "el"],
];

/** Returns an ISO 639-1 code; `fallback` when the text is too short or ambiguous to tell. */
export function guessLanguage(prose: string, fallback = "en"): string {
  const sample = prose.slice(0, 2000);
  const letters = sample.replace(/[^\p{L}]/gu, "");
  if (letters.length < 12) return fallback;
  for (const [pattern, code] of SCRIPT_LANGUAGES) {
    const hits = sample.match(new RegExp(pattern.source, "gu"))?.length ?? 0;
    if (hits / letters.length > 0.2) return code;
  }
  const guess = detect(sample);
  return guess && isIso6391(guess) ? guess : fallback;
}
