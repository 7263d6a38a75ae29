/**
 * Distinguishing marks: the small parts of a title that make it a different subject however alike
 * the rest looks. *World War I* and *World War II*, *Vitamin A* and *Vitamin B*, *Windows 10* and
 * *Windows 11*, *Henry VII* and *Henry VIII*, *Erbium* and *Terbium*, *North Korea* and *South
 * Korea* share almost every character, and a similarity score cannot tell them apart. Two titles
 * whose words differ in such a mark are never the same page by similarity (ingest/find-existing.ts asks
 * nothing about them, of a threshold or of a model). Only an exact title or an alias joins them.
 *
 * The words both titles share (case, accents and a leading article ignored) are set aside; among
 * the words left, these are marks:
 *
 * - a number: digits (`2`, `1990s`, `3.11`, `v2`), a Roman numeral (`II`, `VIII`), an ordinal
 *   (`2nd`, `second`) or a spelled number (`two`); one number is one value however it is written,
 *   so *World War One* and *World War I* are not told apart here (similarity decides);
 * - any word holding a digit (`B12`, `H5N1`, `5G`, `MP3`);
 * - a single letter or grade (`A`, `B+`, `C#`) and a short acronym (`XP`, `ME`, `AB`);
 * - a chemical element's name, a Greek letter, a qualifier that names a different member of a
 *   family (`north`/`south`, `upper`/`lower`, `old`/`new`, `elder`/`younger`, `Jr.`/`Sr.`, `Pro`,
 *   `Max`, `Mini`…);
 * - an opposite prefix on the same stem (`hypo`/`hyper`, `micro`/`macro`, `intra`/`inter`,
 *   `pre`/`post`…) or a negating one (`un-`, `non-`, `anti-`).
 *
 * Wrongly keeping two pages apart leaves a duplicate that lint reports and a merge fixes; wrongly
 * joining them puts two subjects on one page and sends every link to the wrong one. So the rule
 * errs towards "different".
 */
import { boundedMemo } from "../core/bounded-memo";

export type MarkKind = "number" | "code" | "letter" | "element" | "qualifier" | "prefix";

/** Why two titles are different subjects: the kind of mark and the words that differ. */
export interface Distinction {
  readonly kind: MarkKind;
  /** The differing word of the first title, or "" when it has none there. */
  readonly first: string;
  /** The differing word of the second title, or "" when it has none there. */
  readonly second: string;
}

interface Word {
  /** As written (case kept), without surrounding punctuation. */
  readonly text: string;
  /** Lower case, accents removed. */
  readonly key: string;
}

interface Mark {
  readonly kind: MarkKind;
  /** The mark's value: one number however it is spelled, else the word's key. */
  readonly value: string;
  readonly word: string;
}

const ARTICLES = new Set(["the", "a", "an"]);

const SPELLED: Readonly<Record<string, number>> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
  twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90, hundred: 100, thousand: 1000,
  first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10,
  eleventh: 11, twelfth: 12, thirteenth: 13, fourteenth: 14, fifteenth: 15, sixteenth: 16, seventeenth: 17, eighteenth: 18,
  nineteenth: 19, twentieth: 20, thirtieth: 30, hundredth: 100, thousandth: 1000,
};

const GREEK = new Set(["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu", "nu", "xi", "omicron", "pi", "rho", "sigma", "tau", "upsilon", "phi", "chi", "psi", "omega"]);

/** Words that name one member of a family of subjects: a different one is a different subject. */
const QUALIFIERS = new Set([
  "north", "south", "east", "west", "northern", "southern", "eastern", "western", "central", "upper", "lower", "inner", "outer",
  "old", "new", "early", "late", "elder", "younger", "junior", "senior", "jr", "sr", "minor", "major", "greater", "lesser",
  "pro", "max", "mini", "plus", "lite", "ultra", "nano", "male", "female", "men", "women", "left", "right", "pre", "post", "non", "anti",
  "reloaded", "revolutions", "returns", "begins", "rises", "redux", "remake", "reboot", "sequel", "prequel", "origins", "resurrection",
]);

const ELEMENTS = new Set(
  (
    "hydrogen helium lithium beryllium boron carbon nitrogen oxygen fluorine neon sodium magnesium aluminium aluminum silicon " +
    "phosphorus sulfur sulphur chlorine argon potassium calcium scandium titanium vanadium chromium manganese iron cobalt nickel " +
    "copper zinc gallium germanium arsenic selenium bromine krypton rubidium strontium yttrium zirconium niobium molybdenum " +
    "technetium ruthenium rhodium palladium silver cadmium indium tin antimony tellurium iodine xenon caesium cesium barium " +
    "lanthanum cerium praseodymium neodymium promethium samarium europium gadolinium terbium dysprosium holmium erbium thulium " +
    "ytterbium lutetium hafnium tantalum tungsten rhenium osmium iridium platinum gold mercury thallium lead bismuth polonium " +
    "astatine radon francium radium actinium thorium protactinium uranium neptunium plutonium americium curium berkelium " +
    "californium einsteinium fermium mendelevium nobelium lawrencium rutherfordium dubnium seaborgium bohrium hassium meitnerium " +
    "darmstadtium roentgenium copernicium nihonium flerovium moscovium livermorium tennessine oganesson"
  ).split(" "),
);

