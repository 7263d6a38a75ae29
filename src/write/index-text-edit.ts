/**
 * Pages listed or retitled in index.md, edited on its text: the lines a run touches are found by
 * one search of the text read from disk, and the edited text is put together once, from that text's
 * untouched stretches and the new lines. No page's edit copies the text (at 20,000 pages it is
 * 1.3 MB: each copy, and the first search of each copy, cost more than all the searches), and a
 * section is parsed, line by line, only as far as a new line's place in it. The result is the one
 * the line-by-line edit (`editIndexByLines`) gives, entry after entry, byte for byte; where the two
 * could differ in ways not worth following here — a page listed twice in one edit, a path no link
 * can hold, a section that has no entries or does not exist yet, two sections that share lines (an
 * indented heading does not end a section) — this path declines and the caller
 * edits line by line.
 */
import { ENTRY, entryKey, entryLink, headingOf, keyOf, linkTarget, linkTitle, type IndexEntry } from "./index-entry";
import type { LineHunk } from "./line-changes";

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

interface Span {
  readonly start: number;
  readonly end: number;
}

/** The line of `text` around offset `pos`: [start, end) without its "\n". */
function lineAround(text: string, pos: number): Span {
  const start = pos === 0 ? 0 : text.lastIndexOf("\n", pos - 1) + 1;
  const end = text.indexOf("\n", pos);
  return { start, end: end === -1 ? text.length : end };
}

/**
 * The first line of `text` that lists the page with this key, as the line-by-line edit finds it;
 * undefined when only a parse of every line can tell.
 */
