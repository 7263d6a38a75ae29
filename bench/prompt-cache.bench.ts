/**
 * The input cost of ingesting 20 related notes with prompt caching against without it (issue 28),
 * on Anthropic (Claude Sonnet 4.6) and OpenAI (GPT-4.1 mini): each note's analysis and pages
 * against the scripted servers, which count every prompt from the request and report cache reads
 * and writes as each provider documents them (test/helpers/scripted-prompt-cache.ts). The same
 * tokens are priced twice — with the cache's rates, and all as ordinary input, which is what a run
 * without caching pays — so the figure is a ratio of costs, not a timing.
 *
 * The notes are about one subject, so the analysis of each is told the same wiki context (what the
 * wiki holds and the titles of the related pages). The notes differ; the instructions and the
 * schema are the same for all. Only a prefix past the provider's minimum is cached (1,024 tokens on
 * OpenAI, 1,024–4,096 by Claude model), so a ratio of 1 says the repeated part of Synapse's
 * requests is still shorter than that minimum.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { orchestrate } from "../src/core/orchestrator";
import { costAt, priceFor } from "../src/core/pricing";
import { createRunContext } from "../src/core/run-context";
import { createProvider } from "../src/providers/factory";
import { SettingsSchema } from "../src/settings/schema";
import { FIXTURE_NOTES } from "../test/helpers/fixture-notes";
import { startScriptedServer } from "../test/helpers/scripted-server";
import type { BenchResult } from "./stats";

const NOTES = 20;
const FIXTURES = new URL("../test/fixtures/providers/", import.meta.url);
const fixture = (name: string) => readFileSync(new URL(name, FIXTURES), "utf8");
const BASE_NOTE = readFileSync(join(FIXTURE_NOTES, "en/Bases/Introduction to Bases.md"), "utf8");
const SOURCE_IN_FIXTURE = "notes/Introduction to Bases.md";

/** What a wiki of a few hundred pages tells the analysis of a note about Bases: its size and the related titles. */
const WIKI_CONTEXT = `The wiki (folder "wiki") has 312 pages. Link to existing pages by their exact title, and update a page that covers the same subject instead of writing it again under another title. The pages most related to this note, best first: ${Array.from(
  { length: 40 },
  (_, i) => ["Bases", "Base views", "Table view", "Cards view", "Filters", "Formulas", "Properties", "Sorting", "Grouping", "Embedding a base"][i % 10] + (i >= 10 ? ` (${Math.floor(i / 10) + 1})` : ""),
).join("; ")}`;

function relatedNote(index: number): { path: string; text: string } {
  return { path: `notes/Bases ${index + 1}.md`, text: `${BASE_NOTE}\n\n## Note ${index + 1}\n\nThis note adds detail number ${index + 1}: a view with ${index + 2} columns and a filter on the property "rating ${index}".\n` };
}

const PROTOCOLS = [
  { protocol: "anthropic", model: "claude-sonnet-4-6", profile: (url: string) => ({ anthropic: { baseUrl: url, model: "claude-sonnet-4-6" } }) },
  { protocol: "openai", model: "gpt-4.1-mini", profile: (url: string) => ({ openai: { preset: "custom", baseUrl: `${url}/v1`, model: "gpt-4.1-mini" } }) },
] as const;

export async function benchPromptCache(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  for (const { protocol, model, profile } of PROTOCOLS) {
    const server = await startScriptedServer({ protocol, script: [], promptCache: true });
    try {
      const settings = SettingsSchema.parse({ operations: { ingest: protocol, query: protocol, lint: protocol }, profiles: profile(server.url) });
      const provider = createProvider(protocol, { settings, secrets: { get: () => "sk-bench" }, fetch: (i, init) => fetch(i, init), streamingFetch: (i, init) => fetch(i, init) });
      let input = 0;
      let read = 0;
      let written = 0;
      for (let i = 0; i < NOTES; i++) {
        const note = relatedNote(i);
        server.setScript([{ kind: "content", text: fixture("bases-analysis.json") }, { kind: "content", text: fixture("bases-pages.json").replaceAll(SOURCE_IN_FIXTURE, note.path) }]);
        const run = createRunContext({ source: note, timeoutMs: 60_000 });
        await orchestrate(provider, { maxIter: 1, tokenBudget: 0, retrievalContext: "", vaultContext: WIKI_CONTEXT }, run);
        input += run.usage.totals().inputTokens;
        read += run.usage.cache().cacheReadTokens;
        written += run.usage.cache().cacheWriteTokens;
      }
      const price = priceFor(model);
      if (!price) throw new Error(`No price for ${model}.`);
      const cached = costAt(price, { inputTokens: input, outputTokens: 0, cacheReadTokens: read, cacheWriteTokens: written });
      const plain = costAt(price, { inputTokens: input, outputTokens: 0 });
      results.push({
        name: `prompt cache: input cost of ${NOTES} related notes, cached / uncached (${protocol}, ${model})`,
        value: Math.round((cached / plain) * 1000) / 1000,
        unit: "×",
        note: `${input.toLocaleString("en-US")} input tokens, ${read.toLocaleString("en-US")} read from the cache, ${written.toLocaleString("en-US")} written; $${cached.toFixed(4)} against $${plain.toFixed(4)}`,
      });
    } finally {
      await server.close();
    }
  }
  return results;
}
