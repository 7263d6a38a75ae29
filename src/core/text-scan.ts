/**
 * Single-pass scanners for the bracketed shapes of Markdown (`[[link]]`, `](url)`, `<tag>`, …).
 *
 * A regular expression such as `/\[\[[^\]\n]*\]\]/g` is quadratic on a line of unbalanced brackets:
 * from every `[[` it reads to the end of the line, fails, and starts again one character later. A
 * 500 KB line of `[` held the event loop for minutes. Here every search only moves forward: the
 * stop that ends one candidate ends every later candidate that starts before it, so it is found once.
 *
 * `scanWork` counts the characters the scanners examine, so that tests can hold them to a bound
 * proportional to the input without timing anything.
 */

/** Characters examined by the scanners in this file since the count was last reset (tests read it). */
export const scanWork = { characters: 0 };

/** `text.indexOf(needle, from)`, counted. */
function indexOf(text: string, needle: string, from: number): number {
  const at = text.indexOf(needle, from);
  scanWork.characters += (at < 0 ? text.length : at) - from + 1;
  return at;
}

/**
 * A set of stop characters, as a character class searched natively: a loop calling a test per
 * character costs about twenty times as much, and a line of brackets is read to its end once per scan.
 */
export interface Stops {
  /** A class of the stop characters, one character long (its flags are not used). */
  readonly pattern: RegExp;
}

/** A character class matching `chars` literally. */
const classOf = (chars: string) => chars.replace(/[\\\]^-]/g, "\\$&");

/** Stops at a fixed set of characters. */
export const oneOf = (chars: string): Stops => ({ pattern: new RegExp(`[${classOf(chars)}]`) });

/** Stops at the characters `\s` matches, and at `extra`. */
export const spaceOr = (extra: string): Stops => ({ pattern: new RegExp(`[\\s${classOf(extra)}]`) });

/**
 * The first position at or after `from` whose character is a stop, or the text's length. Asked with
 * positions that never decrease, it examines each character at most once: an answer at or after the
 * next `from` is still the first stop from there.
 */
export class NextStop {
  private found = -1;
  /** Its own copy: `lastIndex` is the search's position, not to be shared with another scan. */
  private readonly pattern: RegExp;

  constructor(
    private readonly text: string,
    stops: Stops,
  ) {
    this.pattern = new RegExp(stops.pattern.source, "g");
  }

  at(from: number): number {
    if (this.found >= from) return this.found;
    this.pattern.lastIndex = from;
    const i = this.pattern.exec(this.text)?.index ?? this.text.length;
    scanWork.characters += i - from + 1;
    this.found = i;
    return i;
  }
}

export interface Delimited {
  /** Where `open` starts. */
  readonly index: number;
  /** Just after `close`. */
  readonly end: number;
  /** The characters between `open` and `close`. */
  readonly inner: string;
}

export interface DelimitedOptions {
  /** 1 for a `+` in place of the `*`. */
  readonly minInner?: number;
  /** Characters the inner text may not begin with (a pattern like `\[\[[^\]|#^\n]+…`). */
  readonly refusedFirst?: string;
}

/**
 * What `/open[^stops]*close/g` matches (left to right, without overlaps), where `close` begins with
 * a stop character: `open`, then characters that are not stops, then `close` at the first stop.
 */
export function* delimited(text: string, open: string, stops: Stops, close: string, options: DelimitedOptions = {}): Generator<Delimited> {
  const { minInner = 0, refusedFirst = "" } = options;
  const nextStop = new NextStop(text, stops);
  // When `open` holds no stop, every candidate that starts before a stop ends at that stop.
  const openHoldsStop = new RegExp(stops.pattern.source).test(open);
  let at = indexOf(text, open, 0);
  while (at >= 0) {
    const innerStart = at + open.length;
    const stop = nextStop.at(innerStart);
    const closes = text.startsWith(close, stop);
    if (closes && stop - innerStart >= minInner && !(stop > innerStart && refusedFirst.includes(text[innerStart] ?? ""))) {
      const end = stop + close.length;
      yield { index: at, end, inner: text.slice(innerStart, stop) };
      at = indexOf(text, open, end);
    } else if (!closes && !openHoldsStop) {
      // No `close` at this stop fails every candidate up to it alike (a line of `[[` is one step, not
      // one per bracket); the next candidate starts after the stop, as `open` cannot cover it.
      at = stop < text.length ? indexOf(text, open, stop + 1) : -1;
    } else {
      at = indexOf(text, open, at + 1);
    }
  }
}

