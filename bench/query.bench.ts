/**
 * What asking the wiki adds before the first byte is requested: retrieval (the vault's real index:
 * text, graph, fusion), the relevance filter, the excluded-folder check of each page, and packing
 * the numbered context — measured from `askWiki`'s start to the moment the provider's `chat()` is
 * called, on a 5,000-page wiki of real help pages plus 1,000 source notes. The index is built
 * before the clock starts (in the plugin and the CLI it is persisted and only synced).
 */
import { defineCapabilities } from "../src/core/capabilities";
import type { InferenceProvider } from "../src/core/provider";
import { askWiki } from "../src/query/ask";
import { syncIndex } from "../src/retrieval/sync";
import { VaultIndex } from "../src/retrieval/vault-index";
import { readFrontmatter } from "../src/retrieval/chunker";
import { DEFAULT_SETTINGS } from "../src/settings/schema";
import { MemoryStateStore } from "../src/vault/memory-state-store";
import { MemoryVault } from "../src/vault/memory-vault";
import { corpusNotes } from "../test/helpers/corpus";
import { percentile, type BenchResult } from "./stats";

const PAGES = 5000;
const NOTES = 1000;
const TARGET_MS = 100;
const QUESTIONS = [
  "How do I filter a base by a property value?",
  "What does the graph view show about backlinks?",
  "How can I sync my vault between devices?",
  "Which keyboard shortcuts open the command palette?",
  "How do I embed an image in a note?",
  "What is the difference between tags and properties?",
  "How do canvas cards link to notes?",
  "How do I publish a site with a custom domain?",
];

function buildVault(): MemoryVault {
  const corpus = corpusNotes("en");
  const files: Record<string, string> = {};
  for (let i = 0; i < PAGES; i++) {
    const note = corpus[i % corpus.length];
    if (!note) break;
    const title = `${note.path.replace(/\.md$/, "").split("/").pop() ?? "Page"} ${Math.floor(i / corpus.length) + 1}`;
    const source = `notes/${title}.md`;
    files[`wiki/concepts/${title}.md`] = `---\ntype: concept\ntitle: ${title}\nsources:\n  - ${source}\nlang: en\ntags: []\n---\n${note.text}\n`;
    if (i < NOTES) files[source] = note.text;
  }
  return new MemoryVault(files);
}

/** Records when it is called and answers at once, so only what comes before the request is timed. */
function firstRequestClock(): { provider: InferenceProvider; calledAt: () => number } {
  let calledAt = Number.NaN;
  const capabilities = defineCapabilities({ name: "bench", mode: "local", isLocal: true, streaming: true, maxContext: 32_768 });
  return {
    calledAt: () => calledAt,
    provider: {
      capabilities: () => capabilities,
      analyze: () => Promise.reject(new Error("not used")),
      generate: () => Promise.reject(new Error("not used")),
      chat: () => {
        calledAt = performance.now();
        return (async function* () {
          yield "ok";
        })();
      },
    },
  };
}

export async function benchQuery(): Promise<BenchResult[]> {
  const vault = buildVault();
  const index = await VaultIndex.open({ frontmatter: readFrontmatter, store: new MemoryStateStore(), reader: vault, wikiFolder: "wiki", excludedFolders: [] });
  await syncIndex(index, vault, { batchSize: 500 });
  const settings = { ...DEFAULT_SETTINGS, excludedFolders: ["private"] };
  const timings: number[] = [];
  // Two rounds of warm-up, then the measured rounds.
  for (let round = 0; round < 6; round++) {
    for (const question of QUESTIONS) {
      const clock = firstRequestClock();
      const start = performance.now();
      const report = await askWiki({ vault, provider: clock.provider, retriever: index, settings }, { question });
      if (report.error) throw new Error(`The benchmark's question failed: ${report.error.message}`);
      if (round >= 2 && report.grounding === "vault") timings.push(clock.calledAt() - start);
    }
  }
  const p50 = percentile(timings, 50);
  const p95 = percentile(timings, 95);
  const note = `${PAGES.toLocaleString("en-US")} wiki pages + ${NOTES.toLocaleString("en-US")} notes, ${timings.length} questions; p95 ${p95.toFixed(1)} ms`;
  return [{ name: "query: retrieval + prompt before the first request, p50", value: p50, unit: "ms", target: `< ${TARGET_MS} ms (p95)`, pass: p95 < TARGET_MS, note }];
}
