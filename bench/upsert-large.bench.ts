/**
 * One large note updated in the index: `upsert` — hashing, chunking, links, tokenising and a merge
 * of the segment when the note carries it past its bound — in one step, as the index's worker runs
 * it, for a note of the default "Largest note" size (512 KB, or SYNAPSE_NOTE_KB), beside the
 * corpus's first 1,000 English notes. Wall time: report the machine's load.
 * Alone: `SYNAPSE_NOTE_KB=3072 npx tsx bench/upsert-large.bench.ts`.
 */
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { readFrontmatter } from "../src/retrieval/chunker";
import { VaultIndex } from "../src/retrieval/vault-index";
import { MemoryStateStore } from "../src/vault/memory-state-store";
import { corpusNotes } from "../test/helpers/corpus";
import type { BenchResult } from "./stats";

const NOTE_BYTES = Number(process.env.SYNAPSE_NOTE_KB ?? 512) * 1024;
const SIZE = NOTE_BYTES % (1024 * 1024) === 0 ? `${NOTE_BYTES / 1024 / 1024} MB` : `${NOTE_BYTES / 1024} KB`;
const ROUNDS = 5;

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

export async function benchUpsertLarge(): Promise<BenchResult[]> {
  const index = await openWithCorpus();
  const text = largeNote(NOTE_BYTES);
  const stepMs: number[] = [];
  const stepCpuMs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Joined, not concatenated: a flat string, as a note read from disk is (a concatenation is
    // copied flat by whatever reads it first).
    const version = [text, `\nround ${round}\n`].join("");
    const t = performance.now();
    const cpu = process.cpuUsage();
    index.upsert("notes/large.md", version, { mtime: round, size: version.length });
    stepMs.push(performance.now() - t);
    const used = process.cpuUsage(cpu);
    stepCpuMs.push((used.user + used.system) / 1000);
  }
  const worst = (values: number[]) => Math.max(...values);
  return [{ name: `upsert ${SIZE} note (one step)`, value: worst(stepMs), unit: "ms", note: `worst of ${ROUNDS}, merge included; CPU ${worst(stepCpuMs).toFixed(1)} ms` }];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const r of await benchUpsertLarge()) console.log(`${r.name}: ${r.value.toFixed(1)} ${r.unit}${r.note ? ` (${r.note})` : ""}`);
}
