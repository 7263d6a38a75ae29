/**
 * Retrieval quality: which fusion settings rank the right notes highest, measured on labelled
 * queries made from the obsidian-help corpus (bench/quality-labels.ts), no network, no model.
 *
 * The index is built once (text, graph, and vectors from the test suite's fake bag-of-words
 * embedder). Each query's text and vector candidates are taken once from `VaultIndex.candidates`,
 * then every configuration fuses them with the production `fuse` (src/retrieval/fusion.ts); a
 * sample of queries checks that `retrieve()` returns the same order as that path.
 *
 * The fake embedder is NOT a model: it hashes words into 256 buckets, so its "vectors" find notes
 * by the words they share, like a poor BM25. The rows with vectors only check the plumbing; they
 * say nothing about what a real embedding model would gain.
 *
 * `tsx bench/retrieval-quality.bench.ts` runs it alone and prints the whole table.
 */
import { DEFAULT_FUSION, fuse, type FusionParameters, type WeightedList } from "../src/retrieval/fusion";
import type { Embedder } from "../src/retrieval/embedder";
import { VaultIndex } from "../src/retrieval/vault-index";
import { readFrontmatter } from "../src/retrieval/chunker";
import { MemoryStateStore } from "../src/vault/memory-state-store";
import { corpusNotes } from "../test/helpers/corpus";
import { fakeEmbedding } from "../test/helpers/fake-embedding";
import { KIND_NOTES, labelledQueries, type LabelledQuery, type QueryKind } from "./quality-labels";
import { mean, meanScores, METRICS, pairedDifference, scoreRanking, type QueryScores } from "./quality-metrics";
import type { BenchResult } from "./stats";

interface Config {
  readonly name: string;
  readonly fusion: FusionParameters;
  /** Which rankings are fused; with the fake vectors' ranking, a plumbing check, not a model. */
  readonly lists: "text" | "vectors" | "both";
}

const CUTOFF = 10;
const KINDS = Object.keys(KIND_NOTES) as QueryKind[];

/** A configuration's name, from its parameters. */
function named(lists: Config["lists"], fusion: FusionParameters): Config {
  const method = fusion.method === "rrf" ? `RRF k=${fusion.k}` : "CombSUM";
  const graph = fusion.graphShare === 0 ? "no graph" : `graph ${fusion.graphShare} from top ${fusion.graphSeeds}`;
  const current = fusion === DEFAULT_FUSION ? " (default)" : "";
  if (lists === "vectors") return { name: "fake vectors only (no text, no graph)", fusion, lists };
  if (lists === "both") return { name: `text + fake vectors, ${method}, ${graph}${current}`, fusion, lists };
  return { name: fusion.graphShare === 0 ? "text only (BM25, no graph)" : `${method}, ${graph}${current}`, fusion, lists };
}

/** The grid: the measured defaults are one of its points (the same object, so it is marked). */
function configs(): Config[] {
  const at = (p: FusionParameters) => (JSON.stringify(p) === JSON.stringify(DEFAULT_FUSION) ? DEFAULT_FUSION : p);
  const out: Config[] = [named("text", { ...DEFAULT_FUSION, graphShare: 0 })];
  for (const k of [10, 30, 60, 100]) {
    for (const graphShare of [0.1, 0.25, 0.5]) {
      for (const graphSeeds of [3, 5, 10]) out.push(named("text", at({ method: "rrf", k, graphShare, graphSeeds })));
    }
  }
  // CombSUM's best share was the grid's edge (0.5) in a first run, so its grid goes on to 1.
  for (const graphShare of [0.1, 0.25, 0.5, 0.75, 1]) {
    for (const graphSeeds of [3, 5, 10]) out.push(named("text", at({ method: "combsum", k: 60, graphShare, graphSeeds })));
  }
  out.push(named("vectors", { ...DEFAULT_FUSION, graphShare: 0 }));
  for (const k of [10, 60]) out.push(named("both", { method: "rrf", k, graphShare: 0, graphSeeds: 5 }));
  out.push(named("both", { method: "combsum", k: 60, graphShare: 0, graphSeeds: 5 }));
  out.push(named("both", { method: "rrf", k: 60, graphShare: 0.25, graphSeeds: 5 }));
  out.push(named("both", DEFAULT_FUSION));
  return out;
}

const fakeEmbedder: Embedder = {
  modelId: "fake:bag-of-words",
  embed: (texts) => Promise.resolve(texts.map((t) => Float32Array.from(fakeEmbedding(t)))),
};

interface Candidate {
  readonly query: LabelledQuery;
  readonly text: WeightedList;
  readonly vector: WeightedList;
  readonly accept: (path: string) => boolean;
}

interface Row {
  readonly config: Config;
  readonly perQuery: readonly QueryScores[];
  readonly overall: QueryScores;
  /** nDCG@10 per query kind. */
  readonly byKind: Record<QueryKind, number>;
  /** Mean nDCG@10 over the kinds, each kind weighing the same: the figure defaults are chosen by. */
  readonly macro: number;
}