/** Replaces every match of `delimited(text, open, stops, close, options)`. */
export function replaceDelimited(text: string, open: string, stops: Stops, close: string, replace: (match: Delimited) => string, options: DelimitedOptions = {}): string {
  let out = "";
  let at = 0;
  for (const match of delimited(text, open, stops, close, options)) {
    out += text.slice(at, match.index) + replace(match);
    at = match.end;
  }
  return out + text.slice(at);
}

export interface WikilinkMatch extends Delimited {
  /** Written as `![[…]]`: the `!` is part of the match. */
  readonly embed: boolean;
}

/**
 * What `/!?\[\[([^\]\n]+)\]\]/g` matches, where the inner text may not begin with one of
 * `refusedFirst` (the link patterns whose target excludes `|`, `#` or `^` need at least one
 * character of target). An `!` just before the `[[` makes it an embed, unless an earlier match ends
 * on that `!`.
 */
export function* wikilinks(text: string, refusedFirst = ""): Generator<WikilinkMatch> {
  let lastEnd = 0;
  for (const link of delimited(text, "[[", oneOf("]\n"), "]]", { minInner: 1, refusedFirst })) {
    const embed = link.index - 1 >= lastEnd && text[link.index - 1] === "!";
    lastEnd = link.end;
    yield { ...link, index: embed ? link.index - 1 : link.index, embed };
  }
}

export interface MarkdownLinkMatch {
  readonly index: number;
  readonly end: number;
  readonly embed: boolean;
  /** The text between `[` and `](`. */
  readonly label: string;
  /** The text between `(` and `)`. */
  readonly destination: string;
}

/**
 * What `/!?\[[^\]\n]*\]\(([^)…]*)\)/g` matches with the destination's stop characters given
 * (`)` and `\n`, or `)` and whitespace) and `accepts` judging the destination, as the regex's own
 * pattern would: a destination it refuses refuses every `[` up to the same `]`. With `embedsOnly`,
 * what `/!\[…/g` matches: only links written `![…](…)`.
 */
export function* markdownLinks(text: string, destinationStop: Stops, accepts: (destination: string) => boolean = () => true, embedsOnly = false): Generator<MarkdownLinkMatch> {
  const open = embedsOnly ? "![" : "[";
  const labelStops = new NextStop(text, oneOf("]\n"));
  const destinationStops = new NextStop(text, destinationStop);
  let lastEnd = 0;
  let at = indexOf(text, open, 0);
  while (at >= 0) {
    const close = labelStops.at(at + open.length);
    if (text.startsWith("](", close)) {
      const end = destinationStops.at(close + 2);
      const destination = text.slice(close + 2, end);
      if (text[end] === ")" && accepts(destination)) {
        const embed = embedsOnly || (at - 1 >= lastEnd && text[at - 1] === "!");
        yield { index: embed && !embedsOnly ? at - 1 : at, end: end + 1, embed, label: text.slice(at + open.length, close), destination };
        lastEnd = end + 1;
        at = indexOf(text, open, end + 1);
        continue;
      }
    }
    // Every `[` up to this `]` (or line end) closes its label here and reads the same destination:
    // refused for one, refused for all, so the search goes on after it, not from the next `[`.
    at = close < text.length ? indexOf(text, open, close + 1) : -1;
  }
}
