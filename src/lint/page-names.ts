/**
 * How lint names a page in a finding's message and a fix's label: by its title in quotes, as the
 * lint view and Obsidian's own lists show pages, never by a path the reader has to decode. The path
 * follows only where two pages share the title ("Ada" (wiki/entities/Ada (2).md)): there the title
 * alone would not say which. A note (a source, outside the wiki) goes by its file name, as
 * Obsidian shows notes.
 */
import { nameKey } from "../core/unicode";
import { basenameOf } from "../wiki/page-paths";

export type PageNamer = (path: string) => string;

const namers = new WeakMap<object, PageNamer>();

/** The namer for one snapshot's pages, made once per snapshot. */
export function pageNamer(snapshot: { readonly pages: readonly { readonly path: string; readonly title: string }[] }): PageNamer {
  const known = namers.get(snapshot);
  if (known) return known;
  const titles = new Map<string, string>();
  const counts = new Map<string, number>();
  for (const page of snapshot.pages) {
    const title = page.title.trim() || basenameOf(page.path);
    titles.set(page.path, title);
    counts.set(nameKey(title), (counts.get(nameKey(title)) ?? 0) + 1);
  }
  const namer: PageNamer = (path) => {
    const title = titles.get(path);
    if (title === undefined) return `"${basenameOf(path)}"`;
    return (counts.get(nameKey(title)) ?? 0) > 1 ? `"${title}" (${path})` : `"${title}"`;
  };
  namers.set(snapshot, namer);
  return namer;
}