const SCOPE = { kind: "all" } as const;
const fmt = (n: number) => n.toFixed(3);

export interface QualityReport {
  readonly rows: readonly Row[];
  readonly queries: readonly LabelledQuery[];
  readonly notes: number;
  readonly seconds: { readonly build: number; readonly label: number; readonly candidates: number; readonly fuse: number };
  readonly agreement: { readonly checked: number; readonly same: number };
}

export async function measureRetrievalQuality(): Promise<QualityReport> {
  let t = performance.now();
  const lap = () => {
    const now = performance.now();
    const s = (now - t) / 1000;
    t = now;
    return s;
  };
  const corpus = corpusNotes("");
  const files = new Map(corpus.map((n) => [n.path, n.text]));
  const reader = {
    read: (path: string) => {
      const text = files.get(path);
      return text === undefined ? Promise.reject(new Error(`No note ${path}`)) : Promise.resolve(text);
    },
  };
  const index = await VaultIndex.open({ frontmatter: readFrontmatter, store: new MemoryStateStore(), reader, wikiFolder: "wiki", excludedFolders: [], embedder: fakeEmbedder });
  corpus.forEach((n, i) => index.upsert(n.path, n.text, { mtime: i + 1, size: n.text.length }));
  const embedded = await index.embedPending();
  if (embedded.error) throw new Error(`The fake embedder failed: ${embedded.error}`);
  const build = lap();

  const queries = labelledQueries(corpus, (target, from) => index.graph.resolve(target, from));
  const label = lap();

  const candidates: Candidate[] = [];
  for (const query of queries) {
    const c = await index.candidates(query.query, { scope: SCOPE, limit: CUTOFF });
    candidates.push({ query, text: { hits: c.text, weight: 1, complete: c.textComplete }, vector: { hits: c.vector, weight: 1, complete: c.vectorComplete }, accept: c.accept });
  }
  const candidateTime = lap();

  const neighbourCache = new Map<string, readonly string[]>();
  const neighbours = (path: string) => {
    let n = neighbourCache.get(path);
    if (!n) neighbourCache.set(path, (n = index.neighbourPaths(path)));
    return n;
  };
  const rank = (c: Candidate, config: Config) =>
    fuse(config.lists === "text" ? [c.text] : config.lists === "vectors" ? [c.vector] : [c.text, c.vector], neighbours, c.accept, config.fusion)
      .slice(0, CUTOFF)
      .map(([path]) => path);
  const rows = configs().map((config) => row(config, candidates.map((c) => scoreRanking(rank(c, config), c.query.relevant)), queries));
  const fuseTime = lap();

  // The measured path is retrieve()'s: on a sample, both orders must be the same.
  const sample = candidates.filter((_, i) => i % 25 === 0);
  const withVectors = configs().find((c) => c.lists === "both" && c.fusion === DEFAULT_FUSION) as Config;
  let same = 0;
  for (const c of sample) {
    const hits = await index.retrieve(c.query.query, { scope: SCOPE, limit: CUTOFF });
    if (JSON.stringify(hits.map((h) => h.path)) === JSON.stringify(rank(c, withVectors))) same += 1;
  }
  return { rows, queries, notes: index.size, seconds: { build, label, candidates: candidateTime, fuse: fuseTime }, agreement: { checked: sample.length, same } };
}

function row(config: Config, perQuery: QueryScores[], queries: readonly LabelledQuery[]): Row {
  const byKind = Object.fromEntries(KINDS.map((kind) => [kind, mean(perQuery.filter((_, i) => queries[i]?.kind === kind).map((s) => s.ndcg10))])) as Record<QueryKind, number>;
  return { config, perQuery, overall: meanScores(perQuery), byKind, macro: mean(KINDS.map((k) => byKind[k])) };
}

/** Per-query nDCG@10 weighted so that its plain mean is the macro mean (each kind weighs the same). */
function macroWeighted(r: Row, queries: readonly LabelledQuery[]): number[] {
  const count = new Map<QueryKind, number>();
  for (const q of queries) count.set(q.kind, (count.get(q.kind) ?? 0) + 1);
  return r.perQuery.map((s, i) => {
    const kind = queries[i]?.kind as QueryKind;
    return (s.ndcg10 * queries.length) / (KINDS.length * (count.get(kind) ?? 1));
  });
}

export interface Choice {
  readonly current: Row;
  readonly best: Row;
  /** The best configuration other than the defaults. */
  readonly runnerUp: Row;
}

