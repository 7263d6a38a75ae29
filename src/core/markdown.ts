/**
 * Markdown helpers shared by the Offline provider, the wiki writer and retrieval. Frontmatter is
 * parsed with the `yaml` package (never gray-matter, which evaluates `---js` blocks).
 */
import { parse as parseYaml } from "yaml";
import { removeCode } from "./code-spans";
import { parseSimpleYaml } from "./simple-yaml";
import { oneOf, replaceDelimited } from "./text-scan";

export interface SplitNote {
  /** Parsed frontmatter, or an empty object when there is none or it does not parse. */
  readonly frontmatter: Record<string, unknown>;
  /** The raw frontmatter block between the fences ("" when none). */
  readonly rawFrontmatter: string;
  readonly body: string;
  /** True when a frontmatter block was present but was not a YAML mapping. */
  readonly frontmatterInvalid: boolean;
}

const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

export function splitFrontmatter(text: string): SplitNote {
  const match = FRONTMATTER.exec(text.startsWith("\uFEFF") ? text.slice(1) : text);
  if (!match) return { frontmatter: {}, rawFrontmatter: "", body: text, frontmatterInvalid: false };
  const raw = match[1] ?? "";
  const body = (text.startsWith("\uFEFF") ? text.slice(1) : text).slice(match[0].length);
  try {
    // Most notes' frontmatter is of the simple kind read without the full parser (same result).
    const simple = parseSimpleYaml(raw);
    const parsed: unknown = simple !== undefined ? simple : parseYaml(raw, { maxAliasCount: 50, prettyErrors: false });
    if (parsed === null || parsed === undefined) return { frontmatter: {}, rawFrontmatter: raw, body, frontmatterInvalid: false };
    if (typeof parsed === "object" && !Array.isArray(parsed)) {
      return { frontmatter: parsed as Record<string, unknown>, rawFrontmatter: raw, body, frontmatterInvalid: false };
    }
  } catch {
    // Invalid YAML: keep the body, report it, never throw on a user's note.
  }
  return { frontmatter: {}, rawFrontmatter: raw, body, frontmatterInvalid: true };
}

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

/** A YAML scalar a person wrote in a list (`tags: [2024, history]`): strings, and numbers as written. */
function scalarText(value: unknown): string | null {
  if (typeof value === "string") return value.trim() || null;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return null;
}

/** Frontmatter `tags`, whether a list or a comma/space separated string; numbers are tags too. */
export function frontmatterList(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(scalarText).filter((v): v is string => v !== null);
  if (typeof value === "number") return [String(value)];
  if (typeof value === "string") return value.split(/[,\s]+/).map((v) => v.replace(/^#/, "").trim()).filter(Boolean);
  return [];
}

/**
 * A link written without quotes (`- [[notes/a]]`, `sources: [[notes/a]]`) is YAML for a list inside a
 * list; a person meant the link, so a nested list around one string reads back as `[[that string]]`
 * instead of vanishing from the sources (and from the privacy perimeter that reads them).
 */
function unquotedLink(item: unknown): unknown {
  if (!Array.isArray(item)) return item;
  let inner: unknown = item;
  while (Array.isArray(inner) && inner.length === 1) inner = inner[0];
  return typeof inner === "string" ? `[[${inner.trim()}]]` : item;
}

/** Frontmatter paths (`sources`): a list, or one string; paths may hold spaces, so only commas split. */
export function frontmatterPaths(value: unknown): string[] {
  if (typeof value === "string") return value.split(",").map((v) => v.trim()).filter(Boolean);
  if (Array.isArray(value)) return frontmatterList(value.map(unquotedLink));
  return frontmatterList(value);
}
