/**
 * Where Markdown is code, after CommonMark: `[[x]]` inside a fenced block or an inline code span is
 * text, not a link, and so is an escaped `\[[x]]`. Everything that reads links, tags or headings
 * (validator, writer, retrieval, lint, the Offline provider) asks this one scanner.
 *
 * Fences follow CommonMark: three or more backticks or tildes; a backtick fence's info string holds
 * no backtick; the closing fence uses the same character, is at least as long and carries nothing
 * but spaces; an unclosed fence runs to the end. Fences are recognised after any indentation,
 * block-quote markers or list marker (a fence inside a list item or a quote). An indented code block
 * (four spaces or a tab) counts only after a blank line and outside a list: in notes, indentation
 * inside a list continues the item, and CommonMark reads it so too. Inline spans: a run of
 * n backticks closes at the next run of exactly n, within the paragraph; otherwise it is literal.
 */

export interface CodeRange {
  readonly start: number;
  /** Exclusive. */
  readonly end: number;
}

/** A fence may open after indentation, block-quote markers and a list item's marker. */
const FENCE_OPEN = /^[ \t]*(?:>[ \t]?|(?:[-*+]|\d{1,9}[.)])[ \t]+)*(`{3,}|~{3,})(.*)$/;

function closesFence(line: string, fence: string): boolean {
  const match = /^[ \t]*(?:>[ \t]?)*[ \t]*(`{3,}|~{3,})[ \t]*$/.exec(line);
  return match?.[1] !== undefined && match[1][0] === fence[0] && match[1].length >= fence.length;
}