/** The best configurations without vectors (what every vault has) and the current defaults. */
export function choose(report: QualityReport): Choice {
  const plain = report.rows.filter((r) => r.config.lists === "text");
  const current = plain.find((r) => r.config.fusion === DEFAULT_FUSION);
  if (!current) throw new Error("The current defaults are not among the measured configurations.");
  const best = plain.reduce((a, b) => (b.macro > a.macro ? b : a));
  const runnerUp = plain.filter((r) => r !== current).reduce((a, b) => (b.macro > a.macro ? b : a));
  return { current, best, runnerUp };
}

/** `a` minus `b`, macro nDCG@10, paired over the queries, with its 95 % half-width. */
function versus(a: Row, b: Row, queries: readonly LabelledQuery[]): { readonly mean: number; readonly halfWidth: number; readonly text: string } {
  const d = pairedDifference(macroWeighted(a, queries), macroWeighted(b, queries));
  return { ...d, text: `${d.mean >= 0 ? "+" : "−"}${fmt(Math.abs(d.mean))} ± ${fmt(d.halfWidth)}` };
}

/** The whole table, markdown, best macro nDCG@10 first within each group. */
export function qualityTable(report: QualityReport): string {
  const header = `| configuration | MRR@10 | R@5 | R@10 | nDCG@10 | ${KINDS.join(" | ")} | macro nDCG@10 |`;
  const line = (r: Row) => `| ${r.config.name} | ${METRICS.map((m) => fmt(r.overall[m])).join(" | ")} | ${KINDS.map((k) => fmt(r.byKind[k])).join(" | ")} | ${fmt(r.macro)} |`;
  const sorted = (rows: readonly Row[]) => [...rows].sort((a, b) => b.macro - a.macro);
  return [header, `|${" --- |".repeat(6 + KINDS.length)}`, ...sorted(report.rows.filter((r) => r.config.lists === "text")).map(line), ...sorted(report.rows.filter((r) => r.config.lists !== "text")).map(line)].join("\n");
}

export async function benchRetrievalQuality(options: { readonly printTable?: boolean } = {}): Promise<BenchResult[]> {
  const report = await measureRetrievalQuality();
  const choice = choose(report);
  const counts = KINDS.map((k) => `${report.queries.filter((q) => q.kind === k).length} ${k}`).join(", ");
  if (options.printTable ?? true) {
    console.log(`\nRetrieval quality on ${report.notes} notes, ${report.queries.length} labelled queries (${counts}); top ${CUTOFF}.`);
    console.log(qualityTable(report));
  }
  const textOnly = report.rows[0] as Row;
  const earlier = report.rows.find((r) => r.config.lists === "text" && r.config.name === "RRF k=60, graph 0.25 from top 5") as Row;
  const { build, label, candidates, fuse: fuseTime } = report.seconds;
  const other = choice.best === choice.current ? choice.runnerUp : choice.best;
  const gain = versus(other, choice.current, report.queries);
  const keep = gain.mean <= gain.halfWidth;
  return [
    { name: "retrieval quality: queries", value: report.queries.length, unit: "", note: `${counts}; index ${build.toFixed(1)} s, labels ${label.toFixed(1)} s, candidates ${candidates.toFixed(1)} s, ${report.rows.length} configurations fused ${fuseTime.toFixed(1)} s` },
    { name: "retrieval quality: text only, macro nDCG@10", value: textOnly.macro, unit: "", note: `MRR@10 ${fmt(textOnly.overall.mrr10)}, R@10 ${fmt(textOnly.overall.recall10)}; defaults ${versus(choice.current, textOnly, report.queries).text} (95 %)` },
    { name: "retrieval quality: earlier defaults, macro nDCG@10", value: earlier.macro, unit: "", note: `${earlier.config.name}, unmeasured until this benchmark; MRR@10 ${fmt(earlier.overall.mrr10)}, R@10 ${fmt(earlier.overall.recall10)}; defaults ${versus(choice.current, earlier, report.queries).text}` },
    { name: "retrieval quality: defaults, macro nDCG@10", value: choice.current.macro, unit: "", note: `${choice.current.config.name}; MRR@10 ${fmt(choice.current.overall.mrr10)}, R@10 ${fmt(choice.current.overall.recall10)}` },
    {
      name: `retrieval quality: ${choice.best === choice.current ? "runner-up" : "best measured"}, macro nDCG@10`,
      value: other.macro,
      unit: "",
      target: "not better than the defaults beyond noise",
      pass: keep,
      note: `${other.config.name}; ${gain.text} (95 %) against the defaults`,
    },
    {
      name: "retrieval quality: retrieve() agrees with the measured path",
      value: report.agreement.same,
      unit: `of ${report.agreement.checked}`,
      target: "all",
      pass: report.agreement.same === report.agreement.checked,
    },
  ];
}

// `tsx bench/retrieval-quality.bench.ts` runs this benchmark alone.
if (import.meta.url === `file://${process.argv[1] ?? ""}`) {
  const { printResults } = await import("./stats");
  printResults(await benchRetrievalQuality());
}
