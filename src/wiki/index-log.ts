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

/**
 * Applies an edit to index.md's text, touching only the affected lines. Everything else — the
 * preamble, the user's lines, their annotations after a link, sections Synapse does not know — is
 * kept byte for byte.
 */
export function editIndex(current: string, edit: IndexEdit): string {
  const source = current === "" ? INDEX_PREAMBLE : current;
  const crlf = source.includes("\r\n");
  const lines = source.replace(/\r\n/g, "\n").split("\n");
  const trailingNewline = lines[lines.length - 1] === "";
  if (trailingNewline) lines.pop();
  const removing = new Set((edit.remove ?? []).map((p) => linkTarget(p).trim().toLowerCase()));
  const moves = new Map((edit.move ?? []).map((m) => [linkTarget(m.from).trim().toLowerCase(), linkTarget(m.to)]));
  // One lower-cased copy answers "is this page listed at all?" without parsing every line: most
  // pages a run writes are new, and a 20,000-line index must not cost 20,000 parses per page.
  const lower = source.toLowerCase();
  // (`[[path|` as Synapse writes it, or with a space before the bar as a hand edit may leave it.)
  const listed = (key: string) => moves.size > 0 || lower.includes(`${key}|`) || lower.includes(`${key} |`);
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
  const inserted = new Set<string>();
  for (const entry of edit.upsert ?? []) {
    const key = linkTarget(entry.path).trim().toLowerCase();
    const at = listed(key) || inserted.has(key) ? lines.findIndex((l) => entryKey(l) === key) : -1;
    if (at === -1) {
      insertEntry(lines, entry);
      inserted.add(key);
      continue;
    }
    const match = ENTRY.exec(lines[at] ?? "");
    if (match && match[3] !== entry.title.replace(/[[\]|]/g, " ")) lines[at] = `${match[1]}${entryLink(entry)}${match[4]}`;
  }
  const text = `${lines.join("\n")}${trailingNewline || current === "" ? "\n" : ""}`;
  return crlf ? text.replace(/\n/g, "\r\n") : text;
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
