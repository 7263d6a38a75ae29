/**
 * One normalisation for every comparison of names: paths, titles, folders and tags are compared
 * as NFC and case-folded, because macOS-synced vaults hand us decomposed names (`Cafe\u0301`) and
 * Windows and macOS file systems ignore case. Also the cleaning that keeps invisible characters
 * out of names a person reads.
 */

/** The comparison key of a name: NFC, case-folded (`toLowerCase` is the fold JS offers). */
export function nameKey(text: string): string {
  return text.normalize("NFC").toLowerCase().normalize("NFC");
}

/**
 * Bidirectional controls (U+061C, U+200E–U+200F, U+202A–U+202E, U+2066–U+2069): a right-to-left
 * override can make `evil\u202Eexe.md` read as harmless; they never belong in a title or file name.
 */
const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;
/** Invisible characters that only hide differences: zero-width space, word joiner and the
 * invisible operators (U+2060–U+2064), byte order mark, soft hyphen, Mongolian vowel separator. */
const INVISIBLE = /[\u00AD\u180E\u200B\u2060-\u2064\uFEFF]/g;
/** Every format character (general category Cf), for file names, which must be exactly what they look. */
const FORMAT = /\p{Cf}/gu;
/** Halves of a surrogate pair standing alone cannot be written as UTF-8 at all. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A title as one clean line: NFC, no bidi controls or invisible characters, line breaks and runs of
 * white space folded to one space. Joiners (U+200C, U+200D) stay: Persian, Indic scripts and emoji
 * sequences need them to read right.
 */
export function cleanTitle(title: string): string {
  return title.normalize("NFC").replace(LONE_SURROGATE, "").replace(BIDI, "").replace(INVISIBLE, "").replace(/\s+/g, " ").trim();
}

/** A file name component without any format character (joiners included) or lone surrogate. */
export function withoutFormatCharacters(text: string): string {
  return text.replace(LONE_SURROGATE, "").replace(FORMAT, "");
}
