/**
 * index.md (one line per page, by type) and log.md (one line per ingest). Both are Synapse's own
 * files; they are updated incrementally — the index from its own lines, never by reading every
 * page — so an ingest costs the same on a 10-page wiki and a 10,000-page one.
 */
import type { PageAction } from "./ingest-types";
import type { PlannedChange } from "./plan";
import { normaliseFolder } from "./page-paths";

const SECTIONS: readonly [type: string, heading: string][] = [
  ["source", "Sources"],
  ["entity", "Entities"],
  ["concept", "Concepts"],
  ["synthesis", "Syntheses"],
  ["comparison", "Comparisons"],
];

const INDEX_PREAMBLE = "# Wiki index\n\nMaintained by Synapse: one line per page, grouped by type. Text above the first section is yours to edit.\n";
const LOG_PREAMBLE = "# Synapse log\n\nOne line per ingest, newest last.\n";

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

const ENTRY = /^- \[\[([^\]|]+)\|([^\]]*)\]\](.*)$/;

function entryLine(entry: IndexEntry): string {
  return `- [[${entry.path.replace(/\.md$/i, "")}|${entry.title.replace(/[[\]|]/g, " ")}]]`;
}

/**
 * Upserts entries into an index file's text. The preamble, any line in a known section that is not
 * an entry, and sections Synapse does not know are all kept where the user put them; only the
 * entry lines of the known sections are re-sorted.
 */
export function upsertIndex(current: string, entries: readonly IndexEntry[]): string {
  const headings = new Map(SECTIONS.map(([type, heading]) => [heading, type]));
  const lines = current ? current.replace(/\r\n/g, "\n").split("\n") : [];
  const firstSection = lines.findIndex((l) => l.startsWith("## ") && headings.has(l.slice(3).trim()));
  const preamble = (firstSection === -1 ? (current ? lines : INDEX_PREAMBLE.split("\n")) : lines.slice(0, firstSection)).join("\n").trimEnd();
  const sections = new Map<string, { entries: Map<string, string>; extras: string[] }>(
    SECTIONS.map(([type]) => [type, { entries: new Map(), extras: [] }]),
  );
  /** Sections the user added, verbatim and in their order, after the known ones. */
  const foreign: string[] = [];
  let currentType: string | null = null;
  for (const line of firstSection === -1 ? [] : lines.slice(firstSection)) {
    if (line.startsWith("## ")) {
      currentType = headings.get(line.slice(3).trim()) ?? null;
      if (currentType === null) foreign.push(line);
      continue;
    }
    const section = currentType ? sections.get(currentType) : undefined;
    if (!section) {
      foreign.push(line);
      continue;
    }
    const match = ENTRY.exec(line);
    if (match?.[1]) section.entries.set(match[1].toLowerCase(), line);
    else if (line.trim()) section.extras.push(line);
  }
  for (const entry of entries) {
    const key = entry.path.replace(/\.md$/i, "").toLowerCase();
    for (const section of sections.values()) section.entries.delete(key);
    (sections.get(entry.type) ?? sections.get("source"))?.entries.set(key, entryLine(entry));
  }
  const parts = [preamble];
  for (const [type, heading] of SECTIONS) {
    const section = sections.get(type);
    if (!section || section.entries.size + section.extras.length === 0) continue;
    const sorted = [...section.entries.values()].sort((a, b) => (ENTRY.exec(a)?.[2] ?? a).localeCompare(ENTRY.exec(b)?.[2] ?? b));
    parts.push([`## ${heading}`, "", ...sorted, ...(section.extras.length > 0 ? ["", ...section.extras] : [])].join("\n"));
  }
  const tail = foreign.join("\n").trim();
  if (tail) parts.push(tail);
  return `${parts.join("\n\n")}\n`;
}

export interface LogLine {
  readonly timestamp: string;
  readonly sourcePath: string;
  readonly sourceTitle: string;
  readonly provider: string;
  readonly counts: Readonly<Record<PageAction, number>>;
  readonly tokens: number;
}

export function appendLog(current: string, line: LogLine): string {
  const c = line.counts;
  const text =
    `- ${line.timestamp} — [[${line.sourcePath.replace(/\.md$/i, "")}|${line.sourceTitle.replace(/[[\]|]/g, " ")}]] with ${line.provider}: ` +
    `${c.created} created, ${c.updated} updated, ${c.merged} merged, ${c.unchanged} unchanged` +
    (line.tokens > 0 ? ` (${line.tokens.toLocaleString("en-US")} tokens)` : "");
  const base = current.trim() ? current.trimEnd() : LOG_PREAMBLE.trimEnd();
  return `${base}\n${current.trim() ? "" : "\n"}${text}\n`;
}

/** Planned changes for index.md and log.md that accompany the page changes. */
export function planIndexAndLog(
  pages: readonly PlannedChange[],
  existing: ReadonlySet<string>,
  wikiFolder: string,
  log: Omit<LogLine, "counts">,
): PlannedChange[] {
  const counts: Record<PageAction, number> = { created: 0, updated: 0, merged: 0, unchanged: 0 };
  for (const p of pages) counts[p.action] += 1;
  const entries = pages.map((p) => ({ path: p.path, type: p.type, title: p.title }));
  const index = indexPath(wikiFolder);
  const logFile = logPath(wikiFolder);
  const indexChange: PlannedChange = existing.has(index)
    ? { path: index, type: "index", title: "Wiki index", action: "updated", update: (cur) => ({ content: upsertIndex(cur, entries), action: "updated" }) }
    : { path: index, type: "index", title: "Wiki index", action: "created", create: upsertIndex("", entries) };
  const logChange: PlannedChange = existing.has(logFile)
    ? { path: logFile, type: "log", title: "Synapse log", action: "updated", update: (cur) => ({ content: appendLog(cur, { ...log, counts }), action: "updated" }) }
    : { path: logFile, type: "log", title: "Synapse log", action: "created", create: appendLog("", { ...log, counts }) };
  return [indexChange, logChange];
}