function findEntryLine(text: string, key: string): Span | null | undefined {
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

/**
 * `findEntryLine` for each key, the keys searched for together: one pass through the text, however
 * many pages a run lists (a search per page cost about 0.6 ms of CPU at 20,000 pages). Every line
 * that lists one of the pages contains its key, so the leftmost match of any key never passes such
 * a line: each key's first line is found, as its own search finds it. Undefined as there.
 */
function findEntryLines(text: string, keys: readonly string[]): Map<string, Span | null> | undefined {
  const found = new Map<string, Span | null>();
  const sources: string[] = [];
  const pending = new Set<string>();
  for (const key of keys) {
    const fast = key === "" || key.includes("\u0307") ? null : caseInsensitiveSource(key);
    if (fast !== null) {
      sources.push(fast);
      pending.add(key);
      continue;
    }
    const line = findEntryLine(text, key);
    if (line === undefined) return undefined;
    found.set(key, line);
  }
  if (sources.length > 0) {
    const pattern = new RegExp(`(?:${sources.join("|")})\\s*\\|`, "gi");
    for (let pos = pattern.exec(text)?.index ?? -1; pos !== -1 && pending.size > 0; ) {
      const line = lineAround(text, pos);
      const key = entryKey(text.slice(line.start, line.end));
      if (key !== null && pending.delete(key)) found.set(key, line);
      if (line.end >= text.length) break;
      pattern.lastIndex = line.end + 1;
      pos = pattern.exec(text)?.index ?? -1;
    }
  }
  for (const key of pending) found.set(key, null);
  return found;
}

/** The first line whose trimmed text is `heading`, as the line-by-line edit finds a section. */
function findHeadingLine(text: string, heading: string): Span | null {
  for (let pos = text.indexOf(heading); pos !== -1; ) {
    const line = lineAround(text, pos);
    if (text.slice(line.start, line.end).trim() === heading) return line;
    pos = text.indexOf(heading, line.end);
  }
  return null;
}

/** The same order as `String.prototype.localeCompare` (its definition), without building a collator per call. */
const collator = new Intl.Collator();

/** Where a new line goes: before the entry line starting at `at`, or after the one ending there. */
interface Anchor {
  readonly at: number;
  readonly before: boolean;
}

/** An entry line of a section as the edit so far has it: one of the text's, or one this edit adds. */
interface Listed {
  title: string;
  /** The text's line; null for a new one. */
  readonly line: Span | null;
  /** A new line's text and place. */
  readonly added?: { readonly text: string; readonly anchor: Anchor };
}

/** A section's entry lines, parsed from the text only as far as a new line's place needed. */
interface Section {
  /** Offset of its heading line. */
  readonly start: number;
  readonly listed: Listed[];
  /** Offset of the next line to parse; past `last` once the whole section is. */
  next: number;
  /** Offset of the "\n" before the next heading, or the text's length. */
  readonly last: number;
}

export interface TextEdit {
  /** The edited text, as the pieces to join. */
  readonly pieces: readonly string[];
  /** The lines replaced, as `lineChange` records them, line numbers being the text's. */
  readonly hunks: readonly LineHunk[];
}

interface Patch {
  readonly at: number;
  /** Offset where the replaced text ends (`at` for an insertion). */
  readonly end: number;
  readonly text: string;
  /** The lines it inserts (or the line it rewrites). */
  readonly insert: readonly string[];
  /** New lines after an entry line (`at` is that line's end), which start on the line after it. */
  readonly after: boolean;
}

/**
 * Each page listed or retitled, in order, as the line-by-line edit does it, on the text (lines
 * joined by "\n"); null when this path declines (see the module's comment).
 */
export function upsertInText(text: string, entries: readonly IndexEntry[]): TextEdit | null {
  const keys = new Set<string>();
  for (const entry of entries) {
    const key = keyOf(entry.path);
    // A page twice, or a link target or title that would not read back as written: line by line.
    if (keys.has(key) || /[\]|\n]/.test(linkTarget(entry.path)) || entry.title.includes("\n")) return null;
    keys.add(key);
  }
  const sections = new Map<string, Section | null>();
  /** Entry lines parsed so far, by offset: a retitle changes what later insertions compare against. */
  const parsed = new Map<number, Listed>();
  const retitled = new Map<number, { readonly line: Span; readonly text: string; readonly title: string }>();
  /**
   * Where a new line's walk may start: after the last new line of its section whose title sorts at
   * or before its own. Every line before a new one sorts at or before it (it was placed before the
   * first that sorts after it, and a line placed since before it sorts before it too), so none of
   * them sorts after the later title: a run's second new page in a section is not compared again
   * with all the lines the first one passed. It holds while a line's title is its title as listed
   * (no "[", "]" or "|" to replace) and no line already walked past was retitled.
   */
  let resumable = entries.every((entry) => linkTitle(entry.title) === entry.title);
  const walkStart = (section: Section, title: string): number => {
    if (!resumable) return 0;
    let start = 0;
    section.listed.forEach((listed, i) => {
      if (listed.added && i >= start && collator.compare(listed.title, title) <= 0) start = i + 1;
    });
    return start;
  };

  /** The section under this heading; null when it does not exist, or shares lines with another one this edit uses. */
  const sectionFor = (heading: string): Section | null => {
    if (!sections.has(heading)) {
      const found = findHeadingLine(text, heading);
      // The section runs to the next line that starts with "## ", which an indented heading does not.
      const next = found === null ? -1 : text.indexOf("\n## ", found.end);
      const section = found === null ? null : { start: found.start, listed: [], next: found.end + 1, last: next === -1 ? text.length : next };
      const overlaps = section !== null && [...sections.values()].some((other) => other !== null && other.start <= section.last && section.start <= other.last);
      sections.set(heading, overlaps ? null : section);
    }
    return sections.get(heading) ?? null;
  };
  /** Parses the section's next entry line; false at its end. */
  const parseNext = (section: Section): boolean => {
    while (section.next <= section.last) {
      const start = section.next;
      const newline = text.indexOf("\n", start);
      const end = newline === -1 ? text.length : newline;
      section.next = end + 1;
      const match = ENTRY.exec(text.slice(start, end));
      if (!match) continue;
      const listed: Listed = { title: retitled.get(start)?.title ?? match[3] ?? "", line: { start, end } };
      section.listed.push(listed);
      parsed.set(start, listed);
      return true;
    }
    return false;
  };

  const lines = findEntryLines(text, [...keys]);
  if (lines === undefined) return null;
  for (const entry of entries) {
    const found = lines.get(keyOf(entry.path));
    if (found === undefined) return null;
    if (found !== null) {
      const match = ENTRY.exec(text.slice(found.start, found.end));
      const title = linkTitle(entry.title);
      if (!match || match[3] === title) continue;
      retitled.set(found.start, { line: found, text: `${match[1]}${entryLink(entry)}${match[4]}`, title });
      const listed = parsed.get(found.start);
      if (listed) {
        listed.title = title;
        resumable = false;
      }
      continue;
    }
    const section = sectionFor(`## ${headingOf(entry.type)}`);
    if (section === null) return null;
    // Before the first entry whose title sorts after this one; else after the section's last entry.
    const line = `- ${entryLink(entry)}`;
    let placed = false;
    for (let i = walkStart(section, entry.title); i < section.listed.length || parseNext(section); i++) {
      const other = section.listed[i] as Listed;
      if (collator.compare(other.title, entry.title) > 0) {
        const anchor = other.line ? { at: other.line.start, before: true } : (other.added as { anchor: Anchor }).anchor;
        section.listed.splice(i, 0, { title: linkTitle(entry.title), line: null, added: { text: line, anchor } });
        placed = true;
        break;
      }
    }
    if (placed) continue;
    const lastListed = section.listed.at(-1);
    if (lastListed === undefined) return null; // a section without entries: the line-by-line edit places the line
    const anchor = lastListed.line ? { at: lastListed.line.end, before: false } : (lastListed.added as { anchor: Anchor }).anchor;
    section.listed.push({ title: linkTitle(entry.title), line: null, added: { text: line, anchor } });
  }
  return assemble(text, collectPatches(sections, retitled));
}

