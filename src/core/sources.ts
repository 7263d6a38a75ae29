/**
 * One spelling of a page's source. Models and people cite the same note as `[[notes/n]]`,
 * `[[notes/n|alias]]`, `./notes/n.md`, `/notes/n.md`, `notes\n.md` or in decomposed Unicode; all of
 * them are `notes/n.md`, and lists of sources are deduplicated on that form.
 */
import { nameKey } from "./unicode";

/** Files Obsidian links to with their extension; any other link target is a Markdown note. */
const ATTACHMENT = /\.(?:md|pdf|png|jpe?g|gif|bmp|svg|webp|avif|mp3|wav|m4a|ogg|flac|3gp|webm|mp4|ogv|mov|mkv|canvas|base)$/i;

/**
 * A vault-relative path in one form: NFC, forward slashes, no empty, `.` or `..` segments. A
 * backslash is read as a separator only in a path written with none of "/" (`notes\n.md`, as
 * Windows spells it): in `notes/back\slash.md` it is a character of the name, which Linux and
 * macOS allow.
 */
export function normaliseVaultPath(path: string): string {
  const segments: string[] = [];
  const trimmed = path.normalize("NFC").trim();
  // A backslash that would hide a "..", "." or empty step ("notes/..\Private") is a separator in any
  // case: on Windows the file system reads it as one, and the perimeter must judge the same path.
  const hidesAStep = trimmed.split("/").some((segment) => segment.includes("\\") && segment.split("\\").some((piece) => piece === "" || piece === "." || piece === ".."));
  const slashed = trimmed.includes("/") && !hidesAStep ? trimmed : trimmed.replace(/\\/g, "/");
  for (const segment of slashed.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  return segments.join("/");
}

/** The vault path a cited source names: no link brackets, alias or heading, forward slashes, `.md`. */
export function canonicalSource(source: string): string {
  let path = source.normalize("NFC").trim();
  const link = /^!?\[\[([^\]]*)\]\]$/.exec(path);
  if (link) path = (link[1] ?? "").replace(/\|.*$/, "").replace(/#.*$/, "").trim();
  path = normaliseVaultPath(path);
  if (link && path && !ATTACHMENT.test(path)) path = `${path}.md`;
  return path;
}

/** The key two citations share exactly when they name the same file. */
export function sourceKey(source: string): string {
  return nameKey(canonicalSource(source));
}

/** `first` then the sources of `second` not already there; empty entries dropped, first spelling kept. */
export function mergeSources(first: readonly string[], second: readonly string[] = []): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const source of [...first, ...second]) {
    const key = sourceKey(source);
    if (!key || seen.has(key)) continue;
    seen.add(key);
    out.push(source.trim());
  }
  return out;
}
