/**
 * `npm run bench`: prints figures and ratios against the targets. Benchmarks, not tests: no assertions.
 * `npm run bench -- --only=<name>` runs one benchmark alone (the names are in ALONE below: scan, size,
 * ingest, lint, retrieval, …) and writes nothing.
 */
import { benchAdversarialScan } from "./adversarial-scan.bench";
import { benchCli } from "./cli.bench";
import { benchCliSearch } from "./cli-search.bench";
import { benchIngest } from "./ingest.bench";
import { benchIngestScale } from "./ingest-scale.bench";
import { benchLanguage } from "./language.bench";
import { benchLint } from "./lint.bench";
import { benchLocalPace } from "./local-pace.bench";
import { benchPlugin } from "./plugin.bench";
import { measureBundle, sizeResults } from "./plugin-size";
import { benchPromptCache } from "./prompt-cache.bench";
import { benchQuery } from "./query.bench";
import { benchRetrieval } from "./retrieval.bench";
import { benchRetrievalQuality } from "./retrieval-quality.bench";
import { benchUpsertLarge } from "./upsert-large.bench";
import { describeMachine, writeResultsFile } from "./results-file";
import { printResults, type BenchResult } from "./stats";
import { corpusNotice } from "../test/helpers/corpus";

const results: BenchResult[] = [];
/** Benchmarks that can run alone: `npm run bench -- --only=<name>`; nothing is written to RESULTS.md. */
const ALONE: Readonly<Record<string, () => BenchResult[] | Promise<BenchResult[]>>> = {
  scan: benchAdversarialScan,
  size: async () => sizeResults(await measureBundle()),
  "prompt-cache": benchPromptCache,
  "local-pace": benchLocalPace,
  ingest: benchIngest,
  "ingest-scale": benchIngestScale,
  lint: benchLint,
  query: benchQuery,
  // The index in process as the CLI runs it, then in a worker as the plugin does (50,000 notes with --retrieval-50k).
  retrieval: benchRetrieval,
  "upsert-large": benchUpsertLarge,
};
const only = process.argv.find((arg) => arg.startsWith("--only="))?.slice("--only=".length);
if (only !== undefined) {
  const alone = ALONE[only];
  if (!alone) {
    console.error(`No benchmark named "${only}"; choose one of: ${Object.keys(ALONE).join(", ")}.`);
    process.exit(2);
  }
  results.push(...(await alone()));
  printResults(results);
  process.exit(results.some((r) => r.pass === false) ? 1 : 0);
}
// Most benchmarks read the large corpus (test/helpers/corpus.ts); without it, only the others run.
const withoutCorpus = corpusNotice("the benchmarks that read the corpus (ingest, ingest at scale, language, query, retrieval, the plugin's index, CLI search, retrieval quality, large-note upsert)");
if (withoutCorpus) console.log(withoutCorpus);
if (!withoutCorpus) {
  results.push(...(await benchIngest()));
  results.push(...(await benchIngestScale()));
}
results.push(...benchCli());
if (!withoutCorpus) results.push(...benchLanguage());
results.push(...benchLint());
// One ingest against a server paced like a CPU: time lost waiting, prompts re-sent.
results.push(...(await benchLocalPace()));
// The input cost of 20 related notes with prompt caching against without (a ratio, no timing).
results.push(...(await benchPromptCache()));
if (!withoutCorpus) {
  results.push(...(await benchQuery()));
  // Retrieval at scale (the 50,000-note vault only with --retrieval-50k), each figure in fresh processes:
  // in process as the CLI runs it, then in a worker as the plugin does (the main thread's longest tasks).
  results.push(...benchRetrieval());
  // `synapse search` and `synapse index` as cold processes of the built CLI, phase by phase (same opt-in for 50,000).
  results.push(...benchCliSearch());
  // Which fusion settings rank the right notes highest (labelled queries from the corpus; prints its table).
  results.push(...(await benchRetrievalQuality()));
  // One large note updated in one step, as the index's worker runs it.
  results.push(...(await benchUpsertLarge()));
}
// Notes of one long line of brackets, backticks, comments or pipes against an ordinary note.
results.push(...benchAdversarialScan());
// Last: it installs happy-dom globals into this process.
results.push(...(await benchPlugin()));
printResults(results);
writeResultsFile(new URL("RESULTS.md", import.meta.url), { results, machine: describeMachine(), ranAt: new Date(), args: process.argv.slice(2) });
const missed = results.filter((r) => r.pass === false);
console.log(missed.length === 0 ? "\nAll targets met." : `\n${missed.length} target(s) missed.`);
// What the plugin's benchmark starts (its DOM, its workers) may keep the process alive: end here, as the single runs do.
process.exit(missed.length === 0 ? 0 : 1);
