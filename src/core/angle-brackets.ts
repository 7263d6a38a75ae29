/**
 * What a `<` in model-written Markdown opens, read the way CommonMark reads it: one of the few
 * harmless inline tags Synapse lets through, an autolink, an e-mail autolink, or the pointy
 * destination of a link (`[x](<My note.md>)`). Anything else that could start HTML is escaped by
 * the caller. Every recogniser looks ahead a bounded distance or stops at the first `<`, `>` or
 * space, so a line is never read more than twice.
 */

/**
 * Inline tags that cannot run anything when written without attributes, and none of which can
 * open a CommonMark HTML block by its name (div, details, table… can, and are escaped).
 */
export const ALLOWED_TAGS: ReadonlySet<string> = new Set(["b", "i", "u", "s", "em", "strong", "small", "mark", "sub", "sup", "kbd", "del", "ins", "span", "br"]);

/** URL schemes whose links run code or reach outside the vault. */
export const UNSAFE_SCHEMES: ReadonlySet<string> = new Set(["javascript", "vbscript", "file", "data"]);

export type Angle =
  /** `<b>`, `</b>`, `<br/>`: kept as written. */
  | { readonly kind: "tag"; readonly end: number }
  /** `<https://…>`; `scheme` lowercased. */
  | { readonly kind: "autolink"; readonly scheme: string; readonly end: number }
  /** `<someone@example.org>`: kept as written. */
  | { readonly kind: "email"; readonly end: number }
  /** `<My note.md>` right after `](` and closed before `)`: a link destination, not HTML. */
  | { readonly kind: "destination"; readonly end: number };

const isLetter = (c: string | undefined): boolean => c !== undefined && ((c >= "a" && c <= "z") || (c >= "A" && c <= "Z"));
const isDigit = (c: string | undefined): boolean => c !== undefined && c >= "0" && c <= "9";
const isSpace = (c: string | undefined): boolean => c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\f" || c === "\v";

function allowedTag(line: string, at: number): number | null {
  let i = at + 1;
  if (line[i] === "/") i++;
  const nameStart = i;
  while (isLetter(line[i]) && i - nameStart <= 8) i++;
  const name = line.slice(nameStart, i).toLowerCase();
  if (!ALLOWED_TAGS.has(name)) return null;
  const closing = line[at + 1] === "/";
  if (line[i] === ">") return i + 1;
  // A void `<br/>` or `<br />`; no other tag closes itself.
  if (!closing && name === "br") {
    if (line[i] === " ") i++;
    if (line[i] === "/" && line[i + 1] === ">") return i + 2;
  }
  return null;
}

function autolink(line: string, at: number): Angle | null {
  let i = at + 1;
  if (!isLetter(line[i])) return null;
  while (i - at <= 33 && (isLetter(line[i]) || isDigit(line[i]) || line[i] === "+" || line[i] === "." || line[i] === "-")) i++;
  const schemeLength = i - at - 1;
  if (line[i] !== ":" || schemeLength < 2 || schemeLength > 32) return null;
  const scheme = line.slice(at + 1, i).toLowerCase();
  for (i++; i < line.length; i++) {
    const c = line[i] ?? "";
    if (c === ">") return { kind: "autolink", scheme, end: i + 1 };
    if (c === "<" || isSpace(c) || c < " ") return null;
  }
  return null;
}

const EMAIL_LOCAL = /[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]/;

function email(line: string, at: number): Angle | null {
  let i = at + 1;
  while (i < line.length && EMAIL_LOCAL.test(line[i] ?? "")) i++;
  if (i === at + 1 || line[i] !== "@") return null;
  i++;
  // Labels of letters, digits and inner hyphens, at most 63 each, separated by dots.
  for (;;) {
    const label = i;
    while (i - label < 63 && (isLetter(line[i]) || isDigit(line[i]) || line[i] === "-")) i++;
    if (i === label || line[label] === "-" || line[i - 1] === "-") return null;
    if (line[i] === ">") return { kind: "email", end: i + 1 };
    if (line[i] !== ".") return null;
    i++;
  }
}

function destination(line: string, at: number): Angle | null {
  if (line[at - 1] !== "(" || line[at - 2] !== "]") return null;
  for (let i = at + 1; i < line.length; i++) {
    const c = line[i];
    if (c === "\\") {
      i++;
      continue;
    }
    if (c === "<") return null;
    if (c === ">") {
      let j = i + 1;
      while (line[j] === " " || line[j] === "\t") j++;
      // Only a link that closes right there: a broken one would leave the brackets to be read as a tag.
      return line[j] === ")" ? { kind: "destination", end: i + 1 } : null;
    }
  }
  return null;
}

/** What the `<` at `at` opens, or null when it is not one of the harmless readings. */
export function recogniseAngle(line: string, at: number): Angle | null {
  const tagEnd = allowedTag(line, at);
  if (tagEnd !== null) return { kind: "tag", end: tagEnd };
  return destination(line, at) ?? autolink(line, at) ?? email(line, at);
}

/** Would a `<` followed by this character start HTML (a tag, comment, declaration, instruction)? */
export function couldOpenHtml(next: string | undefined): boolean {
  return isLetter(next) || next === "/" || next === "!" || next === "?";
}
