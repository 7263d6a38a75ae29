/**
 * One large note updated on Obsidian's main thread: the sliced upsert (`VaultIndex.upsertSliced`,
 * counting the note's terms in pieces through a real TimeSlicer, see main-thread.ts) against the
 * synchronous `upsert` measured in the same run. Figures: the longest step between two checkpoints
 * (the first piece — hashing, chunking, links — the counting pieces, the commit, the segment merge's
 * pieces), the commit alone (writing the counted terms into the index) and the synchronous upsert's
 * one step (without the merge that follows it), for a note of the default "Largest note" size
 * (512 KB, or SYNAPSE_NOTE_KB), beside the corpus's first 1,000 English notes. Wall time: report
 * the machine's load. Alone: `SYNAPSE_NOTE_KB=3072 npx tsx bench/upsert-slice.bench.ts`.
 */
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { runPieces, runPiecesSliced } from "../src/core/time-slice";
import { VaultIndex } from "../src/retrieval/vault-index";
import { readFrontmatter } from "../src/retrieval/chunker";
import { MemoryStateStore } from "../src/vault/memory-state-store";
import { corpusNotes } from "../test/helpers/corpus";
import { mainThreadMeter, type MainThreadFigures } from "./main-thread";
import type { BenchResult } from "./stats";

const NOTE_BYTES = Number(process.env.SYNAPSE_NOTE_KB ?? 512) * 1024;
const SIZE = NOTE_BYTES % (1024 * 1024) === 0 ? `${NOTE_BYTES / 1024 / 1024} MB` : `${NOTE_BYTES / 1024} KB`;
const ROUNDS = 5;
const BLOCK_TARGET_MS = 50;

/** Prose of many distinct words, sections and paragraphs, like a long clipped article. */
function largeNote(bytes: number): string {
  const words = ["alpha", "beta", "gamma", "delta", "garden", "compost", "river", "mountain", "quantum", "lattice"];
  const parts = ["# Large note\n\n"];
  let length = parts[0]?.length ?? 0;
  for (let i = 0; length < bytes; i++) {
    let part = `${words[i % 10]}${i % 997} ${words[(i * 7) % 10]} and more words here ${i}. `;
    if (i % 40 === 0) part += "\n\n";
    if (i % 2000 === 0) part += `\n## Section ${i}\n\n`;
    parts.push(part);
    length += part.length;
  }
  return parts.join("");
}

async function openWithCorpus(): Promise<VaultIndex> {
  const notes = corpusNotes("en", 1000);
  const files = new Map(notes.map((n) => [n.path, n.text]));
  const index = await VaultIndex.open({
    frontmatter: readFrontmatter,
    store: new MemoryStateStore(),
    reader: { read: async (path) => files.get(path) ?? "" },
    wikiFolder: "wiki",
    excludedFolders: [],
  });
  for (const [i, note] of notes.entries()) index.upsert(note.path, note.text, { mtime: i, size: note.text.length });
  index.text.settle();
  return index;
}

export async function benchUpsertSlice(): Promise<BenchResult[]> {
  const index = await openWithCorpus();
  const text = largeNote(NOTE_BYTES);
  const syncMs: number[] = [];
  const commitMs: number[] = [];
  const commitCpuMs: number[] = [];
  const figures: MainThreadFigures[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Joined, not concatenated: a flat string, as a note read from disk is (a concatenation is
    // copied flat by whatever reads it first, here tens of milliseconds inside the first piece).
    const version = [text, `\nround ${round} synchronous\n`].join("");
    const t = performance.now();
    index.upsert("notes/large.md", version, { mtime: round, size: version.length });
    syncMs.push(performance.now() - t);
    runPieces(index.mergePieces());

    // As the sync and the plugin's updates run it: prepare in pieces, commit, merge in pieces.
    const sliced = [text, `\nround ${round} sliced\n`].join("");
    const meter = mainThreadMeter();
    meter.reset();
    const prepared = await runPiecesSliced(index.prepare("notes/large.md", sliced, { mtime: round, size: sliced.length }), meter.checkpoint);
    const c = performance.now();
    const cpu = process.cpuUsage();
    index.commit(prepared);
    commitMs.push(performance.now() - c);
    const used = process.cpuUsage(cpu);
    commitCpuMs.push((used.user + used.system) / 1000);
    await meter.checkpoint();
    await runPiecesSliced(index.mergePieces(), meter.checkpoint);
    figures.push(meter.finish());
  }
  const worst = (values: number[]) => Math.max(...values);
  const block = worst(figures.map((f) => f.longestBlockMs));
  const blockCpu = worst(figures.map((f) => f.mostBlockCpuMs));
  return [
    { name: `upsert ${SIZE} note, synchronous (one step)`, value: worst(syncMs), unit: "ms", note: `worst of ${ROUNDS}, merge not included` },
    { name: `upsert ${SIZE} note, sliced: commit`, value: worst(commitMs), unit: "ms", note: `worst of ${ROUNDS}; CPU ${worst(commitCpuMs).toFixed(1)} ms` },
    { name: `upsert ${SIZE} note, sliced: longest step`, value: worst(figures.map((f) => f.longestStepMs)), unit: "ms", note: `most CPU in a step ${worst(figures.map((f) => f.mostStepCpuMs)).toFixed(1)} ms` },
    {
      name: `upsert ${SIZE} note, sliced: longest block`,
      value: block,
      unit: "ms",
      target: `< ${BLOCK_TARGET_MS} ms`,
      pass: block < BLOCK_TARGET_MS,
      note: `most CPU in a block ${blockCpu.toFixed(1)} ms; ${figures.reduce((n, f) => n + f.yields, 0) / ROUNDS} yields an update`,
    },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const r of await benchUpsertSlice()) console.log(`${r.name}: ${r.value.toFixed(1)} ${r.unit}${r.note ? ` (${r.note})` : ""}`);
}
