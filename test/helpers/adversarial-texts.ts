/**
 * Texts made to hurt a scanner: long runs of the characters Markdown, links, code, comments and JSON
 * are made of, alone and interleaved, at the sizes of a large note (64 KB to 1 MB).
 */
import fc from "fast-check";

/** The pieces an adversarial text is tiled from. */
export const PIECES: readonly string[] = [
  "[", "]", "(", ")", "`", "%%", "|", "!", "#", "\n", " ", "\t", "-", "*", "\\", "<", ">", "~", "^", "{", "}", "\"", ":", ",", "$",
  "[[", "]]", "![", "](", "[[a", "[[a|", "[[a#", "[a](", "![[", "%% ", "<!--", "---\n", "# ", "#a", "- ", "> ", "[^", "http://", "```",
  "~~~", "    ", "<think>", "{\"a\":", "\"\\", "a", "A ", ". ", "é", "\r\n",
];

/** `pattern` repeated, cut at `length` characters. */
export function tile(pattern: string, length: number): string {
  return pattern.repeat(Math.ceil(length / Math.max(1, pattern.length))).slice(0, length);
}

/** A run of each piece alone, `length` long. */
export function runsOfEachPiece(length: number): { name: string; text: string }[] {
  return PIECES.map((piece) => ({ name: `run of ${JSON.stringify(piece)}`, text: tile(piece, length) }));
}

/** Backtick runs of every length 1, 2, 3, … separated by a letter: no run has a closer. */
export function growingBacktickRuns(length: number): string {
  let out = "";
  for (let n = 1; out.length < length; n++) out += `${"`".repeat(n)}a`;
  return out.slice(0, length);
}

/** Runs of random pieces with random lengths, tiled to a length between `min` and `max`. */
export function adversarialText(min: number, max: number): fc.Arbitrary<string> {
  const run = fc.record({ piece: fc.constantFrom(...PIECES), count: fc.oneof(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4096 })) });
  return fc
    .tuple(fc.array(run, { minLength: 1, maxLength: 12 }), fc.integer({ min, max }))
    .map(([runs, length]) => tile(runs.map(({ piece, count }) => piece.repeat(count)).join(""), length));
}
