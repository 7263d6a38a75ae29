/**
 * Finds where the object a model meant lies in its reply, and whether that object was ever
 * closed — judged BEFORE any repair, because a repair library happily closes JSON that was cut off
 * mid-object, and a truncated page must never be written.
 *
 * The scan knows just enough JSON to do that: double-quoted strings with escapes, typographic
 * quotes used as string delimiters, `//` and `/* *\/` comments, and two shapes local models write
 * around an object: an echoed `{{` (the prefill repeated, or template-style doubled braces) and an
 * object body whose opening brace is missing (`"title": …}`). While it copies a span it also
 * doubles backslashes that start no JSON escape (`C:\Projects\Vault`), which a repair would
 * otherwise silently drop. Everything else (trailing commas, raw newlines, Python constants…) is
 * left to the repair library.
 */

/** A candidate object span, the text to parse (comments and echo braces removed). */
export interface ObjectSpan {
  readonly kind: "object";
  readonly text: string;
}

export type ScanResult = ObjectSpan | { readonly kind: "truncated" } | { readonly kind: "none" };

const OPEN_TYPOGRAPHIC = new Set(["\u201C", "\u201E"]);
const CLOSE_TYPOGRAPHIC = new Set(["\u201D", "\u201C"]);
const SIMPLE_ESCAPES = new Set(['"', "\\", "/", "b", "f", "n", "r", "t"]);
const BRACKET_ESCAPES: Readonly<Record<string, string>> = { "{": "\\u007b", "}": "\\u007d", "[": "\\u005b", "]": "\\u005d" };
/** An object body whose opening brace is missing: the text starts with `"key":`. */
const BARE_BODY = /^\s*["\u201C\u201E][^"\u201C\u201D\u201E\n]{0,200}["\u201D\u201C]\s*:/;

/** The escape that starts at `text[i]` (a backslash), written so JSON.parse keeps what was meant. */
function copyEscape(text: string, i: number): { out: string; width: number } {
  const next = text[i + 1];
  if (next === undefined) return { out: "\\", width: 1 };
  if (SIMPLE_ESCAPES.has(next)) return { out: `\\${next}`, width: 2 };
  if (next === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return { out: text.slice(i, i + 6), width: 6 };
  // Not an escape JSON knows: the model meant a literal backslash (a Windows path, a regex).
  return { out: "\\\\", width: 1 };
}

/** Index just past a comment starting at `i`, or -1 when no comment starts there. */
function skipComment(text: string, i: number): number {
  if (text[i] !== "/") return -1;
  if (text[i + 1] === "/") {
    const end = text.indexOf("\n", i + 2);
    return end < 0 ? text.length : end;
  }
  if (text[i + 1] === "*") {
    const end = text.indexOf("*/", i + 2);
    // An unclosed block comment swallows the rest, which therefore never closes the object.
    return end < 0 ? text.length : end + 2;
  }
  return -1;
}

function nextSignificant(text: string, from: number): number {
  let i = from;
  while (i < text.length && /\s/.test(text[i] ?? "")) i++;
  return i;
}

/** Index of the first character that is neither whitespace nor part of a comment. */
function skipLeadingComments(text: string): number {
  let i = nextSignificant(text, 0);
  for (let after = skipComment(text, i); after >= 0; after = skipComment(text, i)) i = nextSignificant(text, after);
  return i;
}

interface Frame {
  /** This brace was doubled (`{{`); its matching `}}` closes it once. */
  doubled: boolean;
  /** Nothing but whitespace since the brace opened. */
  empty: boolean;
}

/**
 * Scans from `start` for the next object. `bare` means an opening brace is assumed at `start`
 * (the model left it out). Returns the span and where the scan stopped.
 */
function scanFrom(text: string, start: number, bare: boolean): { result: ScanResult; end: number } {
  const stack: Frame[] = [];
  let out = "";
  let i = start;
  if (bare) {
    stack.push({ doubled: false, empty: true });
    out = "{";
  } else {
    // Prose before the object may hold unbalanced quotes, so it is not read as JSON.
    i = text.indexOf("{", start);
    if (i < 0) return { result: { kind: "none" }, end: text.length };
  }
  let quote: "plain" | "single" | "typographic" | null = null;
  while (i < text.length) {
    const ch = text[i] ?? "";
    if (quote) {
      if (ch === "\\") {
        // `\'` only escapes something inside a single-quoted (Python-style) string.
        const escape = quote === "single" && text[i + 1] === "'" ? { out: "\\'", width: 2 } : copyEscape(text, i);
        out += escape.out;
        i += escape.width;
        continue;
      }
      if ((quote === "plain" && ch === '"') || (quote === "single" && ch === "'") || (quote === "typographic" && CLOSE_TYPOGRAPHIC.has(ch))) quote = null;
      // Brackets inside strings are written as escapes (the same text once parsed), so the repair
      // library's guesses about missing quotes cannot mistake them for structure.
      out += BRACKET_ESCAPES[ch] ?? ch;
      i++;
      continue;
    }
    const afterComment = skipComment(text, i);
    if (afterComment >= 0) {
      i = afterComment;
      continue;
    }
    const top = stack[stack.length - 1];
    if (ch === "{") {
      if (top?.empty) {
        // `{{`: valid JSON never opens an object as a key, so the outer brace is an echo.
        top.doubled = true;
        i++;
        continue;
      }
      if (top) top.empty = false;
      stack.push({ doubled: false, empty: true });
    } else if (ch === "}") {
      stack.pop();
      out += ch;
      i++;
      if (top?.doubled) {
        const j = nextSignificant(text, i);
        if (text[j] === "}") i = j + 1;
      }
      if (stack.length === 0) return { result: { kind: "object", text: out }, end: i };
      continue;
    } else if (!/\s/.test(ch) && top) {
      top.empty = false;
      if (ch === '"') quote = "plain";
      else if (ch === "'") quote = "single";
      else if (OPEN_TYPOGRAPHIC.has(ch)) quote = "typographic";
    }
    out += ch;
    i++;
  }
  // The text ended inside the object: cut off, whatever a repair could make of it.
  return { result: { kind: "truncated" }, end: text.length };
}

/**
 * Every object span in the text, in order, at most `limit`. When the last one never closes, the
 * list ends with `truncated`. An object body without its opening brace counts when the text
 * starts with one.
 */
export function scanObjects(text: string, limit = 8): ScanResult[] {
  const found: ScanResult[] = [];
  let position = 0;
  let bare = BARE_BODY.test(text.slice(skipLeadingComments(text)));
  while (found.length < limit && position < text.length) {
    const { result, end } = scanFrom(text, position, bare);
    bare = false;
    if (result.kind === "none") break;
    found.push(result);
    if (result.kind === "truncated") break;
    position = end;
  }
  return found;
}