/** Prefixes that turn a stem into its opposite or a sibling: the same stem under two of them is two subjects. */
// Longest first: the longest prefix a word starts with is the one that counts (stemAfter).
const OPPOSED_PREFIXES = ["hypo", "hyper", "micro", "macro", "intra", "inter", "infra", "ultra", "endo", "exo", "homo", "hetero", "mono", "poly", "pre", "post", "sub", "super", "under", "over", "uni", "multi"].sort((x, y) => y.length - x.length);
/** Prefixes that negate a stem: the stem alone is another subject. */
const NEGATING_PREFIXES = ["un", "non", "anti", "dis", "counter"].sort((x, y) => y.length - x.length);
const MIN_STEM = 3;

const ROMAN = /^(?=[ivxlcdm])m{0,3}(?:cm|cd|d?c{0,3})(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})$/;

function romanValue(roman: string): number {
  const digit: Readonly<Record<string, number>> = { i: 1, v: 5, x: 10, l: 50, c: 100, d: 500, m: 1000 };
  let total = 0;
  for (let i = 0; i < roman.length; i++) {
    const here = digit[roman[i] ?? ""] ?? 0;
    const next = digit[roman[i + 1] ?? ""] ?? 0;
    total += here < next ? -here : here;
  }
  return total;
}

function foldKey(text: string): string {
  return text.normalize("NFD").replace(/\p{M}+/gu, "").toLowerCase();
}

const SPLIT_CACHE_LIMIT = 50_000;

/**
 * The title's words: "U.S.A." is one word, a hyphen or slash separates ("Carbon-14", "HTTP/2"),
 * a dot between digits does not ("3.11"), `+` and `#` stay on the word they end ("C#", "A+").
 * One ingest compares each new title with every page's: the split is made once per title.
 */
export const titleWords = boundedMemo((title): readonly Word[] => Object.freeze(splitTitle(title)), SPLIT_CACHE_LIMIT);

