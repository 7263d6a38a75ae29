/**
 * Cuts a note into heading-sized chunks for the index. Frontmatter gives the title, aliases, tags
 * and sources (read elsewhere, note-frontmatter.ts: no YAML parser here, so the index's worker
 * bundles none); each heading starts a chunk (headings inside fenced code do not); a section longer
 * than MAX_CHUNK_CHARS is cut again at a blank line. Synapse's source markers and attribution
 * lines are neither searchable nor a chunk of their own (see provenance-strip.ts). Code stays searchable; links are indexed by
 * what a reader sees ("[[Target|label]]" → "label Target"). Offsets point into the note's text so a
 * hit can show its own words without the index holding every note's text in memory.
 */
import { bodyStart } from "../core/frontmatter-block";
import { isProvenanceLine, stripProvenance } from "../core/provenance-strip";
import { delimited, oneOf, replaceDelimited, spaceOr } from "../core/text-scan";
import type { NoteFrontmatter } from "./note-frontmatter";

export interface Chunk {
  /** The heading that opens the chunk ("" for the text before the first heading). */
  readonly heading: string;
  /** Where the chunk's text starts and ends in the note (UTF-16 offsets). */
  readonly start: number;
  readonly end: number;
}

export interface ParsedNote {
  /** The frontmatter title, or the file name without `.md`. */
  readonly title: string;
  readonly aliases: readonly string[];
  readonly tags: readonly string[];
  readonly sources: readonly string[];
  readonly chunks: readonly Chunk[];
}

export const MAX_CHUNK_CHARS = 4000;
const FENCE = /^(`{3,}|~{3,})/;
const HEADING = /^(#{1,6})[ \t]+(.+?)[ \t#]*$/;

export function basenameOf(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  return name.toLowerCase().endsWith(".md") ? name.slice(0, -3) : name;
}

/** A note parsed for the index, with its frontmatter values read by whoever holds a YAML parser (note-frontmatter.ts). */
export function parseNoteWith(path: string, markdown: string, frontmatter: NoteFrontmatter): ParsedNote {
  return {
    title: frontmatter.title ?? basenameOf(path),
    aliases: frontmatter.aliases,
    tags: frontmatter.tags,
    sources: frontmatter.sources,
    chunks: chunkNote(markdown),
  };
}

/** A note's chunks: they depend on where its frontmatter ends, never on what it says. */
export function chunkNote(markdown: string): Chunk[] {
  return chunkBody(markdown, bodyStart(markdown));
}

function chunkBody(text: string, from: number): Chunk[] {
  const sections: { heading: string; start: number }[] = [{ heading: "", start: from }];
  let fence: string | null = null;
  let pos = from;
  while (pos < text.length) {
    let eol = text.indexOf("\n", pos);
    if (eol < 0) eol = text.length;
    const line = text.slice(pos, eol).replace(/\r$/, "");
    const fenceMatch = FENCE.exec(line);
    if (fence) {
      if (fenceMatch && line.startsWith(fence)) fence = null;
    } else if (fenceMatch) {
      fence = fenceMatch[1] ?? null;
    } else {
      const heading = HEADING.exec(line);
      if (heading) sections.push({ heading: (heading[2] ?? "").trim(), start: pos });
    }
    pos = eol + 1;
  }
  const out: Chunk[] = [];
  sections.forEach((section, i) => {
    const end = sections[i + 1]?.start ?? text.length;
    // A section of nothing but Synapse's bookkeeping (the marker and attribution line that open a
    // source section before its first heading) is no chunk: found by the attribution's note name,
    // it would stand for its page in a search and say nothing.
    if (stripProvenance(text.slice(section.start, end)) === "") return;
    for (const [start, stop] of cutLong(text, section.start, end)) out.push({ heading: section.heading, start, end: stop });
  });
  return out;
}

/** Long sections become several chunks, cut at a paragraph break when there is one. */
function cutLong(text: string, start: number, end: number): [number, number][] {
  const out: [number, number][] = [];
  let from = start;
  while (end - from > MAX_CHUNK_CHARS) {
    const window = text.slice(from, from + MAX_CHUNK_CHARS);
    const para = window.lastIndexOf("\n\n");
    const cut = para > MAX_CHUNK_CHARS / 2 ? from + para + 2 : from + (window.lastIndexOf("\n") > MAX_CHUNK_CHARS / 2 ? window.lastIndexOf("\n") + 1 : MAX_CHUNK_CHARS);
    out.push([from, cut]);
    from = cut;
  }
  out.push([from, end]);
  return out;
}

/** The words a chunk is found by: its text with links shown as their label and their target. */
export function searchableText(markdown: string, chunk: Chunk): string {
  // Synapse's markers and attribution lines are not the page's words: a page is not found by the
  // name of a note it was drawn from, nor by "synapse", "source" and a hash.
  const text = withoutProvenanceLines(markdown.slice(chunk.start, chunk.end));
  // Most chunks hold no link: every pattern below needs a "[[" or a "](" to match anything.
  if (!text.includes("[[") && !text.includes("](")) return text;
  // As `/!?\[\[([^\]|\n]*)\|([^\]\n]*)\]\]/g` → "$2 $1", `/!?\[\[([^\]\n]*)\]\]/g` → "$1" and
  // `/\]\((?:[a-z]+:\/\/)?[^)\s]*\)/gi` → "]" did, in single passes (the tokens are the index's format).
  const aliased = replaceLinks(text, (inner) => {
    const bar = inner.indexOf("|");
    return bar < 0 ? null : `${inner.slice(bar + 1)} ${inner.slice(0, bar)}`;
  });
  return replaceDelimited(
    replaceLinks(aliased, (inner) => inner),
    "](",
    spaceOr(")"),
    ")",
    () => "]",
  );
}

/** The text without Synapse's bookkeeping lines; every other character as it stands. */
function withoutProvenanceLines(text: string): string {
  if (!text.includes("%%") && !text.includes("*From [[")) return text;
  return text
    .split("\n")
    .filter((line) => !isProvenanceLine(line))
    .join("\n");
}

/**
 * Replaces `!?[[inner]]` (inner without `]` or a line break) by what `replace` makes of the inner
 * text; null leaves the link as written. A link left as written hides no other: any `[[` inside it
 * ends at the same `]`, with an inner text that is a part of this one's.
 */
function replaceLinks(text: string, replace: (inner: string) => string | null): string {
  let out = "";
  let at = 0;
  for (const link of delimited(text, "[[", oneOf("]\n"), "]]")) {
    const replaced = replace(link.inner);
    if (replaced === null) continue;
    const start = link.index - 1 >= at && text[link.index - 1] === "!" ? link.index - 1 : link.index;
    out += text.slice(at, start) + replaced;
    at = link.end;
  }
  return out + text.slice(at);
}
