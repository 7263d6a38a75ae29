/**
 * Adversarial notes (one line of brackets, backticks, `%%` or pipes; 64 KB, 512 KB and 1 MB)
 * through the link, code and tokenising paths, against an ordinary note of the same size scanned
 * in the same run: a scan that is linear costs about as much per character on either.
 * `npm run bench -- --only=scan` runs this case alone.
 */
import { codeRanges } from "../src/core/code-spans";
import { plainText } from "../src/core/plain-text";
import { wikilinkTargets } from "../src/core/wikilinks";
import { parseNote, searchableText } from "../src/retrieval/chunker";
import { parseLinks } from "../src/retrieval/links";
import { tokenize } from "../src/core/tokenize";
import { tile } from "../test/helpers/adversarial-texts";
import { corpusNotes } from "../test/helpers/corpus";
import type { BenchResult } from "./stats";

const TARGET_RATIO = 3;
const SIZES = [64 * 1024, 512 * 1024, 1024 * 1024];
const LINES: Readonly<Record<string, string>> = { brackets: "[", backticks: "`", comments: "%%", pipes: "|", mixed: "[[a|![x](%%`" };

/** Every path a note's text takes through links, code and the index's tokens. */
function scanNote(text: string): void {
  wikilinkTargets(text);
  codeRanges(text);
  plainText(text);
  const parsed = parseNote("notes/n.md", text);
  parseLinks("notes/n.md", text, parsed);
  for (const chunk of parsed.chunks) tokenize(searchableText(text, chunk));
}

/** The fastest of three runs, in milliseconds (the least disturbed by other work on the machine). */
function fastest(text: string): number {
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 3; run++) {
    const start = performance.now();
    scanNote(text);
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

export function benchAdversarialScan(): BenchResult[] {
  const ordinarySource = corpusNotes("en", 200).map((note) => note.text).join("\n\n");
  const results: BenchResult[] = [];
  for (const size of SIZES) {
    const ordinary = fastest(tile(ordinarySource, size));
    for (const [name, piece] of Object.entries(LINES)) {
      const ms = fastest(`# Note\n\n${tile(piece, size)}\n`);
      const ratio = ms / ordinary;
      results.push({
        name: `scan: ${size / 1024} KB line of ${name}`,
        value: ms,
        unit: "ms",
        target: `≤ ${TARGET_RATIO}× an ordinary note`,
        pass: ratio <= TARGET_RATIO,
        note: `${ratio.toFixed(2)}× the ordinary note of the same size (${ordinary.toFixed(0)} ms)`,
      });
    }
  }
  return results;
}
