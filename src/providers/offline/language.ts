/**
 * Language guess for the Offline provider. Most of the world's scripts name their language (or its
 * family) outright, so the script decides first — that works for a note of three words, where a
 * statistical guess has nothing to go on. Latin-script text goes to tinyld's light profile (69 KB,
 * pure JS, ISO 639-1); it knows only 24 languages, so unambiguous letters and the commonest
 * function words decide the ones Obsidian's own help is written in that it lacks. The normal
 * profile would know them but weighs 735 KB, half the plugin's size budget.
 */
import { detect } from "tinyld/light";
import { isIso6391 } from "../../core/iso639";
import { splitFrontmatter } from "../../core/markdown";
import { plainText } from "../../core/plain-text";

/** Scripts used by one language (or written in one language's form by default). */
const SCRIPTS: readonly [RegExp, string][] = [
  [/[\u0e00-\u0e7f]/gu, "th"],
  [/[\u1780-\u17ff\u19e0-\u19ff]/gu, "km"],
  [/[\u0e80-\u0eff]/gu, "lo"],
  [/[\u1000-\u109f]/gu, "my"],
  [/[\u0900-\u097f]/gu, "hi"],
  [/[\u0980-\u09ff]/gu, "bn"],
  [/[\u0a00-\u0a7f]/gu, "pa"],
  [/[\u0a80-\u0aff]/gu, "gu"],
  [/[\u0b00-\u0b7f]/gu, "or"],
  [/[\u0b80-\u0bff]/gu, "ta"],
  [/[\u0c00-\u0c7f]/gu, "te"],
  [/[\u0c80-\u0cff]/gu, "kn"],
  [/[\u0d00-\u0d7f]/gu, "ml"],
  [/[\u0d80-\u0dff]/gu, "si"],
  [/[\u0f00-\u0fff]/gu, "bo"],
  [/[\u0590-\u05ff\ufb1d-\ufb4f]/gu, "he"],
  [/[\u0370-\u03ff\u1f00-\u1fff]/gu, "el"],
  [/[\u10a0-\u10ff\u1c90-\u1cbf]/gu, "ka"],
  [/[\u0530-\u058f]/gu, "hy"],
  [/[\u1200-\u139f]/gu, "am"],
];

const HANGUL = /[\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]/gu;
const KANA = /[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f]/gu;
const HAN = /\p{Script=Han}/gu;
const CYRILLIC = /[\u0400-\u04ff\u0500-\u052f]/gu;
const ARABIC = /[\u0600-\u06ff\u0750-\u077f\ufb50-\ufdff\ufe70-\ufefc]/gu;
const VIETNAMESE = /[ơưđạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ]/giu;

/** Above this share of the letters a non-Latin script decides: notes mix in Latin names and terms. */
const SCRIPT_SHARE = 0.2;
/** One CJK character carries about a word, so a smaller share of them already makes the text theirs. */
const CJK_SHARE = 0.1;
/** Below this many letters a Latin-script text is too short for a statistical guess. */
const MIN_LETTERS = 12;

function count(text: string, pattern: RegExp): number {
  return text.match(pattern)?.length ?? 0;
}

/** The language a Cyrillic text is in, from the letters only one of them uses. */
function cyrillicLanguage(text: string, letters: number): string {
  const share = (pattern: RegExp) => count(text, pattern) / letters;
  // Belarusian and Kazakh write і too, so their own letters are asked first.
  if (share(/[ў]/giu) > 0.002) return "be";
  if (share(/[әғқңұһ]/giu) > 0.005) return "kk";
  if (share(/[ђћ]/giu) > 0.002) return "sr";
  if (share(/[ѓќѕ]/giu) > 0.002) return "mk";
  if (share(/[іїєґ]/giu) > 0.005) return "uk";
  // Bulgarian has no ы or э and writes "това", "които", "са", "ще" where Russian never does.
  const words = text.toLowerCase().split(/[^\p{L}]+/u).filter(Boolean);
  if (words.length >= 8 && share(/[ыэ]/giu) === 0 && words.filter((w) => BULGARIAN.has(w)).length / words.length > 0.03) return "bg";
  // tinyld's light profile knows only Russian among the Cyrillic languages: it has nothing to add.
  return "ru";
}

/** The language an Arabic-script text is in: Urdu and Persian add letters Arabic does not have. */
function arabicLanguage(text: string, letters: number): string {
  const share = (pattern: RegExp) => count(text, pattern) / letters;
  if (share(/[ٹڈڑںھےۓ]/gu) > 0.01) return "ur";
  if (share(/[پچژگکی]/gu) > 0.01) return "fa";
  return "ar";
}

