/**
 * One line of model-written Markdown outside fenced code, made inert in a single left-to-right
 * pass (no backtracking, each character read at most a bounded number of times):
 *
 * - a `<` that could start HTML is escaped as `&lt;` (the text stays visible as data), unless it
 *   opens an allowed attribute-less inline tag (`<b>`, `</em>`, `<br/>`…) that does not stand alone
 *   on its line (alone, CommonMark would read it as the start of an HTML block), an autolink with a
 *   harmless scheme, an e-mail autolink or a link's pointy destination;
 * - the colon of a `javascript:`, `vbscript:`, `file:` or `data:` URL — however spelled: any case,
 *   tabs inside, entities, percent or backslash escapes — becomes a fullwidth colon `：`, so the
 *   text reads the same and no link, embed or autolink reaches that scheme;
 * - inline code is left as written, but for Dataview's inline JavaScript (`` `$= …` ``).
 */
import { UNSAFE_SCHEMES, couldOpenHtml, recogniseAngle } from "./angle-brackets";
import { decodeAt } from "./char-decode";

/** What an unsafe scheme's colon is replaced by: the same glyph to a reader, no scheme to a parser. */
export const NEUTRAL_COLON = "\uFF1A";

const LONGEST_SCHEME = Math.max(...[...UNSAFE_SCHEMES].map((s) => s.length));

const isLetter = (c: string): boolean => (c >= "a" && c <= "z") || (c >= "A" && c <= "Z");
const isSchemeChar = (c: string): boolean => isLetter(c) || (c >= "0" && c <= "9") || c === "+" || c === "-" || c === ".";
const isBlank = (c: string | undefined): boolean => c === undefined || c === " " || c === "\t" || c === "\r" || c === "\n";
/** Browsers drop tabs and line breaks anywhere in a URL, and other control characters around it. */
const isIgnoredInUrl = (c: string): boolean => c === "\t" || c === "\r" || c === "\n" || (c < " " && c !== "");

/** Where a line's own text starts after block-quote markers, list markers and indentation. */
function contentStart(line: string): number {
  let i = 0;
  for (;;) {
    while (line[i] === " " || line[i] === "\t") i++;
    const c = line[i];
    if (c === ">") {
      i++;
      continue;
    }
    if ((c === "-" || c === "*" || c === "+") && isBlank(line[i + 1])) {
      i++;
      continue;
    }
    let j = i;
    while (j - i < 9 && line[j] !== undefined && line[j]! >= "0" && line[j]! <= "9") j++;
    if (j > i && (line[j] === "." || line[j] === ")") && isBlank(line[j + 1])) {
      i = j + 1;
      continue;
    }
    return i;
  }
}

/** Backtick runs of the line by length, each list in order, for finding a code span's closing run. */
function backtickRuns(line: string): Map<number, number[]> {
  const runs = new Map<number, number[]>();
  for (let i = 0; i < line.length; ) {
    if (line[i] !== "`") {
      i++;
      continue;
    }
    const start = i;
    while (line[i] === "`") i++;
    const list = runs.get(i - start) ?? [];
    list.push(start);
    runs.set(i - start, list);
  }
  return runs;
}

/** Dataview runs inline code starting `$=` as JavaScript; a space after the `$` makes it text. */
function inertCode(code: string): string {
  const at = code.search(/\S/);
  return at >= 0 && code.startsWith("$=", at) ? `${code.slice(0, at)}$ =${code.slice(at + 2)}` : code;
}

export function sanitiseInline(line: string): string {
  const out: string[] = [];
  const runs = backtickRuns(line);
  const nextRun = new Map<number, number>();
  const start = contentStart(line);
  // The scheme being read: lowercased letters since the last separator, and what came before it.
  let scheme = "";
  let before = "";
  const separate = (c: string) => {
    if (c === " " && scheme === "") return; // spaces between `<` and a URL do not hide it
    scheme = "";
    before = c;
  };
  let i = 0;
  while (i < line.length) {
    const c = line[i] ?? "";
    if (c === "`") {
      let k = i;
      while (line[k] === "`") k++;
      const length = k - i;
      const list = runs.get(length) ?? [];
      let at = nextRun.get(length) ?? 0;
      while (at < list.length && (list[at] ?? 0) < k) at++;
      nextRun.set(length, at);
      const close = list[at];
      if (close === undefined) {
        out.push(line.slice(i, k));
      } else {
        out.push(line.slice(i, k), inertCode(line.slice(k, close)), line.slice(close, close + length));
        k = close + length;
      }
      separate("`");
      i = k;
      continue;
    }
    if (c === "<") {
      const angle = recogniseAngle(line, i);
      const alone = i === start && line.slice(angle?.end ?? i).trim() === "";
      if ((angle?.kind === "tag" && !alone) || angle?.kind === "email") {
        out.push(line.slice(i, angle.end));
        separate(">");
        i = angle.end;
        continue;
      }
      const harmless = angle?.kind === "destination" || (angle?.kind === "autolink" && !UNSAFE_SCHEMES.has(angle.scheme));
      out.push(harmless || !couldOpenHtml(line[i + 1]) ? "<" : "&lt;");
      separate("<");
      i++;
      continue;
    }
    const { char, length } = decodeAt(line, i);
    if (char === ":" && UNSAFE_SCHEMES.has(scheme) && (before === "<" || !isBlank(line[i + length]))) {
      // Prose ("the data: it shows…") keeps its colon; a URL has no blank after its scheme.
      out.push(NEUTRAL_COLON);
      separate(":");
      i += length;
      continue;
    }
    if (isSchemeChar(char)) {
      if (scheme.length <= LONGEST_SCHEME) scheme += char.toLowerCase();
    } else if (!isIgnoredInUrl(char)) {
      separate(char);
    }
    out.push(line.slice(i, i + length));
    i += length;
  }
  return out.join("");
}
