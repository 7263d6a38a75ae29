/**
 * Plain prose for language detection and term extraction: no code, links, URLs, HTML or markup.
 * Each step removes one kind of markup from the result of the one before, as a chain of regular
 * expressions once did; the steps that such a regex made quadratic on a long line (every `[`, `<`
 * or line start reading on to the end of the line or of a run of blank lines) are single passes.
 */
import { stripCode } from "./markdown";
import { delimited, markdownLinks, oneOf, replaceDelimited, spaceOr } from "./text-scan";

const LINE_TERMINATORS = "\n\r\u2028\u2029";
const SPACE = /^\s$/;

/** Footnote marks (`[^1]`, `[^1]:`), as `/\[\^[^\]\s]+\]:?/g` found them. */
function withoutFootnoteMarks(text: string): string {
  let out = "";
  let at = 0;
  for (const mark of delimited(text, "[^", spaceOr("]"), "]", { minInner: 1 })) {
    out += `${text.slice(at, mark.index)} `;
    at = text[mark.end] === ":" ? mark.end + 1 : mark.end;
  }
  return out + text.slice(at);
}

/** `open…close` spans replaced by a space, as `/open[\s\S]*?close/g` found them. */
function withoutEnclosed(text: string, open: string, close: string): string {
  let out = "";
  let at = 0;
  for (let start = text.indexOf(open); start >= 0; start = text.indexOf(open, at)) {
    const end = text.indexOf(close, start + open.length);
    if (end < 0) break; // no close after this open: none after any later one either
    out += `${text.slice(at, start)} `;
    at = end + close.length;
  }
  return out + text.slice(at);
}

/**
 * What `/^\s*REST/gm` replaced by " ", where `rest` (sticky) cannot begin with whitespace: from a
 * line start, the whitespace runs to the first other character and REST must match there, so every
 * line start in that run of whitespace succeeds or fails alike and is tried once.
 */
function replaceAfterLineStart(text: string, rest: RegExp): string {
  let out = "";
  let at = 0;
  let line = 0;
  while (line <= text.length) {
    let first = line;
    while (first < text.length && SPACE.test(text[first] ?? "")) first++;
    rest.lastIndex = first;
    const match = rest.exec(text);
    let next = first;
    if (match && match[0].length > 0) {
      out += `${text.slice(at, line)} `;
      at = first + match[0].length;
      next = at;
      if (at > 0 && LINE_TERMINATORS.includes(text[at - 1] ?? "_")) {
        line = at;
        continue;
      }
    }
    const nextLine = nextLineStart(text, next);
    if (nextLine < 0) break;
    line = nextLine;
  }
  return out + text.slice(at);
}

/** The first line start after `from` (a position just after a line terminator), or -1. */
function nextLineStart(text: string, from: number): number {
  for (let i = from; i < text.length; i++) if (LINE_TERMINATORS.includes(text[i] ?? "_")) return i + 1;
  return -1;
}

const CALLOUT = /[>]\s*\[![^\]\n]*\][-+]?/y;
const LIST_MARK = /(?:[-*+]|\d+[.)])\s+/y;

export function plainText(markdown: string): string {
  let text = stripCode(markdown)
    // Block ids (`text ^b15695`, or alone on a line) are addresses, not words.
    .replace(/(^|[ \t])\^[A-Za-z0-9-]+[ \t]*$/gm, "$1");
  // Footnote marks (`[^1]`) likewise; a footnote's own text stays.
  text = withoutFootnoteMarks(text);
  text = withoutEnclosed(text, "<!--", "-->");
  text = withoutEnclosed(text, "%%", "%%");
  text = replaceDelimited(text, "<", oneOf(">\n"), ">", () => " ", { minInner: 1 });
  text = replaceDelimited(text, "![[", oneOf("]\n"), "]]", () => " ");
  text = replaceDelimited(text, "[[", oneOf("]\n"), "]]", (link) => {
    const bar = link.inner.indexOf("|");
    return bar >= 0 ? link.inner.slice(bar + 1) : text.slice(link.index, link.end);
  });
  text = replaceDelimited(text, "[[", oneOf("]\n"), "]]", (link) => link.inner.replace(/[#^].*$/, ""));
  text = replaceMarkdownLinks(text, true, () => " ");
  text = replaceMarkdownLinks(text, false, (label) => label);
  return replaceAfterLineStart(replaceAfterLineStart(text.replace(/https?:\/\/\S+/g, " "), CALLOUT), LIST_MARK)
    .replace(/-{2,}|[#>*_|~=^`]+/g, " ")
    .replace(/[ \t]+/g, " ");
}

/** `[label](destination)` (or only `![label](destination)`) replaced, as `/!?\[([^\]\n]*)\]\([^)\n]*\)/g` found them. */
function replaceMarkdownLinks(text: string, embedsOnly: boolean, replace: (label: string) => string): string {
  let out = "";
  let at = 0;
  for (const link of markdownLinks(text, oneOf(")\n"), () => true, embedsOnly)) {
    const start = link.embed && !embedsOnly ? link.index + 1 : link.index;
    out += text.slice(at, start) + replace(link.label);
    at = link.end;
  }
  return out + text.slice(at);
}
