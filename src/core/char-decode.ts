/**
 * One character of Markdown source as a URL would see it once Markdown and the browser have
 * decoded it: an entity (`&#106;`, `&#x6A;`, `&colon;`), a percent escape (`%3A`) or a backslash
 * escape (`\:`) is the character it stands for. Lookahead is bounded, so reading a line this way
 * is linear in its length.
 */

export interface DecodedChar {
  /** The character the source stands for ("" for a code point that is no character). */
  readonly char: string;
  /** How many source characters it takes. */
  readonly length: number;
}

/** Named entities that spell characters a URL scheme is made of or hidden by; the others are text. */
const NAMED: Readonly<Record<string, string>> = {
  colon: ":",
  tab: "\t",
  newline: "\n",
  period: ".",
  plus: "+",
  hyphen: "-",
  dash: "-",
  amp: "&",
  lt: "<",
  gt: ">",
  sol: "/",
  bsol: "\\",
  percnt: "%",
  num: "#",
};

const ASCII_PUNCTUATION = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";

const isHex = (c: string | undefined): boolean => c !== undefined && /^[0-9a-fA-F]$/.test(c);
const isDigit = (c: string | undefined): boolean => c !== undefined && c >= "0" && c <= "9";
const isAlnum = (c: string | undefined): boolean => c !== undefined && /^[A-Za-z0-9]$/.test(c);

function fromCodePoint(code: number): string {
  return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "";
}

function entityAt(text: string, at: number): DecodedChar | null {
  let i = at + 1;
  if (text[i] === "#") {
    i++;
    const hex = text[i] === "x" || text[i] === "X";
    if (hex) i++;
    const start = i;
    // Browsers accept any number of leading zeros; twelve digits cover every padding worth trying.
    while (i - start < 12 && (hex ? isHex(text[i]) : isDigit(text[i]))) i++;
    if (i === start || text[i] !== ";") return null;
    return { char: fromCodePoint(parseInt(text.slice(start, i), hex ? 16 : 10)), length: i + 1 - at };
  }
  const start = i;
  while (i - start < 32 && isAlnum(text[i])) i++;
  if (i === start || text[i] !== ";") return null;
  const char = NAMED[text.slice(start, i).toLowerCase()];
  return char === undefined ? null : { char, length: i + 1 - at };
}

/** The character the source at `at` stands for. */
export function decodeAt(text: string, at: number): DecodedChar {
  const c = text[at] ?? "";
  if (c === "&") return entityAt(text, at) ?? { char: c, length: 1 };
  if (c === "%" && isHex(text[at + 1]) && isHex(text[at + 2])) {
    return { char: String.fromCharCode(parseInt(text.slice(at + 1, at + 3), 16)), length: 3 };
  }
  const next = text[at + 1];
  if (c === "\\" && next !== undefined && ASCII_PUNCTUATION.includes(next)) return { char: next, length: 2 };
  return { char: c, length: 1 };
}
