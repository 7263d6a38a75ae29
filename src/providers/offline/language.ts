/**
 * Language guess for the Offline provider. tinyld's light profile (69 KB, pure JS, ISO 639-1)
 * decides most languages; it does not know some that Obsidian's own help is written in, so
 * unambiguous letters and the commonest function words decide those first. The normal profile
 * would know them but weighs 735 KB, half the plugin's size budget.
 */
import { detect } from "tinyld/light";
import { isIso6391 } from "../../core/iso639";

/** Scripts that name their language outright (share of letters above which they decide). */
const SCRIPTS: readonly [RegExp, string][] = [
  [/[\u3040-\u30ff]/gu, "ja"],
  [/[\uac00-\ud7af]/gu, "ko"],
  [/[\u0e00-\u0e7f]/gu, "th"],
  [/[\u1780-\u17ff]/gu, "km"],
  [/[\u0980-\u09ff]/gu, "bn"],
  [/[\u0590-\u05ff]/gu, "he"],
  [/[\u0370-\u03ff]/gu, "el"],
  [/[ơưđạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ]/giu, "vi"],
];

/** Letters that single out one language among its neighbours, when the script is already known. */
function byLetters(text: string, letters: number): string | null {
  const share = (pattern: RegExp) => (text.match(pattern)?.length ?? 0) / letters;
  if (share(/[\u0400-\u04ff]/gu) > 0.3) return share(/[іїєґ]/giu) > 0.005 ? "uk" : null;
  if (share(/[\u0600-\u06ff]/gu) > 0.3) return share(/[پچژگکی]/gu) > 0.01 ? "fa" : "ar";
  if (share(/[čšžťď]/giu) > 0.003) {
    if (share(/[ěřů]/giu) > 0.002) return "cs";
    if (share(/[ľĺŕô]/giu) > 0.001) return "sk";
  }
  return null;
}

/** Function words frequent in one language and rare in the ones tinyld/light mistakes it for. */
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

/** Returns an ISO 639-1 code; `fallback` when the text is too short or ambiguous to tell. */
export function guessLanguage(prose: string, fallback = "en"): string {
  const sample = prose.slice(0, 2000);
  const letters = sample.replace(/[^\p{L}]/gu, "").length;
  if (letters < 12) return fallback;
  for (const [pattern, code] of SCRIPTS) {
    if ((sample.match(pattern)?.length ?? 0) / letters > (code === "vi" ? 0.02 : 0.2)) return code;
  }
  const guess = byLetters(sample, letters) ?? refine(sample, detect(sample));
  return guess && isIso6391(guess) ? guess : fallback;
}
