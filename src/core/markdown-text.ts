/**
 * Markdown read as text — code removed, headings, inline #tags — without parsing frontmatter, so
 * the search index's worker can use it without bundling a YAML parser (core/markdown.ts has that).
 */
import { removeCode } from "./code-spans";
import { oneOf, replaceDelimited } from "./text-scan";

/** Removes fenced and inline code, so headings, tags and links inside code are not picked up. */
export function stripCode(markdown: string): string {
  return removeCode(markdown);
}

export interface Heading {
  readonly level: number;
  readonly text: string;
}

export function headings(markdown: string): Heading[] {
  const out: Heading[] = [];
  for (const line of stripCode(markdown).split(/[\n\r\u2028\u2029]/)) {
    const heading = headingOf(line);
    if (heading) out.push(heading);
  }
  return out;
}

/**
 * A line's heading, as `/^(#{1,6})[ \t]+(.+?)[ \t#]*$/` read it, with the closing run of spaces and
 * `#` trimmed once from the end: the lazy pattern tried that run again after every character.
 */
function headingOf(line: string): Heading | null {
  const open = /^(#{1,6})[ \t]+/.exec(line);
  if (!open) return null;
  const after = line.slice(open[0].length);
  let end = after.length;
  while (end > 0 && " \t#".includes(after[end - 1] ?? "_")) end--;
  // The pattern's text takes at least one character, a "#" when nothing else is left.
  const text = after.slice(0, Math.max(1, end)).trim();
  return text ? { level: (open[1] ?? "#").length, text } : null;
}

/** Inline #tags (not headings, not inside code or links), without the leading #. */
export function inlineTags(markdown: string): string[] {
  return inlineTagsOutsideCode(stripCode(markdown));
}

/**
 * `inlineTags` of a text whose code is already removed (`stripCode`), for a caller that needs the
 * code-free text anyway: removing code is most of the cost, and doing it twice is not the same as
 * once (text joined around a removed span can form a new span).
 */
export function inlineTagsOutsideCode(codeFree: string): string[] {
  const seen = new Set<string>();
  const links = replaceDelimited(codeFree, "[[", oneOf("]\n"), "]]", () => " ");
  const text = replaceDelimited(links, "](", oneOf(")\n"), ")", () => " ");
  for (const match of text.matchAll(/(?:^|[\s(,;])#([\p{L}\p{N}_/-]*\p{L}[\p{L}\p{N}_/-]*)/gu)) {
    if (match[1]) seen.add(match[1]);
  }
  return [...seen];
}
