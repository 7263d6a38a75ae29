/**
 * index.md's entry lines, `- [[target|Title]]` and whatever the user wrote after the link: how one
 * is written, parsed and keyed, and which section each page type goes in. Shared by the line-by-line
 * edit (index-log.ts) and the edit on the text (index-text-edit.ts), which must agree byte for byte.
 */

export interface IndexEntry {
  readonly path: string;
  readonly type: string;
  readonly title: string;
}

export const SECTIONS: readonly [type: string, heading: string][] = [
  ["source", "Sources"],
  ["entity", "Entities"],
  ["concept", "Concepts"],
  ["synthesis", "Syntheses"],
  ["comparison", "Comparisons"],
];

/** An entry line: `- [[target|Title]]` and whatever the user wrote after it. */
export const ENTRY = /^(\s*[-*] )\[\[([^\]|]+)\|([^\]]*)\]\](.*)$/;

export function linkTarget(path: string): string {
  return path.replace(/\.md$/i, "");
}

/** The title as an entry line shows it: the characters a wikilink cannot hold become spaces. */
export function linkTitle(title: string): string {
  return title.replace(/[[\]|]/g, " ");
}

export function entryLink(entry: IndexEntry): string {
  return `[[${linkTarget(entry.path)}|${linkTitle(entry.title)}]]`;
}

/** The key of the page a line lists (its link's target, trimmed, lower-cased), or null for another line. */
export function entryKey(line: string): string | null {
  const match = ENTRY.exec(line);
  return match?.[2] ? match[2].trim().toLowerCase() : null;
}

/** The key a page's line has. */
export function keyOf(path: string): string {
  return linkTarget(path).trim().toLowerCase();
}

export function headingOf(type: string): string {
  return (SECTIONS.find(([t]) => t === type) ?? SECTIONS[0])?.[1] ?? "Sources";
}