function splitTitle(title: string): Word[] {
  const out: Word[] = [];
  for (const spaced of title.normalize("NFC").split(/\s+/u)) {
    // "Men's" is one word; "O'Brien" too.
    const raw = spaced.replace(/['’]s$/iu, "").replace(/['’]/gu, "");
    const initials = /^(?:\p{L}\.){2,}\p{L}?\.?$/u.test(raw) ? raw.replace(/\./g, "") : raw;
    for (const part of initials.split(/[-‐‑–—/\\_,:;!?()[\]{}"“”*|]+/u)) {
      const text = part.replace(/^\.+/, "").replace(/\.+$/, "").replace(/(\D)\.(?=\D|$)/gu, "$1 ").trim();
      for (const piece of text.split(" ")) if (piece && /[\p{L}\p{N}]/u.test(piece)) out.push({ text: piece, key: foldKey(piece) });
    }
  }
  // A leading article is not part of the subject's name ("The Beatles").
  while (out.length > 1 && ARTICLES.has(out[0]?.key ?? "")) out.shift();
  return out;
}

/** The number a word spells, if it is one. */
function numberOf(word: Word): string | null {
  const { key, text } = word;
  const digits = /^(\d[\d,]*(?:\.\d+)*)(st|nd|rd|th)?$/.exec(key) ?? /^v(\d+(?:\.\d+)*)()$/.exec(key);
  if (digits) return (digits[1] ?? "").replace(/,/g, "").replace(/^0+(?=\d)/, "").replace(/(?:\.0+)+$/, "");
  if (SPELLED[key] !== undefined) return String(SPELLED[key]);
  // Roman only with an i, v or x, as written in capitals ("II", "VIII", "XIV") or as a lower-case
  // word of those letters alone ("part ii"): "Mix" and "Did" are words, "C" and "DC" letters.
  const roman = text === text.toUpperCase() || /^[ivx]+$/.test(text) ? key : "";
  if (/[ivx]/.test(roman) && ROMAN.test(roman)) return String(romanValue(roman));
  return null;
}

/** A word's mark, worked out once per spelling: every title is compared with every page's. */
function markOf(word: Word): Mark | null {
  const known = wordMarks.get(word.text);
  if (known !== undefined) return known;
  const mark = findMark(word);
  if (wordMarks.size >= SPLIT_CACHE_LIMIT) wordMarks.clear();
  wordMarks.set(word.text, mark);
  return mark;
}

const wordMarks = new Map<string, Mark | null>();

function findMark(word: Word): Mark | null {
  const { key, text } = word;
  const number = numberOf(word);
  if (number !== null) return { kind: "number", value: number, word: text };
  if (/\d/.test(key)) return { kind: "code", value: key, word: text };
  if (/^\p{L}[+#−-]*$/u.test(key) || /^\p{L}[+#]+$/u.test(key)) return { kind: "letter", value: key, word: text };
  // Capitals of two to four letters, maybe with a plural "s" ("XP", "AB", "CRDTs").
  const acronym = /^(\p{Lu}{2,4})s?$/u.exec(text);
  if (acronym) return { kind: "letter", value: foldKey(acronym[1] ?? ""), word: text };
  if (ELEMENTS.has(key)) return { kind: "element", value: key, word: text };
  if (GREEK.has(key) || QUALIFIERS.has(key)) return { kind: "qualifier", value: key, word: text };
  return null;
}

/** The words of `a` not in `b`, counted as a multiset of keys (a plural "s" ignored on long words). */
const loose = (key: string) => (key.length > 3 ? key.replace(/(?:es|s)$/u, "") : key);

function leftOver(a: readonly Word[], b: readonly Word[]): Word[] {
  const pool = new Map<string, number>();
  for (const w of b) pool.set(loose(w.key), (pool.get(loose(w.key)) ?? 0) + 1);
  const out: Word[] = [];
  for (const w of a) {
    const n = pool.get(loose(w.key)) ?? 0;
    if (n > 0) pool.set(loose(w.key), n - 1);
    else out.push(w);
  }
  return out;
}

/** `prefixes` longest first. */
function stemAfter(key: string, prefixes: readonly string[]): { prefix: string; stem: string } | null {
  for (const prefix of prefixes) {
    if (key.startsWith(prefix) && key.length - prefix.length >= MIN_STEM) return { prefix, stem: key.slice(prefix.length) };
  }
  return null;
}

interface Stems {
  readonly opposed: { prefix: string; stem: string } | null;
  readonly negated: { prefix: string; stem: string } | null;
}

/** A word's stems after each kind of prefix, worked out once per word. */
const stemsOf = boundedMemo((key): Stems => ({ opposed: stemAfter(key, OPPOSED_PREFIXES), negated: stemAfter(key, NEGATING_PREFIXES) }), SPLIT_CACHE_LIMIT);

/** "Hypothyroidism" / "Hyperthyroidism", "Employment" / "Unemployment". */
function prefixDistinction(x: Word, y: Word): Distinction | null {
  const { opposed: px, negated: nx } = stemsOf(x.key);
  const { opposed: py, negated: ny } = stemsOf(y.key);
  if (px && py && px.stem === py.stem && px.prefix !== py.prefix) return { kind: "prefix", first: x.text, second: y.text };
  if ((nx && nx.stem === y.key) || (ny && ny.stem === x.key)) return { kind: "prefix", first: x.text, second: y.text };
  return null;
}

function sameMarks(a: readonly Mark[], b: readonly Mark[]): boolean {
  const values = (marks: readonly Mark[]) => marks.map((m) => `${m.kind === "code" ? "number" : m.kind}:${m.value}`).sort().join("\n");
  return values(a) === values(b);
}

/**
 * Why two titles name different subjects by their marks, or null when no mark tells them apart
 * (they may still be different subjects; similarity and the confirm step decide that).
 */
export function distinction(first: string, second: string): Distinction | null {
  const a = titleWords(first);
  const b = titleWords(second);
  const onlyA = leftOver(a, b);
  const onlyB = leftOver(b, a);
  if (onlyA.length === 0 && onlyB.length === 0) return null;
  // Only the spacing differs ("Local-firstsoftware"): the same words, however they are joined.
  const joined = (words: readonly Word[]) => {
    const whole = words.map((w) => w.key).join("");
    return [whole.replace(/s$/u, ""), whole.replace(/(?:es|s)$/u, "")];
  };
  const ja = joined(onlyA);
  if (joined(onlyB).some((j) => ja.includes(j))) return null;
  for (const x of onlyA) {
    for (const y of onlyB) {
      const found = prefixDistinction(x, y);
      if (found) return found;
    }
  }
  const marksA = onlyA.flatMap((w) => markOf(w) ?? []);
  const marksB = onlyB.flatMap((w) => markOf(w) ?? []);
  if (sameMarks(marksA, marksB)) return null;
  const valueSet = (marks: readonly Mark[]) => new Set(marks.map((m) => m.value));
  const inB = valueSet(marksB);
  const inA = valueSet(marksA);
  const x = marksA.find((m) => !inB.has(m.value));
  const y = marksB.find((m) => !inA.has(m.value));
  const kind = (x ?? y)?.kind ?? "number";
  return { kind, first: x?.word ?? "", second: y?.word ?? "" };
}

const KIND_WORDS: Readonly<Record<MarkKind, string>> = {
  number: "a number",
  code: "a number or code",
  letter: "a letter",
  element: "a chemical element",
  qualifier: "a qualifier",
  prefix: "a prefix",
};

/** One sentence: `"World War I" and "World War II" differ in a number (I, II).` */
export function describeDistinction(first: string, second: string, found: Distinction): string {
  const words = [found.first, found.second].filter(Boolean).join(", ");
  return `"${first}" and "${second}" differ in ${KIND_WORDS[found.kind]}${words ? ` (${words})` : ""}, so they are different subjects.`;
}
