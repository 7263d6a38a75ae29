/**
 * A fast reader for the frontmatter most notes carry — top-level `key: value` lines and block lists
 * of plain or quoted one-line strings — that gives exactly what the `yaml` package gives for it,
 * and gives up (`undefined`) on anything else, so the caller parses that with `yaml`. Building the
 * index reads every note's frontmatter, and the `yaml` package's full parser was a tenth of the
 * build's time on the help corpus, whose frontmatter is all of this simple kind.
 *
 * Everything it accepts is unambiguous in YAML 1.2 (the `yaml` package's default, core schema):
 * keys start with an ASCII letter; a plain value starts with a letter and holds no `: `, no ` #`
 * and no trailing `:`, and reads as a string unless it is one of the core schema's null or boolean
 * words; a day written `2026-12-04` is a string too (every page Synapse writes has two); a quoted
 * value opens and closes on its line with no escapes; a key's value may also be an
 * empty list or mapping written in flow style (`tags: []`, as the `yaml` package writes an empty
 * list: every page Synapse writes without tags carries one). Tabs, carriage returns,
 * control characters, trailing spaces, lines of spaces, comments, repeated keys, nesting and continuation lines all give up.
 * A property test holds it to the `yaml` package on generated frontmatter.
 */

const KEY_LINE = /^([A-Za-z][A-Za-z0-9_-]*):(?: +(.*))?$/;
const ITEM = /^( *)-(?: +(.*))?$/;
/** What YAML reads differently or this reader does not try (with the C0 controls and tabs): line separators, BOMs, lone surrogates. */
const UNSAFE = /[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff\ud800-\udfff]/u;
const TRAILING_SPACE = / $/m;
const PLAIN_START = /^\p{L}/u;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const NULLS = new Set(["null", "Null", "NULL"]);
const TRUES = new Set(["true", "True", "TRUE"]);
const FALSES = new Set(["false", "False", "FALSE"]);
const GIVE_UP = Symbol("give up");

type Scalar = string | boolean | null;

/** The mapping `raw` holds (null when it is empty), or undefined when it is not of the simple kind. */
export function parseSimpleYaml(raw: string): Record<string, unknown> | null | undefined {
  // Trailing spaces: the `yaml` package reads `key:` followed by two spaces as " ", not null.
  if (hasControl(raw) || UNSAFE.test(raw) || TRAILING_SPACE.test(raw)) return undefined;
  const lines = raw.split("\n");
  const out: Record<string, unknown> = {};
  let keys = 0;
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as string;
    if (isBlank(line)) {
      i += 1;
      continue;
    }
    const match = KEY_LINE.exec(line);
    const key = match?.[1];
    if (!match || key === undefined || isReserved(key) || Object.hasOwn(out, key)) return undefined;
    keys += 1;
    const value = match[2] ?? ""; // not trim(): YAML strips only spaces (gone already), not every Unicode space
    i += 1;
    if (value === "[]" || value === "{}") {
      out[key] = value === "[]" ? [] : {};
      continue;
    }
    if (value !== "") {
      const scalar = scalarOf(value);
      if (scalar === GIVE_UP) return undefined;
      out[key] = scalar;
      continue;
    }
    let next = i;
    while (next < lines.length && isBlank(lines[next] as string)) next += 1;
    const first = next < lines.length ? ITEM.exec(lines[next] as string) : null;
    if (!first) {
      // Nothing, or another key at the margin: the value is null. Anything indented is nesting.
      if (next < lines.length && (lines[next] as string).startsWith(" ")) return undefined;
      out[key] = null;
      i = next;
      continue;
    }
    const indent = (first[1] ?? "").length;
    const items: Scalar[] = [];
    for (i = next; i < lines.length; i += 1) {
      const itemLine = lines[i] as string;
      if (isBlank(itemLine)) continue;
      const item = ITEM.exec(itemLine);
      if (item && (item[1] ?? "").length === indent) {
        const text = item[2] ?? "";
        // A bare `-` is a null item, unless what follows is indented under it (nesting).
        const scalar = text === "" ? nullItem(lines, i + 1) : scalarOf(text);
        if (scalar === GIVE_UP) return undefined;
        items.push(scalar);
        continue;
      }
      if (itemLine.startsWith(" ") || item) return undefined;
      break; // the next key
    }
    out[key] = items;
  }
  // Blank frontmatter is null to YAML, but some blank text (a lone space) is an error to the `yaml` package.
  if (keys === 0) return raw === "" ? null : undefined;
  return out;
}

/** A C0 control character other than the line feed (a tab among them). */
function hasControl(raw: string): boolean {
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c < 0x20 && c !== 0x0a) return true;
  }
  return false;
}

/** Only an empty line is blank here: the `yaml` package reads some lines of spaces as errors. */
function isBlank(line: string): boolean {
  return line === "";
}

/** Keys YAML reads as something other than their text (null, booleans). */
function isReserved(key: string): boolean {
  return NULLS.has(key) || TRUES.has(key) || FALSES.has(key);
}

function nullItem(lines: readonly string[], from: number): null | typeof GIVE_UP {
  let next = from;
  while (next < lines.length && isBlank(lines[next] as string)) next += 1;
  return next < lines.length && !ITEM.test(lines[next] as string) && (lines[next] as string).startsWith(" ") ? GIVE_UP : null;
}

/** One value written on its line, trimmed: a quoted string without escapes, or a plain word run. */
function scalarOf(text: string): Scalar | typeof GIVE_UP {
  const first = text[0];
  if (first === "'") {
    if (text.length < 2 || !text.endsWith("'")) return GIVE_UP;
    const inner = text.slice(1, -1);
    if (inner.replace(/''/g, "").includes("'")) return GIVE_UP;
    return inner.replace(/''/g, "'");
  }
  if (first === '"') {
    if (text.length < 2 || !text.endsWith('"')) return GIVE_UP;
    const inner = text.slice(1, -1);
    return inner.includes('"') || inner.includes("\\") ? GIVE_UP : inner;
  }
  // A day as Synapse writes `created` and `updated`: a string in the core schema (no timestamps there, not a number).
  if (ISO_DAY.test(text)) return text;
  if (!PLAIN_START.test(text) || text.includes(": ") || text.endsWith(":") || text.includes(" #")) return GIVE_UP;
  if (NULLS.has(text)) return null;
  if (TRUES.has(text)) return true;
  if (FALSES.has(text)) return false;
  return text;
}