/** The retitles and, per place, the new lines in their order. */
function collectPatches(sections: ReadonlyMap<string, Section | null>, retitled: ReadonlyMap<number, { readonly line: Span; readonly text: string }>): Patch[] {
  const groups = new Map<string, { anchor: Anchor; lines: string[] }>();
  for (const section of sections.values()) {
    for (const listed of section?.listed ?? []) {
      if (!listed.added) continue;
      const { anchor, text } = listed.added;
      const id = `${anchor.at}:${anchor.before}`;
      const group = groups.get(id);
      if (group) group.lines.push(text);
      else groups.set(id, { anchor, lines: [text] });
    }
  }
  const patches: Patch[] = [];
  for (const { anchor, lines } of groups.values()) {
    patches.push({ at: anchor.at, end: anchor.at, text: anchor.before ? `${lines.join("\n")}\n` : `\n${lines.join("\n")}`, insert: lines, after: !anchor.before });
  }
  for (const { line, text } of retitled.values()) patches.push({ at: line.start, end: line.end, text, insert: [text], after: false });
  // In the text's order; at one offset, new lines before the line they precede is rewritten.
  return patches.sort((a, b) => a.at - b.at || a.end - a.at - (b.end - b.at));
}

/** The edited text's pieces and its hunks (the line numbers counted once, up to the last patch). */
function assemble(text: string, patches: readonly Patch[]): TextEdit {
  const pieces: string[] = [];
  const hunks: LineHunk[] = [];
  let cursor = 0;
  let lineNo = 0;
  let counted = 0;
  for (const patch of patches) {
    for (let at = text.indexOf("\n", counted); at !== -1 && at < patch.at; at = text.indexOf("\n", at + 1)) {
      lineNo += 1;
      counted = at + 1;
    }
    if (counted < patch.at) counted = patch.at;
    // A retitle replaces its line; new lines are inserted.
    const hunk: LineHunk = { at: patch.after ? lineNo + 1 : lineNo, remove: patch.end > patch.at ? [text.slice(patch.at, patch.end)] : [], insert: [...patch.insert] };
    const previous = hunks.at(-1);
    if (previous && previous.at === hunk.at) hunks[hunks.length - 1] = { at: hunk.at, remove: [...previous.remove, ...hunk.remove], insert: [...previous.insert, ...hunk.insert] };
    else hunks.push(hunk);
    pieces.push(text.slice(cursor, patch.at), patch.text);
    cursor = patch.end;
  }
  pieces.push(text.slice(cursor));
  return { pieces, hunks };
}
