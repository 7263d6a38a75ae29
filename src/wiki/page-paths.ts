/**
 * Where a page lives. File names must be safe on Windows, macOS and Linux and stay inside the wiki
 * folder whatever the title says, so every title goes through `safeFileName`.
 */
import type { PageType } from "../core/schemas";

export const TYPE_FOLDERS: Readonly<Record<PageType, string>> = {
  entity: "entities",
  concept: "concepts",
  source: "sources",
  synthesis: "syntheses",
  comparison: "comparisons",
};

/** Characters Windows forbids, plus the ones Obsidian gives a meaning in links (# ^ [ ] |). */
// eslint-disable-next-line no-control-regex -- control characters are exactly what must go
const FORBIDDEN = /[\u0000-\u001f\u007f<>:"/\\|?*#^[\]]/g;
const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;
/** Bytes, leaving room for " (2).md" and similar within the 255-byte limit of most file systems. */
const MAX_NAME_BYTES = 120;

function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}

function truncateToBytes(text: string, max: number): string {
  if (utf8Length(text) <= max) return text;
  let out = "";
  for (const char of text) {
    if (utf8Length(out + char) > max) break;
    out += char;
  }
  return out;
}

/** A file name (without `.md`) for a title: no separators, no reserved names, no leading dots. */
export function safeFileName(title: string): string {
  let name = title.normalize("NFC").replace(FORBIDDEN, " ").replace(/\s+/g, " ").trim();
  // Leading dots would hide the file; trailing dots and spaces are stripped by Windows.
  name = name.replace(/^[.\s]+/, "").replace(/[.\s]+$/, "");
  name = truncateToBytes(name, MAX_NAME_BYTES).replace(/[.\s]+$/, "");
  if (!name) return "Untitled";
  if (RESERVED.test(name)) name = `${name}_`;
  return name;
}

/** Normalises a user-given folder: forward slashes, no leading/trailing slash, no `.` or `..` parts. */
export function normaliseFolder(folder: string): string {
  const parts = folder
    .replace(/\\/g, "/")
    .split("/")
    .map((p) => p.trim())
    .filter((p) => p && p !== "." && p !== "..");
  return parts.join("/");
}

/** The wiki folder in force: the setting, normalised, or "wiki" when it is empty. */
export function effectiveWikiFolder(setting: string): string {
  return normaliseFolder(setting) || "wiki";
}

export function isPageType(type: string): type is PageType {
  return Object.prototype.hasOwnProperty.call(TYPE_FOLDERS, type);
}

export function pagePath(wikiFolder: string, type: PageType, title: string): string {
  const folder = normaliseFolder(wikiFolder);
  const name = `${TYPE_FOLDERS[type]}/${safeFileName(title)}.md`;
  return folder ? `${folder}/${name}` : name;
}

/** The basename of a vault path without `.md`. */
export function basenameOf(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1).replace(/\.md$/i, "");
}
