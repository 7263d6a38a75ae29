/**
 * The note as a model step sees it: whole when it fits the room the window leaves, else its best
 * parts, cut only at paragraph boundaries (a fenced code block is one paragraph) and put back in
 * the note's own order, with a marker where something was left out.
 * - For the page-writing step: the start of each section the analysis names, then the opening, then
 *   the rest of those sections, then everything else. Pages can then quote the note instead of
 *   summarising its summary.
 * - For the analysis (no analysis yet): the opening, then the start of every section (its heading
 *   and first paragraph), then the rest, so the analysis sees what each part of the note is about.
 */
import type { Analysis } from "./schemas";

/** Where paragraphs were left out, so the model knows the text is not continuous. */
export const OMITTED = "[…]";

/** The paragraphs that count as the note's opening (its title, first lines). */
const OPENING_PARAGRAPHS = 3;

/** chars/3, on the high side like the window sizing: an estimate too low here is a prompt cut. */
const CHARS_PER_TOKEN = 3;

interface Paragraph {
  readonly index: number;
  readonly text: string;
  /** The section (from its level-2 to 6 heading) this paragraph belongs to; "" before the first. */
  readonly section: string;
  /** Its place in its section: 0 for the heading, 1 for the first paragraph after it… */
  readonly place: number;
}

/** Paragraphs split on blank lines, never inside a fenced code block; one pass over the lines. */
function paragraphs(text: string): Paragraph[] {
  const out: Paragraph[] = [];
  let lines: string[] = [];
  let fence: string | null = null;
  let section = "";
  let place = 0;
  const flush = () => {
    if (lines.length > 0) out.push({ index: out.length, text: lines.join("\n"), section, place: place++ });
    lines = [];
  };
  for (const line of text.split("\n")) {
    const trimmed = line.trimStart();
    const marker = /^(`{3,}|~{3,})/.exec(trimmed)?.[1];
    if (fence === null && line.trim() === "") {
      flush();
      continue;
    }
    if (fence === null && /^#{1,6}[ \t]/.test(trimmed)) {
      flush();
      // A level-1 heading is the note's title: it names the whole note, not one of its parts.
      if (!trimmed.startsWith("# ") && !trimmed.startsWith("#\t")) {
        section = trimmed.replace(/^#+/, "").trim().toLowerCase();
        place = 0;
      }
    }
    if (marker) {
      if (fence === null) fence = marker[0] ?? "`";
      else if (marker.startsWith(fence)) fence = null;
    }
    lines.push(line);
  }
  flush();
  return out;
}

/** The names the analysis gives, most telling first: concepts, entities, topics. */
function namedSubjects(analysis: Analysis | null): string[] {
  if (!analysis) return [];
  const names = [...analysis.concepts.map((c) => c.name), ...analysis.entities.map((e) => e.name), ...analysis.topics];
  return names.map((name) => name.trim().toLowerCase()).filter((name) => name.length > 0);
}

/** The rank of a paragraph's section among the named subjects, or -1 when it names none. */
function sectionRank(section: string, subjects: readonly string[]): number {
  if (!section) return -1;
  return subjects.findIndex((subject) => section.includes(subject) || subject.includes(section));
}

/** The longest prefix of `text` within `chars`, ending at whitespace where it can and never inside a surrogate pair. */
function cutAtWord(text: string, chars: number): string {
  let end = Math.min(text.length, chars);
  const code = text.charCodeAt(end - 1);
  if (end < text.length && code >= 0xd800 && code <= 0xdbff) end -= 1;
  const head = text.slice(0, end);
  const space = Math.max(head.lastIndexOf(" "), head.lastIndexOf("\n"));
  return space > chars / 2 ? head.slice(0, space) : head;
}

/** The token estimate the excerpt's room is measured in. */
export function excerptTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/**
 * The note's text within `maxTokens`: all of it when it fits; otherwise whole paragraphs in the
 * order named sections, opening, rest (without an analysis: opening, section starts, rest), shown
 * in the note's order. Empty when there is no room.
 */
export function noteExcerpt(text: string, analysis: Analysis | null, maxTokens: number): string {
  const room = Math.max(0, Math.floor(maxTokens)) * CHARS_PER_TOKEN;
  if (text.length <= room) return text;
  if (room === 0) return "";
  const all = paragraphs(text);
  const subjects = namedSubjects(analysis);
  // The start of each named section (heading and first paragraph), by the subject's rank; then the
  // opening; then the rest of the named sections (without an analysis: every section's start);
  // then everything else in the note's order.
  const tier = (paragraph: Paragraph, rank: number): number => {
    if (rank >= 0) return paragraph.place <= 1 ? 0 : 2;
    if (paragraph.index < OPENING_PARAGRAPHS) return 1;
    return !analysis && paragraph.section && paragraph.place <= 1 ? 2 : 3;
  };
  const ranked = all
    .map((paragraph) => {
      const rank = sectionRank(paragraph.section, subjects);
      return { paragraph, rank, tier: tier(paragraph, rank) };
    })
    .sort((a, b) => a.tier - b.tier || (a.tier === 0 ? a.rank - b.rank : 0) || a.paragraph.index - b.paragraph.index);
  const chosen: Paragraph[] = [];
  // Room for one more marker than paragraphs (a gap on both sides of each, in the worst case).
  let used = OMITTED.length;
  for (const { paragraph } of ranked) {
    // Each kept paragraph costs its text, a marker before it and two separators.
    const cost = paragraph.text.length + OMITTED.length + 4;
    if (used + cost > room) continue;
    chosen.push(paragraph);
    used += cost;
  }
  if (chosen.length === 0) {
    // Not even one paragraph fits: the opening, cut at a word, marked as cut when there is room for that.
    const first = all[0]?.text ?? "";
    const space = room - OMITTED.length - 2;
    return space > 0 ? `${cutAtWord(first, space)}\n\n${OMITTED}` : cutAtWord(first, room);
  }
  chosen.sort((a, b) => a.index - b.index);
  const parts: string[] = [];
  let next = 0;
  for (const paragraph of chosen) {
    if (paragraph.index > next) parts.push(OMITTED);
    parts.push(paragraph.text);
    next = paragraph.index + 1;
  }
  if (next < all.length) parts.push(OMITTED);
  return parts.join("\n\n");
}
