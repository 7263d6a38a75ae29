/**
 * index.md (one line per page, by type) and log.md (one entry per run). Both are edited in place:
 * the index by inserting, replacing or removing only the lines of the pages a run touched (never a
 * re-sort, never reading a page), the log by appending one entry. A run's cost stays nearly flat
 * however big the wiki is, and whatever the user wrote around and on the lines stays.
 */
import type { ChangeAction } from "./planned-change";
import { normaliseFolder } from "./page-paths";

const SECTIONS: readonly [type: string, heading: string][] = [
  ["source", "Sources"],
  ["entity", "Entities"],
  ["concept", "Concepts"],
  ["synthesis", "Syntheses"],
  ["comparison", "Comparisons"],
];

const INDEX_PREAMBLE = "# Wiki index\n\nMaintained by Synapse: one line per page, grouped by type. Your own text, and anything you add after a link, is kept.\n";
export const LOG_PREAMBLE = "# Synapse log\n\nOne entry per run, newest last: `## [date] operation | what`, then the pages it touched.\n";

export function indexPath(wikiFolder: string): string {
  const folder = normaliseFolder(wikiFolder);
  return folder ? `${folder}/index.md` : "index.md";
}

export function logPath(wikiFolder: string): string {
  const folder = normaliseFolder(wikiFolder);
  return folder ? `${folder}/log.md` : "log.md";
}

export interface IndexEntry {
  readonly path: string;
  readonly type: string;
  readonly title: string;
}

/** An entry line: `- [[target|Title]]` and whatever the user wrote after it. */
const ENTRY = /^(\s*[-*] )\[\[([^\]|]+)\|([^\]]*)\]\](.*)$/;

function linkTarget(path: string): string {
  return path.replace(/\.md$/i, "");
}

function entryLink(entry: IndexEntry): string {
  return `[[${linkTarget(entry.path)}|${entry.title.replace(/[[\]|]/g, " ")}]]`;
}

function entryKey(line: string): string | null {
  const match = ENTRY.exec(line);
  return match?.[2] ? match[2].trim().toLowerCase() : null;
}

function headingOf(type: string): string {
  return (SECTIONS.find(([t]) => t === type) ?? SECTIONS[0])?.[1] ?? "Sources";
}

/** Index of the line after the section that starts at `start` (next `## ` heading or the end). */
function sectionEnd(lines: readonly string[], start: number): number {
  let i = start + 1;
  while (i < lines.length && !(lines[i] ?? "").startsWith("## ")) i++;
  return i;
}

function insertEntry(lines: string[], entry: IndexEntry): void {
  const heading = `## ${headingOf(entry.type)}`;
  const line = `- ${entryLink(entry)}`;
  let start = lines.findIndex((l) => l.trim() === heading);
  if (start === -1) {
    // A new section goes before the first known section that follows it in the usual order.
    const order = SECTIONS.map(([, h]) => `## ${h}`);
    const later = order.slice(order.indexOf(heading) + 1);
    const next = lines.findIndex((l) => later.includes(l.trim()));
    while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
    if (next === -1) lines.push(...(lines.length > 0 ? [""] : []), heading, "", line);
    else lines.splice(next, 0, heading, "", line, "");
    return;
  }
  const end = sectionEnd(lines, start);
  // Before the first entry whose title sorts after this one; else after the section's last entry.
  let lastEntry = -1;
  for (let i = start + 1; i < end; i++) {
    const match = ENTRY.exec(lines[i] ?? "");
    if (!match) continue;
    if ((match[3] ?? "").localeCompare(entry.title) > 0) {
      lines.splice(i, 0, line);
      return;
    }
    lastEntry = i;
  }
  if (lastEntry !== -1) {
    lines.splice(lastEntry + 1, 0, line);
    return;
  }
  start += 1;
  if (lines[start] === "") start += 1;
  lines.splice(start, 0, line, ...(lines[start] !== undefined && lines[start] !== "" ? [""] : []));
}