/** A list item's first line: a bullet or a number, after at most three spaces. */
const LIST_ITEM = /^ {0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/;

/** Four spaces or a tab before the first character: an indented code line, where one may start. */
function isIndented(line: string): boolean {
  return /^(?: {4}| {0,3}\t)/.test(line) && line.trim() !== "";
}

/**
 * Fenced and indented code blocks (fence lines included, up to the end of the closing line) and,
 * between them, paragraphs.
 */
function blocks(markdown: string): { code: CodeRange[]; prose: CodeRange[] } {
  const code: CodeRange[] = [];
  const prose: CodeRange[] = [];
  let fence: string | null = null;
  let blockStart = 0;
  let paragraphStart = -1;
  let offset = 0;
  // An indented block: where it started and where its last non-blank line ended (-1 when none is open).
  let indentedStart = -1;
  let indentedEnd = -1;
  let previousBlank = true;
  let inList = false;
  const endParagraph = (at: number) => {
    if (paragraphStart >= 0) prose.push({ start: paragraphStart, end: at });
    paragraphStart = -1;
  };
  const endIndented = () => {
    if (indentedStart >= 0) code.push({ start: indentedStart, end: indentedEnd });
    indentedStart = -1;
  };
  for (const raw of markdown.split("\n")) {
    const lineEnd = offset + raw.length;
    // A CRLF note (Windows) leaves "\r" on every line; the fence patterns must not see it.
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    const blank = line.trim() === "";
    if (fence !== null) {
      if (closesFence(line, fence)) {
        code.push({ start: blockStart, end: lineEnd });
        fence = null;
      }
    } else if (indentedStart >= 0 && (blank || isIndented(line))) {
      if (!blank) indentedEnd = lineEnd;
    } else {
      endIndented();
      const open = FENCE_OPEN.exec(line);
      const marker = open?.[1];
      if (isIndented(line) && previousBlank && !inList) {
        endParagraph(offset);
        indentedStart = offset;
        indentedEnd = lineEnd;
      } else if (marker && !(marker.startsWith("`") && (open[2] ?? "").includes("`"))) {
        endParagraph(offset);
        fence = marker;
        blockStart = offset;
      } else if (blank) {
        endParagraph(offset);
      } else {
        // A list lasts until a line after a blank one starts at the margin and is not an item.
        if (LIST_ITEM.test(line)) inList = true;
        else if (previousBlank && !/^[ \t]/.test(line)) inList = false;
        if (paragraphStart < 0) paragraphStart = offset;
      }
    }
    previousBlank = blank;
    offset = lineEnd + 1;
  }
  if (fence !== null) code.push({ start: blockStart, end: markdown.length });
  endIndented();
  endParagraph(markdown.length);
  return { code, prose };
}

/**
 * The next backslash or backtick at or after a position, found with `indexOf` (a note of megabytes
 * is read in milliseconds, not character by character). Positions only move forward, paragraph
 * after paragraph, so each character is searched once.
 */
class NextSpecial {
  /** The next of each at or after the last position asked for: null before the first search, -1 when none is left. */
  private backslash: number | null = null;
  private backtick: number | null = null;

  constructor(private readonly markdown: string) {}

  /** The first backslash or backtick at or after `from` (never less than the last `from`), or -1. */
  at(from: number): number {
    this.backslash = this.nextOf("\\", this.backslash, from);
    this.backtick = this.nextOf("`", this.backtick, from);
    if (this.backslash < 0) return this.backtick;
    if (this.backtick < 0) return this.backslash;
    return Math.min(this.backslash, this.backtick);
  }

  private nextOf(char: string, known: number | null, from: number): number {
    if (known === -1 || (known !== null && known >= from)) return known;
    return this.markdown.indexOf(char, from);
  }
}

/**
 * The backtick runs of a paragraph by length, each list in order, with a cursor per length: a span
 * of n backticks closes at the next run of exactly n, and asking only moves the cursors forward, so
 * a paragraph of unclosed runs of every length is read once, not once per run.
 */
class BacktickRuns {
  private readonly byLength = new Map<number, { starts: number[]; next: number }>();

  constructor(markdown: string, from: number, to: number) {
    let i = markdown.indexOf("`", from);
    while (i >= 0 && i < to) {
      let end = i;
      while (end < to && markdown[end] === "`") end++;
      const runs = this.byLength.get(end - i) ?? { starts: [], next: 0 };
      runs.starts.push(i);
      this.byLength.set(end - i, runs);
      i = markdown.indexOf("`", end);
    }
  }

  /** Start of the first run of exactly `length` backticks at or after `from`, or -1. */
  next(length: number, from: number): number {
    const runs = this.byLength.get(length);
    if (!runs) return -1;
    while (runs.next < runs.starts.length && (runs.starts[runs.next] ?? 0) < from) runs.next++;
    return runs.starts[runs.next] ?? -1;
  }
}

/** Inline code spans and escaped characters (`\[`, `` \` ``, `\\`) within one paragraph. */
function inlineRanges(markdown: string, paragraph: CodeRange, spans: CodeRange[], escapes: CodeRange[], next: NextSpecial): void {
  let runs: BacktickRuns | null = null;
  let i = paragraph.start;
  while (i < paragraph.end) {
    // Only a backslash or a backtick can start an escape or a span.
    const special = next.at(i);
    if (special < 0 || special >= paragraph.end) return;
    i = special;
    const char = markdown[i];
    if (char === "\\" && i + 1 < paragraph.end && "[`\\".includes(markdown[i + 1] ?? "")) {
      escapes.push({ start: i, end: i + 2 });
      i += 2;
      continue;
    }
    if (char !== "`") {
      i++;
      continue;
    }
    let runEnd = i;
    while (runEnd < paragraph.end && markdown[runEnd] === "`") runEnd++;
    const length = runEnd - i;
    runs ??= new BacktickRuns(markdown, i, paragraph.end);
    const close = runs.next(length, runEnd);
    if (close < 0) {
      i = runEnd; // no closer of the same length: the backticks are literal
      continue;
    }
    spans.push({ start: i, end: close + length });
    i = close + length;
  }
}

/** Code in `markdown`: fenced blocks and inline spans, in order. */
export function codeRanges(markdown: string): CodeRange[] {
  return scan(markdown).code;
}

function scan(markdown: string): { code: CodeRange[]; escapes: CodeRange[] } {
  const { code: fenced, prose } = blocks(markdown);
  const spans: CodeRange[] = [];
  const escapes: CodeRange[] = [];
  const next = new NextSpecial(markdown);
  for (const paragraph of prose) inlineRanges(markdown, paragraph, spans, escapes, next);
  return { code: [...fenced, ...spans].sort((a, b) => a.start - b.start), escapes };
}

/**
 * `markdown` with code and escaped characters blanked out (line breaks kept), the same length, so
 * a match found in the result lies at the same offset in the original.
 */
export function maskCode(markdown: string): string {
  const { code, escapes } = scan(markdown);
  const ranges = [...code, ...escapes].sort((a, b) => a.start - b.start);
  let out = "";
  let at = 0;
  for (const { start, end } of ranges) {
    out += markdown.slice(at, start) + markdown.slice(start, end).replace(/[^\n]/g, " ");
    at = end;
  }
  return out + markdown.slice(at);
}

/** `markdown` without its code (fenced blocks and inline spans); escapes are left as written. */
export function removeCode(markdown: string): string {
  let out = "";
  let at = 0;
  for (const { start, end } of codeRanges(markdown)) {
    out += markdown.slice(at, start);
    at = end;
  }
  return out + markdown.slice(at);
}

/** A match found by a scanner: where it starts and where it ends (exclusive). */
export interface TextMatch {
  readonly index: number;
  readonly end: number;
}

/** The matches a scanner finds that lie wholly outside code and escapes, as they stand in `markdown`. */
export function* matchesOutsideCode<T extends TextMatch>(markdown: string, find: (text: string) => Iterable<T>): Generator<T> {
  const masked = maskCode(markdown);
  for (const match of find(masked)) {
    // A match that touches code or an escape reads differently in the original: it is not one.
    if (markdown.startsWith(masked.slice(match.index, match.end), match.index)) yield match;
  }
}

/** Replaces the matches a scanner finds that lie wholly outside code; the rest stays as written. */
export function replaceOutsideCode<T extends TextMatch>(markdown: string, find: (text: string) => Iterable<T>, replace: (match: T) => string): string {
  let out = "";
  let at = 0;
  for (const match of matchesOutsideCode(markdown, find)) {
    out += markdown.slice(at, match.index) + replace(match);
    at = match.end;
  }
  return out + markdown.slice(at);
}
