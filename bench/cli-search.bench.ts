/**
 * `synapse search` as a user meets it: a fresh process per command (start Node, load dist/cli.mjs,
 * open the persisted index, check every note for changes, answer), on a copy of the corpus and
 * (with SYNAPSE_BENCH_50K=1 or --retrieval-50k) on the 50,000-note vault. `synapse index` with
 * nothing changed runs interleaved with the searches. Each run's phases come from the CLI's own
 * marks (SYNAPSE_TIMING=1, src/cli/timing.ts); wall time is the parent's, from spawn to exit.
 * Needs `npm run build` first. Runs alone with `npx tsx bench/cli-search.bench.ts`.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { TIMING_PREFIX } from "../src/cli/timing";
import { CORPUS, requireCorpus } from "../test/helpers/corpus";
import { syntheticVault } from "./bench-vaults";
import { wants50k } from "./retrieval.bench";
import { percentile, printResults, type BenchResult } from "./stats";

const WARM_TARGET_MS = 5000;
const QUERIES = ["canvas link", "daily notes template", "sync version history", "graph view filters", "community plugins settings", "publish custom domain", "embed files"];

interface Timing {
  readonly loadedMs: number;
  readonly phases: Readonly<Record<string, number>>;
  readonly endMs: number;
  readonly cpuMs: number;
}

interface Run {
  readonly wallMs: number;
  readonly timing: Timing;
  readonly stdout: string;
}

function cli(args: readonly string[]): Run {
  const start = performance.now();
  const result = spawnSync(process.execPath, [join(process.cwd(), "dist", "cli.mjs"), ...args], {
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024,
    env: { ...process.env, SYNAPSE_TIMING: "1" },
  });
  const wallMs = performance.now() - start;
  if (result.status !== 0) throw new Error(`synapse ${args.join(" ")} exited with ${result.status}:\n${result.stderr}`);
  const line = result.stderr.split("\n").find((l) => l.startsWith(TIMING_PREFIX));
  if (!line) throw new Error(`synapse ${args.join(" ")} printed no timing line:\n${result.stderr}`);
  return { wallMs, timing: JSON.parse(line.slice(TIMING_PREFIX.length)) as Timing, stdout: result.stdout };
}

/** The phases in order, each as the time since the mark before it (the CLI marks each phase's end). */
const PHASES: readonly (readonly [string, string])[] = [
  ["command", "command module"],
  ["settings", "settings"],
  ["recovered", "recovery"],
  ["indexLoaded", "index load"],
  ["listed", "listing"],
  ["synced", "change check"],
  ["queried", "query"],
];

function breakdown(runs: readonly Run[]): string {
  const parts: string[] = [`start + CLI load ${spread(runs.map((r) => r.timing.loadedMs))}`];
  let previous = (r: Run) => r.timing.loadedMs;
  for (const [key, label] of PHASES) {
    if (runs.some((r) => r.timing.phases[key] === undefined)) continue;
    const before = previous;
    parts.push(`${label} ${spread(runs.map((r) => (r.timing.phases[key] ?? 0) - before(r)))}`);
    previous = (r) => r.timing.phases[key] ?? 0;
  }
  const last = previous;
  parts.push(`rest and exit ${spread(runs.map((r) => r.wallMs - last(r)))}`);
  return parts.join(", ");
}

const spread = (values: readonly number[]) => `${percentile(values, 50).toFixed(0)}/${Math.max(...values).toFixed(0)}`;

function row(name: string, runs: readonly Run[]): BenchResult {
  const wall = runs.map((r) => r.wallMs);
  const p50 = percentile(wall, 50);
  return {
    name,
    value: p50 / 1000,
    unit: "s",
    target: "< 5 s",
    pass: p50 < WARM_TARGET_MS,
    note: `p50 of ${runs.length} runs, max ${(Math.max(...wall) / 1000).toFixed(2)} s; CPU ${(percentile(runs.map((r) => r.timing.cpuMs), 50) / 1000).toFixed(2)} s; ms p50/max: ${breakdown(runs)}`,
  };
}

/**
 * What this machine charges for memory a process touches for the first time: a fresh process reads
 * `mb` fresh 1 MB buffers once. A cold command keeps about its index's size of new memory (the shards
 * as read), so this part of its time is the machine's page faults, not Synapse's work; in a virtual
 * machine that faults pages in from its host it can be several times what a desktop OS charges.
 */
function freshMemoryTouchMs(mb: number): number {
  const script = `const b=[];for(let i=0;i<${mb};i++)b.push(new Int32Array(new ArrayBuffer(1<<20)));let h=0;const t=performance.now();for(const a of b)for(let i=0;i<a.length;i+=1024)h^=a[i];const first=performance.now()-t;const u=performance.now();for(const a of b)for(let i=0;i<a.length;i+=1024)h^=a[i];console.log(JSON.stringify({first,again:performance.now()-u,h}))`;
  const result = spawnSync(process.execPath, ["-e", script], { encoding: "utf8" });
  const parsed = JSON.parse(result.stdout) as { first: number; again: number };
  return parsed.first - parsed.again;
}

function benchVault(label: string, vaultRoot: string, runs: number): BenchResult[] {
  const build = cli(["index", "--vault", vaultRoot, "--json"]);
  const searches: Run[] = [];
  const indexes: Run[] = [];
  for (let i = 0; i < runs; i++) {
    const search = cli(["search", QUERIES[i % QUERIES.length] as string, "--vault", vaultRoot, "--json"]);
    if ((JSON.parse(search.stdout) as { results: unknown[] }).results.length === 0) throw new Error(`No results for "${QUERIES[i % QUERIES.length]}".`);
    searches.push(search);
    const index = cli(["index", "--vault", vaultRoot, "--json"]);
    const report = JSON.parse(index.stdout) as { indexed: number; removed: number };
    if (report.indexed + report.removed !== 0) throw new Error(`synapse index found changes in an unchanged vault: ${index.stdout}`);
    indexes.push(index);
  }
  const indexMb = Math.ceil((JSON.parse(build.stdout) as { bytes: number }).bytes / 2 ** 20);
  return [
    { name: `cli ${label}: synapse index, first build`, value: build.wallMs / 1000, unit: "s", note: `${(build.timing.cpuMs / 1000).toFixed(2)} s CPU` },
    {
      name: `cli ${label}: this machine's first touch of ${indexMb} MB`,
      value: freshMemoryTouchMs(indexMb),
      unit: "ms",
      note: "page faults of as much fresh memory as the index's shards: part of every cold command, paid to the machine",
    },
    row(`cli ${label}: synapse search, cold process`, searches),
    row(`cli ${label}: synapse index, nothing changed`, indexes),
  ];
}

export function benchCliSearch(): BenchResult[] {
  requireCorpus("the CLI search benchmark");
  const work = mkdtempSync(join(tmpdir(), "synapse-bench-cli-"));
  try {
    // A copy: the CLI keeps its index in the vault's state folder, and the corpus is read-only.
    const corpus = join(work, "corpus");
    cpSync(CORPUS, corpus, { recursive: true });
    const results = benchVault("6,287 notes", corpus, 7);
    if (!wants50k()) return results;
    const root = syntheticVault(50_000);
    try {
      results.push(...benchVault("50,000 notes", root, 5));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
    return results;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1] ?? ""}`) printResults(benchCliSearch());