/** Removes an entry line; a known section left with nothing but blank lines goes with it. */
function removeLine(lines: string[], i: number): void {
  lines.splice(i, 1);
  let start = i - 1;
  while (start >= 0 && !(lines[start] ?? "").startsWith("## ")) start--;
  const known = start >= 0 && SECTIONS.some(([, h]) => (lines[start] ?? "").trim() === `## ${h}`);
  const end = start >= 0 ? sectionEnd(lines, start) : -1;
  if (known && lines.slice(start + 1, end).every((l) => l.trim() === "")) {
    lines.splice(start, end - start);
    // The blank line that separated it from what came before now ends the file or doubles one.
    if (start > 0 && lines[start - 1] === "" && (start === lines.length || lines[start] === "")) lines.splice(start - 1, 1);
    return;
  }
  // The blank line after the entry list stays single.
  if (i > 0 && lines[i - 1] === "" && lines[i] === "") lines.splice(i, 1);
}

export interface IndexEdit {
  /** Pages to list (or relist under a new title); an existing line keeps its place and its annotation. */
  readonly upsert?: readonly IndexEntry[];
  /** Paths whose lines go. */
  readonly remove?: readonly string[];
  /** Paths that moved: their lines point at the new path, in place. */
  readonly move?: readonly { readonly from: string; readonly to: string }[];
}

function keyOf(path: string): string {
  return linkTarget(path).trim().toLowerCase();
}

/**
 * index.md's text as lines joined by "\n" (CRLF read as LF, no final newline), and how to turn
 * such a text back into the file: the final newline and the CRLF line ends it had.
 */
function openIndexText(current: string): { body: string; finish: (body: string) => string } {
  const source = current === "" ? INDEX_PREAMBLE : current;
  const crlf = source.includes("\r\n");
  const text = crlf ? source.replace(/\r\n/g, "\n") : source;
  const trailingNewline = text.endsWith("\n");
  return {
    body: trailingNewline ? text.slice(0, -1) : text,
    finish: (body) => {
      const out = `${body}${trailingNewline || current === "" ? "\n" : ""}`;
      return crlf ? out.replace(/\n/g, "\r\n") : out;
    },
  };
}

/** Lists or retitles one page in a lines array (the first line whose link is the page's). */
function upsertLine(lines: string[], entry: IndexEntry): void {
  const key = keyOf(entry.path);
  const at = lines.findIndex((l) => entryKey(l) === key);
  if (at === -1) {
    insertEntry(lines, entry);
    return;
  }
  const match = ENTRY.exec(lines[at] ?? "");
  if (match && match[3] !== entry.title.replace(/[[\]|]/g, " ")) lines[at] = `${match[1]}${entryLink(entry)}${match[4]}`;
}

/** The line of `text` (lines joined by "\n") around offset `pos`: [start, end) without its "\n". */
function lineAround(text: string, pos: number): { start: number; end: number } {
  const start = pos === 0 ? 0 : text.lastIndexOf("\n", pos - 1) + 1;
  const end = text.indexOf("\n", pos);
  return { start, end: end === -1 ? text.length : end };
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
}

/**
 * The characters of the Basic Multilingual Plane that lower-case to a single other character but
 * that a case-insensitive regular expression without the `u` flag does not take for it (it folds
 * case by upper-casing, and never to ASCII from outside it): each lower-case character, then those.
 * test/wiki/index-text-path.test.ts checks this list against the engine's Unicode data.
 */
const UNFOLDED = new Map(
  [
    "\u03B8\u03F4", "\u00DF\u1E9E", "\u1F80\u1F88", "\u1F81\u1F89", "\u1F82\u1F8A", "\u1F83\u1F8B",
    "\u1F84\u1F8C", "\u1F85\u1F8D", "\u1F86\u1F8E", "\u1F87\u1F8F", "\u1F90\u1F98", "\u1F91\u1F99",
    "\u1F92\u1F9A", "\u1F93\u1F9B", "\u1F94\u1F9C", "\u1F95\u1F9D", "\u1F96\u1F9E", "\u1F97\u1F9F",
    "\u1FA0\u1FA8", "\u1FA1\u1FA9", "\u1FA2\u1FAA", "\u1FA3\u1FAB", "\u1FA4\u1FAC", "\u1FA5\u1FAD",
    "\u1FA6\u1FAE", "\u1FA7\u1FAF", "\u1FB3\u1FBC", "\u1FC3\u1FCC", "\u1FF3\u1FFC", "\u03C9\u2126", "k\u212A",
    "\u00E5\u212B"
  ].map((pair) => [pair.slice(0, 1), pair.slice(1)] as const),
);

