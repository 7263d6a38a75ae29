/**
 * Which existing file is a given page. Two different titles can share a file name (`../../x` and
 * `...x` both become `x`), so a file name alone does not say whose page a file is: the title it
 * records does. Keep this the one place that decides identity.
 */
import { splitFrontmatter } from "../core/markdown";
import { cleanTitle, nameKey } from "../core/unicode";
import { basenameOf } from "./page-paths";

/** The key two titles share exactly when they name the same page: cleaned, NFC, case-folded. */
export function titleKey(title: string): string {
  return nameKey(cleanTitle(title));
}

/** The title an existing file records: its frontmatter `title`, else (a user's file) its name. */
export function recordedTitle(text: string, path: string): string {
  const { frontmatter } = splitFrontmatter(text);
  return typeof frontmatter.title === "string" && frontmatter.title.trim() ? frontmatter.title : basenameOf(path);
}

/** Is the file at `path`, holding `text`, the page titled `title`? */
export function isSamePage(text: string, path: string, title: string): boolean {
  return titleKey(recordedTitle(text, path)) === titleKey(title);
}
