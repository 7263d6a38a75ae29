/**
 * Runs every text scanner on adversarial texts and prints one line per scanner and text. Meant to be
 * started by test/core/linear-scanning.test.ts under V8's backtrack budget, which names (on stdout)
 * every regular expression that backtracked past the budget in one execution.
 *
 *   node --import tsx test/helpers/adversarial-scan.ts [--length N] [--random K] [--seed S] [--only name,name]
 */
import fc from "fast-check";
import { adversarialText, growingBacktickRuns, runsOfEachPiece } from "./adversarial-texts";
import { SCANNERS } from "./text-scanners";

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback;
}

const length = Number(option("length", String(64 * 1024)));
const random = Number(option("random", "3"));
const seed = Number(option("seed", "22"));
const only = option("only", "").split(",").filter(Boolean);
const scanners = Object.entries(SCANNERS).filter(([name]) => only.length === 0 || only.includes(name));

const texts = [
  ...runsOfEachPiece(length),
  { name: "growing backtick runs", text: growingBacktickRuns(length) },
  ...fc.sample(adversarialText(length, 16 * length), { numRuns: random, seed }).map((text, i) => ({ name: `random ${i} (${text.length} chars)`, text })),
];

for (const { name, text } of texts) {
  for (const [scanner, scan] of scanners) {
    scan(text);
    process.stdout.write(`scanned ${scanner} on ${name}\n`);
  }
}
process.stdout.write("done\n");