/**
 * A case-insensitive pattern without the `u` flag that matches, at least, every text that lower-cases
 * to `key` (a lower-cased text): each character of the key, or a class with the characters in
 * UNFOLDED that lower-case to it. Null when the key holds a character outside the Basic
 * Multilingual Plane (the `u`-less pattern sees its halves). Such a pattern is searched for far
 * faster than a `u` one: the engine skips through the text instead of folding every character.
 */
export function caseInsensitiveSource(key: string): string | null {
  let source = "";
  for (const ch of key) {
    if (ch.length !== 1) return null;
    const others = UNFOLDED.get(ch);
    source += others ? `[${ch}${others}]` : escapeRegExp(ch);
  }
  return source;
}

/**
 * The first line of `text` that lists the page with this key, as `upsertLine` would find it;
 * undefined when only a parse of every line can tell.
 */
function findEntryLine(text: string, key: string): { start: number; end: number } | null | undefined {
  if (key === "") return undefined;
  // Every line whose link lower-cases to the key contains the key ignoring case, so the lines that
  // contain it are the only ones to parse. A case-insensitive search (Unicode simple case folding)
  // finds every text that lower-cases to the key, with one exception: "İ", which lower-cases to
  // "i" and a combining dot; a key with that dot is looked for in a lower-cased copy of the text,
  // which has the same offsets only when lower-casing kept its length. In a listing line the link's
  // target ends at the "|" (spaces before it are trimmed), so the search asks for that too: a key
  // that begins many longer names ("wiki/entities/obsidian" in a big wiki) is then not found, and
  // parsed, on each of their lines.
  let search: (from: number) => number;
  if (!key.includes("\u0307")) {
    const fast = caseInsensitiveSource(key);
    const pattern = fast !== null ? new RegExp(`${fast}\\s*\\|`, "gi") : new RegExp(`${escapeRegExp(key)}\\s*\\|`, "giu");
    search = (from) => {
      pattern.lastIndex = from;
      return pattern.exec(text)?.index ?? -1;
    };
  } else {
    const lower = text.toLowerCase();
    if (lower.length !== text.length) return undefined;
    search = (from) => lower.indexOf(key, from);
  }
  for (let pos = search(0); pos !== -1; ) {
    const line = lineAround(text, pos);
    if (entryKey(text.slice(line.start, line.end)) === key) return line;
    if (line.end >= text.length) return null;
    pos = search(line.end + 1);
  }
  return null;
}

/** The first line whose trimmed text is `heading`, as `insertEntry` finds a section. */
function findHeadingLine(text: string, heading: string): { start: number; end: number } | null {
  for (let pos = text.indexOf(heading); pos !== -1; ) {
    const line = lineAround(text, pos);
    if (text.slice(line.start, line.end).trim() === heading) return line;
    pos = text.indexOf(heading, line.end);
  }
  return null;
}

/**
 * `upsertLine` on the text itself: the page's line is retitled in place, or the page is inserted
 * into its section, of which only the lines are parsed. Null when the section does not exist yet.
 */
function upsertInText(text: string, entry: IndexEntry): string | null {
  const found = findEntryLine(text, keyOf(entry.path));
  if (found === undefined) return null;
  if (found !== null) {
    const match = ENTRY.exec(text.slice(found.start, found.end));
    if (!match || match[3] === entry.title.replace(/[[\]|]/g, " ")) return text;
    return `${text.slice(0, found.start)}${match[1]}${entryLink(entry)}${match[4]}${text.slice(found.end)}`;
  }
  const heading = findHeadingLine(text, `## ${headingOf(entry.type)}`);
  if (heading === null) return null;
  // The section runs to the next line that starts with "## ".
  const next = text.indexOf("\n## ", heading.end);
  const last = next === -1 ? text.length : next;
  const line = `- ${entryLink(entry)}`;
  // Before the first entry whose title sorts after this one; else after the section's last entry.
  let lastEntryEnd = -1;
  for (let pos = heading.end + 1; pos <= last; ) {
    const newline = text.indexOf("\n", pos);
    const end = newline === -1 ? text.length : newline;
    const match = ENTRY.exec(text.slice(pos, end));
    if (match) {
      if ((match[3] ?? "").localeCompare(entry.title) > 0) return `${text.slice(0, pos)}${line}\n${text.slice(pos)}`;
      lastEntryEnd = end;
    }
    pos = end + 1;
  }
  if (lastEntryEnd !== -1) return `${text.slice(0, lastEntryEnd)}\n${line}${text.slice(lastEntryEnd)}`;
  // A section without entries: its lines and the heading that ends it, as `insertEntry` edits them.
  const end = next === -1 ? text.length : lineAround(text, next + 1).end;
  const section = text.slice(heading.start, end).split("\n");
  insertEntry(section, entry);
  return `${text.slice(0, heading.start)}${section.join("\n")}${text.slice(end)}`;
}

