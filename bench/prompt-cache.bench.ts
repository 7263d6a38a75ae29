/**
 * The input cost of ingesting 20 related notes with prompt caching against without it (issue 28),
 * through the real ingest: `ingestNote` with the vault's search index as its retriever and
 * catalogue, each run planned and applied into a temporary vault, so every note sees the pages the
 * notes before it wrote (and updated), as a folder ingest does. The adapters talk to the scripted
 * servers, which count every prompt from the request and report cache reads and writes as each
 * provider documents them (test/helpers/scripted-prompt-cache.ts). The same tokens are priced twice
 * — with the cache's rates, and all as ordinary input, which is what a run without caching pays —
 * so the figure is a ratio of costs, not a timing.
 *
 * The notes are about one subject (Bases): each is the fixture note with a section of its own on
 * one of ten sub-topics. The scripted model writes, for each note, its source page and updates of
 * two concept pages (the subject and the sub-topic), as a model would. Only a prefix past the
 * provider's minimum is cached (1,024 tokens on OpenAI; 1,024–4,096 by Claude model).
 * `npm run bench -- --only=prompt-cache` runs this alone.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { costAt, priceFor } from "../src/core/pricing";
import { createProvider } from "../src/providers/factory";
import { indexCatalog } from "../src/retrieval/catalog";
import { syncIndex } from "../src/retrieval/sync";
import { VaultIndex } from "../src/retrieval/vault-index";
import { readFrontmatter } from "../src/retrieval/chunker";
import { SettingsSchema } from "../src/settings/schema";
import { MemoryStateStore } from "../src/vault/memory-state-store";
import { MemoryVault } from "../src/vault/memory-vault";
import { ingestNote } from "../src/wiki/ingest-note";
import { FIXTURE_NOTES } from "../test/helpers/fixture-notes";
import { startScriptedServer, type RecordedRequest, type Reply } from "../test/helpers/scripted-server";
import type { BenchResult } from "./stats";

const NOTES = 20;
const BASE_NOTE = readFileSync(join(FIXTURE_NOTES, "en/Bases/Introduction to Bases.md"), "utf8");
const SUBTOPICS = ["Table view", "Cards view", "Filters", "Formulas", "Sorting", "Grouping", "Embedding a base", "Properties", "Summaries", "Bases syntax"];

interface Note {
  readonly path: string;
  readonly text: string;
  readonly title: string;
  readonly subtopic: string;
}

function relatedNote(index: number): Note {
  const subtopic = SUBTOPICS[index % SUBTOPICS.length]!;
  const title = `Bases: ${subtopic.toLowerCase()} ${index + 1}`;
  const own = `## ${subtopic}\n\nWhat I learned about ${subtopic.toLowerCase()} in bases, take ${index + 1}: a view with ${index + 2} columns, a filter on the property "rating ${index}", and notes on how ${subtopic.toLowerCase()} changes what the table shows.\n`;
  return { path: `notes/${title.replace(":", "")}.md`, text: `# ${title}\n\n${BASE_NOTE.replace(/^---[\s\S]*?---\n/, "")}\n${own}`, title, subtopic };
}

const analysisOf = (note: Note) => ({
  title: note.title,
  language: "en",
  summary: `How bases show notes as tables and cards, with a section on ${note.subtopic.toLowerCase()}.`,
  topics: ["obsidian", "bases"],
  entities: [],
  concepts: [
    { name: "Bases", description: "Database-like views over notes." },
    { name: note.subtopic, description: `${note.subtopic} in bases.` },
  ],
});

/** A model's pages for the note: its source page, and the subject's and the sub-topic's concept pages in its words. */
function pagesOf(note: Note) {
  const body = note.text.replace(/^# .*\n/, "").trim();
  const page = (type: string, title: string, content: string) => ({ type, title, frontmatter: { sources: [note.path], lang: "en", tags: ["bases"] }, content });
  return {
    pages: [
      page("source", note.title, `${body.slice(0, 600)}\n\nSee [[Bases]] and [[${note.subtopic}]].`),
      page("concept", "Bases", `A **base** shows notes as a table or as cards, built from their properties. ${body.slice(0, 400)}`),
      page("concept", note.subtopic, `${note.subtopic} in [[Bases]]: ${body.slice(-400)}`),
    ],
  };
}

/** The scripted model: reads which note a request is for from its path, and answers by the request's kind. */
function scriptedModel(notes: readonly Note[]): (request: RecordedRequest) => Reply {
  return (request) => {
    const sent = JSON.stringify(request.body);
    const note = [...notes].reverse().find((n) => sent.includes(n.path.replace(":", ""))) ?? notes[0]!;
    if (sent.includes("You analyse one source note")) return { kind: "content", text: JSON.stringify(analysisOf(note)) };
    if (sent.includes("You write pages for a personal wiki")) return { kind: "content", text: JSON.stringify(pagesOf(note)) };
    // Anything else (a check whether two titles name one page): unreadable, so "different".
    return { kind: "content", text: "{}" };
  };
}

/**
 * Two passes over one vault. First the notes are ingested into a wiki that grows: each note sees the
 * pages the notes before it wrote, so what it is told of the wiki changes from note to note. Then
 * they are ingested again as dry runs (as `propose` and a review that keeps nothing do) against
 * the wiki the first pass made, which no longer changes: notes about one subject are told the
 * same related pages.
 */
const PASSES = [
  { name: "ingested into a growing wiki", request: {} },
  { name: "ingested again as dry runs against the wiki they made", request: { force: true, dryRun: true } },
] as const;

const PROTOCOLS = [
  { protocol: "anthropic", model: "claude-sonnet-4-6", profile: (url: string) => ({ anthropic: { baseUrl: url, model: "claude-sonnet-4-6" } }) },
  { protocol: "openai", model: "gpt-4.1-mini", profile: (url: string) => ({ openai: { preset: "custom", baseUrl: `${url}/v1`, model: "gpt-4.1-mini" } }) },
] as const;

export async function benchPromptCache(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const notes = Array.from({ length: NOTES }, (_, i) => relatedNote(i));
  for (const { protocol, model, profile } of PROTOCOLS) {
    const server = await startScriptedServer({ protocol, script: scriptedModel(notes), models: [{ name: model }], promptCache: true });
    try {
      const settings = SettingsSchema.parse({ operations: { ingest: protocol, query: protocol, lint: protocol }, profiles: profile(server.url) });
      const provider = createProvider(protocol, { settings, secrets: { get: () => "sk-bench" }, fetch: (i, init) => fetch(i, init), streamingFetch: (i, init) => fetch(i, init) });
      // A fresh vault holding the notes and an empty wiki, with its search index as `synapse ingest` opens it.
      const vault = new MemoryVault(Object.fromEntries(notes.map((n) => [n.path, n.text])));
      const store = new MemoryStateStore();
      const index = await VaultIndex.open({ frontmatter: readFrontmatter, store, reader: vault, wikiFolder: settings.wikiFolder, excludedFolders: [] });
      await syncIndex(index, vault);
      const catalog = indexCatalog(index, vault);
      const price = priceFor(model);
      if (!price) throw new Error(`No price for ${model}.`);
      for (const pass of PASSES) {
        let input = 0;
        let read = 0;
        let written = 0;
        let failed = 0;
        for (const note of notes) {
          const report = await ingestNote({ vault, state: store, provider, settings, retriever: index, catalog }, { notePath: note.path, ...pass.request });
          if (report.error || !report.converged) failed += 1;
          input += report.usage.inputTokens;
          read += report.usage.cacheReadTokens ?? 0;
          written += report.usage.cacheWriteTokens ?? 0;
        }
        const cached = costAt(price, { inputTokens: input, outputTokens: 0, cacheReadTokens: read, cacheWriteTokens: written });
        const plain = costAt(price, { inputTokens: input, outputTokens: 0 });
        results.push({
          name: `prompt cache: input cost of ${NOTES} related notes ${pass.name}, cached / uncached (${protocol}, ${model})`,
          value: Math.round((cached / plain) * 1000) / 1000,
          unit: "×",
          note: `${input.toLocaleString("en-US")} input tokens, ${read.toLocaleString("en-US")} read from the cache, ${written.toLocaleString("en-US")} written; $${cached.toFixed(4)} against $${plain.toFixed(4)}${failed ? `; ${failed} ingest(s) did not converge` : ""}`,
        });
      }
      await index.close();
    } finally {
      await server.close();
    }
  }
  return results;
}
