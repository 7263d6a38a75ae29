/**
 * Where a page lives. File names must be safe on Windows, macOS and Linux and stay inside the wiki
 * folder whatever the title says, so every title goes through `safeFileName`.
 */
import type { PageType } from "../core/schemas";
import { withoutFormatCharacters } from "../core/unicode";
import { TYPE_FOLDERS, basenameOf, normaliseFolder } from "../core/wiki-paths";

export { TYPE_FOLDERS, basenameOf, normaliseFolder };

/** Characters Windows forbids, plus the ones Obsidian gives a meaning in links (# ^ [ ] |). */
// eslint-disable-next-line no-control-regex -- control characters are exactly what must go
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f<>:"/\\|?*#^[\]]/g;
/**
 * Windows device names. Windows reads the part before the first dot (trailing spaces ignored), so
 * `NUL.pdf` and `con .txt` are devices too: the mark goes right after the device word.
 */
const RESERVED = /^(con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3]|conin\$|conout\$)(?=\s*(?:\.|$))/i;
/** Bytes, leaving room for ".md" within the 255-byte limit of most file systems, with margin. */
export const MAX_NAME_BYTES = 120;

/** UTF-8 length of one code point (a lone surrogate counts as the 3 bytes of U+FFFD). */
function codePointBytes(char: string): number {
  const cp = char.codePointAt(0) ?? 0;
  return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

function utf8Length(text: string): number {
  let bytes = 0;
  for (const char of text) bytes += codePointBytes(char);
  return bytes;
}

function truncateToBytes(text: string, max: number): string {
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    bytes += codePointBytes(char);
    if (bytes > max) return text.slice(0, end);
    end += char.length;
  }
  return text;
}

/** `name` without what Windows would strip or read as a device: trailing dots and spaces, `NUL.pdf`. */
function finishName(name: string): string {
  return name.replace(/[.\s]+$/, "").replace(RESERVED, "$1_");
}

/**
 * A file name (without `.md`) for a title: no separators, no reserved names, no leading dots, no
 * invisible or bidirectional characters. `suffix` (" (2)", " (concept)") is appended after the
 * title is cut to length, so a long title never loses the suffix that tells two files apart.
 */
export function safeFileName(title: string, suffix = ""): string {
  return fileNamer(title)(suffix);
}

/** `safeFileName` for one title and many suffixes, cleaning the title once. */
export function fileNamer(title: string): (suffix: string) => string {
  let base = withoutFormatCharacters(title.normalize("NFC")).replace(FORBIDDEN, " ").replace(/\s+/g, " ").trim();
  // Leading dots would hide the file; trailing dots and spaces are stripped by Windows.
  base = base.replace(/^[.\s]+/, "").replace(/[.\s]+$/, "");
  return (suffix) => finishName(`${truncateToBytes(base, MAX_NAME_BYTES - utf8Length(suffix)).replace(/[.\s]+$/, "") || "Untitled"}${suffix}`);
}

/** The wiki folder in force: the setting, normalised, or "wiki" when it is empty. */
export function effectiveWikiFolder(setting: string): string {
  return normaliseFolder(setting) || "wiki";
}

export function isPageType(type: string): type is PageType {
  return Object.prototype.hasOwnProperty.call(TYPE_FOLDERS, type);
}

export function pagePath(wikiFolder: string, type: PageType, title: string): string {
  return filePath(wikiFolder, type, safeFileName(title));
}

/** The path of a file name `safeFileName` already made. */
export function filePath(wikiFolder: string, type: PageType, fileName: string): string {
  const folder = normaliseFolder(wikiFolder);
  const name = `${TYPE_FOLDERS[type]}/${fileName}.md`;
  return folder ? `${folder}/${name}` : name;
}