/** The language the text's dominant non-Latin script names, or null for Latin (or no) script. */
function byScript(text: string, letters: number): string | null {
  const hangul = count(text, HANGUL);
  const kana = count(text, KANA);
  const han = count(text, HAN);
  if (hangul / letters > CJK_SHARE && hangul >= kana) return "ko";
  if ((han + kana) / letters > CJK_SHARE) {
    // Japanese mixes kana into almost every sentence; Chinese never uses it.
    return kana > 0 && kana / (han + kana) > 0.02 ? "ja" : "zh";
  }
  let best: [number, string] | null = null;
  for (const [pattern, code] of SCRIPTS) {
    const found = count(text, pattern);
    if (found > (best?.[0] ?? 0)) best = [found, code];
  }
  const cyrillic = count(text, CYRILLIC);
  const arabic = count(text, ARABIC);
  if (cyrillic > (best?.[0] ?? 0) && cyrillic > arabic) return cyrillic / letters > SCRIPT_SHARE ? cyrillicLanguage(text, letters) : null;
  if (arabic > (best?.[0] ?? 0)) return arabic / letters > SCRIPT_SHARE ? arabicLanguage(text, letters) : null;
  return best && best[0] / letters > SCRIPT_SHARE ? best[1] : null;
}

/** Letters that single out one Latin-script language among its neighbours. */
function byLetters(text: string, letters: number): string | null {
  const share = (pattern: RegExp) => count(text, pattern) / letters;
  if (share(VIETNAMESE) > 0.02) return "vi";
  if (share(/[čšžťď]/giu) > 0.003) {
    if (share(/[ěřů]/giu) > 0.002) return "cs";
    if (share(/[ľĺŕô]/giu) > 0.001) return "sk";
  }
  return null;
}

/** Function words frequent in one language and rare in the ones tinyld/light mistakes it for. */
const BULGARIAN = new Set("това които като са ще със във някои някой тази този".split(" "));
const INDONESIAN = new Set("yang dan untuk dengan dalam tidak ini itu adalah anda dapat pada atau akan bisa juga".split(" "));
const CATALAN = new Set(
  "amb els dels pels pel també més què aquest aquesta aquests aquestes perquè podeu heu seva però cal aquí mitjançant utilitzeu seleccioneu feu obriu".split(" "),
);
const DANISH = new Set("af hvad nogle mig dig bliver meget nu mellem vælg vælge åbn åbne hjælp indstillinger sådan".split(" "));
const NORWEGIAN = new Set("av hva noen meg deg blir mye nå mellom velg velge åpn åpne hjelp innstillinger slik".split(" "));

/** Corrects tinyld/light's guess where it is known to confuse a language it does not know. */
function refine(text: string, guess: string): string {
  const words = text.toLowerCase().split(/[^\p{L}']+/u).filter(Boolean);
  if (words.length < 20) return guess;
  const share = (set: ReadonlySet<string>) => words.filter((w) => set.has(w)).length / words.length;
  if (share(INDONESIAN) > 0.06) return "id";
  if (["it", "pt", "fr", "es", "tr"].includes(guess) && (share(CATALAN) > 0.015 || /l·l/u.test(text))) return "ca";
  if (guess === "no" && share(DANISH) > share(NORWEGIAN)) return "da";
  return guess;
}

/** What a language guess should read: prose, without frontmatter, code, URLs, links' targets or markup. */
function proseOf(markdown: string): string {
  return plainText(splitFrontmatter(markdown).body)
    .replace(/\b(?:www\.|[\w.+-]+@)[\w.-]+\.\w+\S*/gu, " ")
    .slice(0, 2000);
}

/**
 * Returns an ISO 639-1 code; `fallback` when the text is too short or ambiguous to tell. Accepts a
 * whole note: frontmatter and code are set aside first, so a note of Python comments with one
 * Japanese sentence is Japanese.
 */
export function guessLanguage(markdown: string, fallback = "en"): string {
  const sample = proseOf(markdown);
  const letters = count(sample, /\p{L}/gu);
  if (letters === 0) return fallback;
  const script = byScript(sample, letters);
  if (script) return script;
  if (letters < MIN_LETTERS) return fallback;
  // Acronyms (CSV, CSS, API) say nothing about the language, and "CS" reads as Hungarian to tinyld.
  const words = sample.replace(/(?<!\p{L})\p{Lu}{2,}(?!\p{L})/gu, " ");
  const guess = byLetters(sample, letters) ?? refine(words, detect(words));
  return guess && isIso6391(guess) ? guess : fallback;
}
