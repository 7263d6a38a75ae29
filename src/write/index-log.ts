/**
 * index.md (one line per page, by type) and log.md (one entry per run). Both are edited in place:
 * the index by inserting, replacing or removing only the lines of the pages a run touched (never a
 * re-sort, never reading a page), the log by appending one entry. What a run costs that grows with
 * the wiki: index.md read and written once, one search of its text for all the pages listed, and
 * per section a walk of its entries up to its new pages' places (no copy of the text per page); a
 * removal or a move parses every line. Whatever the user wrote around and on the lines stays.
 */
import type { ChangeAction } from "./planned-change";
import { ENTRY, SECTIONS, entryKey, entryLink, headingOf, keyOf, linkTarget, linkTitle, type IndexEntry } from "./index-entry";
import { upsertInText } from "./index-text-edit";
import type { LineChange } from "./line-changes";

export type { IndexEntry } from "./index-entry";

const INDEX_PREAMBLE = "# Wiki index\n\nMaintained by Synapse: one line per page, grouped by type. Your own text, and anything you add after a link, is kept.\n";
export const LOG_PREAMBLE = "# Synapse log\n\nOne entry per run, newest last: `## [date] operation | what`, then the pages it touched.\n";

export { indexPath, logPath } from "../core/wiki-paths";

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
 * index.md's text as lines joined by "\n" (CRLF read as LF, no final newline), and what turns such
 * a text back into the file: the final newline and the CRLF line ends it had.
 */
function openIndexText(current: string): { body: string; newline: string; crlf: boolean; finish: (body: string) => string } {
  const source = current === "" ? INDEX_PREAMBLE : current;
  const crlf = source.includes("\r\n");
  const text = crlf ? source.replace(/\r\n/g, "\n") : source;
  const trailingNewline = text.endsWith("\n");
  const newline = trailingNewline || current === "" ? "\n" : "";
  return {
    body: trailingNewline ? text.slice(0, -1) : text,
    newline,
    crlf,
    finish: (body) => {
      const out = `${body}${newline}`;
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
  if (match && match[3] !== linkTitle(entry.title)) lines[at] = `${match[1]}${entryLink(entry)}${match[4]}`;
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
    if (removing.has(key)) {
      // What the user wrote after the link stays, with the page's title in place of a link to a
      // page that is gone: the index promises to keep it.
      const match = ENTRY.exec(line);
      if (match && (match[4] ?? "").trim() !== "") lines[i] = `${match[1]}${match[3]}${match[4]}`;
      else removeLine(lines, i);
    }
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
 * The common edit, pages listed or retitled in sections that exist, works on the text itself
 * (index-text-edit.ts): the pages' lines are found by one search of the text for all their paths, a
 * new line's place by parsing its section's lines up to there, and the edited text is put together
 * once. Its cost is one search of the text and a scan of part of a section per section with new
 * pages, not a parse of every line (index.md has a line per page of the wiki), and no copy of the
 * text per page.
 * Removals, moves, new sections and the rare edits that path declines take the line-by-line path,
 * `editIndexByLines`, which gives the same result.
 */
export function editIndex(current: string, edit: IndexEdit): string {
  return editIndexWithChange(current, edit).text;
}

export interface EditedIndex {
  readonly text: string;
  /** The lines replaced, when the edit itself knows them (an index with LF line ends edited on its text); null when they are to be found by comparing the two texts. */
  readonly lines: LineChange | null;
  /** With `lines`: the text as the pieces it was put together from, to be written without joining them. */
  readonly pieces: readonly string[] | null;
}

/** `editIndex`, with the lines it replaced and the pieces of the text when it knows them. */
export function editIndexWithChange(current: string, edit: IndexEdit): EditedIndex {
  const byLines = () => ({ text: editIndexByLines(current, edit), lines: null, pieces: null });
  if ((edit.remove?.length ?? 0) + (edit.move?.length ?? 0) > 0) return byLines();
  const { body, newline, crlf, finish } = openIndexText(current);
  const edited = upsertInText(body, edit.upsert ?? []);
  if (edited === null) return byLines();
  if (crlf || current === "") return { text: finish(edited.pieces.join("")), lines: null, pieces: null };
  const pieces = [...edited.pieces, newline];
  // Added up, not joined: the engine keeps such a string as its parts until something reads its
  // characters, which the write (given the pieces) never does. Joining 1.3 MB of text in several
  // scripts costs about 10 ms of CPU per ingest at 20,000 pages.
  let text = "";
  for (const piece of pieces) text += piece;
  return { text, lines: { hunks: [...edited.hunks], beforeLength: current.length, afterLength: text.length }, pieces };
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
  for (const page of changed) lines.push(`- ${page.action} [[${linkTarget(page.path)}|${linkTitle(page.title)}]]`);
  const unchanged = entry.pages.length - changed.length;
  if (unchanged > 0) lines.push(`- ${unchanged} page${unchanged === 1 ? "" : "s"} unchanged`);
  if (entry.pages.length === 0) lines.push("- no pages changed");
  for (const detail of entry.details) lines.push(`- ${detail}`);
  return `\n${lines.join("\n")}\n`;
}