/**
 * `editIndex` line by line: every line parsed. The reference the text path is tested against, and
 * the path of removals, moves and new sections.
 */
export function editIndexByLines(current: string, edit: IndexEdit): string {
  const { body, finish } = openIndexText(current);
  const lines = body.split("\n");
  const removing = new Set((edit.remove ?? []).map(keyOf));
  const moves = new Map((edit.move ?? []).map((m) => [keyOf(m.from), linkTarget(m.to)]));
  for (let i = removing.size + moves.size > 0 ? lines.length - 1 : -1; i >= 0; i--) {
    const line = lines[i] ?? "";
    const key = entryKey(line);
    if (key === null) continue;
    if (removing.has(key)) removeLine(lines, i);
    else if (moves.has(key)) {
      const match = ENTRY.exec(line);
      if (match) lines[i] = `${match[1]}[[${moves.get(key)}|${match[3]}]]${match[4]}`;
    }
  }
  for (const entry of edit.upsert ?? []) upsertLine(lines, entry);
  return finish(lines.join("\n"));
}
/**
 * Applies an edit to index.md's text, touching only the affected lines. Everything else — the
 * preamble, the user's lines, their annotations after a link, sections Synapse does not know — is
 * kept byte for byte.
 *
 * The common edit, pages listed or retitled in sections that exist, works on the text itself: a
 * page's line is found by searching for its path and a section by its heading, so the cost is a few
 * searches of the text, not a parse of every line (index.md has a line per page of the wiki).
 * Removals, moves and new sections take the line-by-line path, `editIndexByLines`, which gives the
 * same result.
 */
export function editIndex(current: string, edit: IndexEdit): string {
  if ((edit.remove?.length ?? 0) + (edit.move?.length ?? 0) > 0) return editIndexByLines(current, edit);
  const { body, finish } = openIndexText(current);
  let text: string | null = body;
  let lines: string[] | null = null;
  for (const entry of edit.upsert ?? []) {
    if (text !== null) {
      const edited = upsertInText(text, entry);
      if (edited !== null) {
        text = edited;
        continue;
      }
      lines = text.split("\n");
      text = null;
    }
    if (lines) upsertLine(lines, entry);
  }
  return finish(text ?? (lines ?? []).join("\n"));
}

/** Compatibility with earlier callers (the benchmark seeds its index with it): an index with these entries. */
export function upsertIndex(current: string, entries: readonly IndexEntry[]): string {
  return editIndex(current, { upsert: entries });
}

export interface LogEntry {
  /** ISO day, e.g. 2026-11-30. */
  readonly date: string;
  readonly operation: string;
  readonly label: string;
  readonly pages: readonly { readonly path: string; readonly title: string; readonly action: ChangeAction }[];
  /** Further lines: provider and model, tokens, cost… */
  readonly details: readonly string[];
}

/**
 * The text one run appends to log.md. Greppable: `grep "^## \[2026-11" log.md` lists a month's
 * runs, `grep "| ingest" …` would not, so the operation comes first: `## [2026-11-30] ingest | Title`.
 */
export function logEntryText(entry: LogEntry): string {
  const label = entry.label.replace(/[\r\n]+/g, " ").trim() || "(untitled)";
  const lines = [`## [${entry.date}] ${entry.operation} | ${label}`, ""];
  const changed = entry.pages.filter((p) => p.action !== "unchanged");
  for (const page of changed) lines.push(`- ${page.action} [[${linkTarget(page.path)}|${page.title.replace(/[[\]|]/g, " ")}]]`);
  const unchanged = entry.pages.length - changed.length;
  if (unchanged > 0) lines.push(`- ${unchanged} page${unchanged === 1 ? "" : "s"} unchanged`);
  if (entry.pages.length === 0) lines.push("- no pages changed");
  for (const detail of entry.details) lines.push(`- ${detail}`);
  return `\n${lines.join("\n")}\n`;
}
