/**
 * No marker of Synapse's reaches a model, through the whole loop. A wiki is written by real Offline
 * ingests through the write path, so its pages carry the very bookkeeping Synapse writes (a
 * `%% synapse:source … hash=… %%` marker and a `*From [[…]]*` line opening each source section,
 * the closing marker, `synapse_id` in the frontmatter) and the chunks of nothing else that a page
 * opening with a marker yields. Then a model backend that records every text it is handed — the
 * note and the wiki context of the analysis, the note, the related pages and the analysis of the
 * generation, the same-subject confirm, a question's messages and passages, lint's pair checks, the
 * embedding model's inputs — runs an ingest, a question and lint's model checks, and none of what
 * it saw holds a marker, a bookkeeping key or an attribution line, nor a passage that was nothing
 * else. What the user is shown of a passage (a search snippet, a cited page's text) is clean too.
 *
 * The checks below are the test's own patterns, not stripProvenance: with the stripping switched
 * off, this file fails.
 */
import { describe, expect, it } from "vitest";
import { defineCapabilities, type ProviderCapabilities } from "../../src/core/capabilities";
import type { GenerationInput, InferenceProvider, StructuredAsk } from "../../src/core/provider";
import type { RunContext } from "../../src/core/run-context";
import type { Analysis, Message, WikiPage } from "../../src/core/schemas";
import { runLint } from "../../src/lint/run-lint";
import { OfflineProvider } from "../../src/providers/offline/offline-provider";
import { askWiki } from "../../src/query/ask";
import { indexCatalog } from "../../src/retrieval/catalog";
import { readFrontmatter } from "../../src/retrieval/chunker";
import type { Embedder } from "../../src/retrieval/embedder";
import { syncIndex } from "../../src/retrieval/sync";
import { VaultIndex } from "../../src/retrieval/vault-index";
import { DEFAULT_SETTINGS, type Settings } from "../../src/settings/schema";
import { MemoryStateStore } from "../../src/vault/memory-state-store";
import { MemoryVault } from "../../src/vault/memory-vault";
import { ingestNote } from "../../src/wiki/ingest-note";
import { aPage, anAnalysis } from "../builders";
import { fakeEmbedding } from "../helpers/fake-embedding";

const NOW = () => Date.UTC(2026, 11, 3, 12, 0);
const NOTES = {
  "notes/Ada.md":
    "# Ada Lovelace\n\nAda Lovelace wrote the first program for the Analytical Engine in 1843.\n\n## Notes\n\nHer notes on the Analytical Engine described how to compute Bernoulli numbers.\n",
  "notes/Engine.md":
    "# Analytical Engine\n\nThe Analytical Engine was a mechanical computer designed by Charles Babbage. Ada Lovelace wrote about the Analytical Engine.\n\n## Design\n\nThe Analytical Engine had a mill and a store.\n",
};
/** The note ingested through the recording model: it is about pages the wiki already has. */
const MILL = { path: "notes/Mill.md", text: "# The mill\n\nThe mill of the Analytical Engine did the arithmetic; Ada Lovelace described its store and its mill.\n" };
/** Words of the Offline pages: proof that the wiki's passages really were sent. */
const PAGE_WORDS = "mechanical computer designed by Charles Babbage";

/** Synapse's bookkeeping, by patterns of this test's own (stripProvenance is what is under test). */
const MARKER = /%%\s*\/?synapse/i;
const BOOKKEEPING_KEY = /synapse_(?:id|hash)/;
const ATTRIBUTION = /\*From \[\[/;
const BOOKKEEPING_LINE = /^\s*(?:%%\s*\/?synapse:[^\n]*%%|\*From \[\[[^\]\n]*\]\]\*)\s*$/;

function settings(overrides: Partial<Settings> = {}): Settings {
  return { ...structuredClone(DEFAULT_SETTINGS), ...overrides };
}

interface Sent {
  readonly step: string;
  readonly text: string;
}

/** A model backend that records every text it is handed and replies as a well-behaved model would. */
class RecordingModel implements InferenceProvider {
  readonly sent: Sent[] = [];
  private readonly caps: ProviderCapabilities;
  constructor(
    private readonly pages: readonly WikiPage[] = [],
    private readonly answer = "",
    private readonly beforeAnswer?: (run: RunContext) => Promise<void>,
  ) {
    this.caps = defineCapabilities({ name: "recorder", mode: "local", isLocal: true, model: "recorder-1", maxContext: 32_768, streaming: true, structuredOutput: "json_schema" });
  }
  capabilities(): ProviderCapabilities {
    return this.caps;
  }
  private record(step: string, ...texts: string[]): void {
    for (const text of texts) this.sent.push({ step, text });
  }
  steps(): string[] {
    return [...new Set(this.sent.map((s) => s.step))];
  }
  textOf(step: string): string {
    return this.sent.filter((s) => s.step === step).map((s) => s.text).join("\n");
  }
  analyze(sourceText: string, vaultContext: string): Promise<Analysis> {
    this.record("analyze", sourceText, vaultContext);
    return Promise.resolve(anAnalysis({ title: "The mill", summary: "The mill of the Analytical Engine.", concepts: [{ name: "Analytical Engine mill", description: "Where it computed." }] }));
  }
  generate(input: GenerationInput): Promise<WikiPage[]> {
    this.record("generate", input.note, input.related, input.feedback ?? "", JSON.stringify(input.analysis));
    return Promise.resolve(structuredClone([...this.pages]));
  }
  async *chat(messages: Message[], context: string, run: RunContext): AsyncIterable<string> {
    this.record("chat", context, ...messages.map((m) => m.content));
    await this.beforeAnswer?.(run);
    yield this.answer;
  }
  ask<T>(request: StructuredAsk<T>): Promise<T> {
    this.record(request.name, request.system, request.user);
    const reply = request.name === "same_subject" ? { same: false, reason: "One is a part of the other." } : { contradictions: [], duplicate: false, reason: "Different subjects." };
    return Promise.resolve(request.schema.parse(reply));
  }
}

/** The embedding model, recording every text it is asked to embed. */
function recordingEmbedder(): Embedder & { readonly texts: string[] } {
  const texts: string[] = [];
  return {
    modelId: "fake:recorder",
    texts,
    embed(batch) {
      texts.push(...batch);
      return Promise.resolve(batch.map((t) => Float32Array.from(fakeEmbedding(t))));
    },
  };
}

/** Two notes ingested by the Offline backend through the real write path, with the vault's index. */
async function offlineWiki() {
  const vault = new MemoryVault({ ...NOTES, [MILL.path]: MILL.text });
  const store = new MemoryStateStore();
  const embedder = recordingEmbedder();
  const index = await VaultIndex.open({ frontmatter: readFrontmatter, store, reader: vault, wikiFolder: "wiki", excludedFolders: [], embedder });
  await syncIndex(index, vault);
  const catalog = indexCatalog(index, vault, { changed: async () => void (await index.flush()) });
  const write = { store, writer: { kind: "cli" as const, pid: null, host: null } };
  const ingest = (provider: InferenceProvider, notePath: string) => ingestNote({ vault, provider, settings: settings(), retriever: index, catalog, state: store, write, now: NOW }, { notePath });
  for (const notePath of Object.keys(NOTES)) {
    const report = await ingest(new OfflineProvider(), notePath);
    expect(report.error, notePath).toBeNull();
  }
  await index.embedPending();
  const pages = (await vault.list("wiki")).filter((p) => !/\/(index|log)\.md$/.test(p));
  const written = await Promise.all(pages.map((p) => vault.read(p)));
  // The wiki really carries Synapse's bookkeeping, and a page opens with a marker and its attribution.
  expect(written.join("\n")).toMatch(/^%% synapse:source notes\/Engine\.md hash=[0-9a-f]{16} %%$/m);
  expect(written.join("\n")).toMatch(/^synapse_id: sy-/m);
  expect(written.some((text) => /\n---\n\n%% synapse:source [^\n]*\n\*From \[\[[^\n]*\]\]\*\n\n## /.test(text))).toBe(true);
  return { vault, store, index, embedder, write, ingest };
}

function expectNoBookkeeping(sent: readonly Sent[]): void {
  for (const { step, text } of sent) {
    expect(text, `${step} was sent a source marker`).not.toMatch(MARKER);
    expect(text, `${step} was sent a bookkeeping key`).not.toMatch(BOOKKEEPING_KEY);
    expect(text, `${step} was sent an attribution line`).not.toMatch(ATTRIBUTION);
  }
}

/** Every block holds something once bookkeeping lines are taken out: a passage of only those is never sent. */
function expectNoHollowBlock(blocks: readonly string[], what: string): void {
  expect(blocks.length, `${what}: no passage was sent at all`).toBeGreaterThan(0);
  for (const block of blocks) {
    const [, ...body] = block.split("\n");
    const said = body.filter((line) => !BOOKKEEPING_LINE.test(line) && line.trim() !== "");
    expect(said.length, `${what}: a passage with nothing but bookkeeping:\n${block}`).toBeGreaterThan(0);
  }
}

describe("no marker of Synapse's reaches a model", () => {
  it("ingest: the analysis, the generation with its related pages, and the same-subject confirm see none", async () => {
    const { ingest } = await offlineWiki();
    const page = aPage()
      .titled("Analytical Engine mill")
      .withSources(MILL.path)
      .withContent("The mill of the [[Analytical Engine]] did its arithmetic, as [[Ada Lovelace]] described.")
      .build();
    const model = new RecordingModel([page]);
    const report = await ingest(model, MILL.path);
    expect(report.error).toBeNull();
    expect(report.converged).toBe(true);
    expect(model.steps()).toEqual(["analyze", "generate", "same_subject"]);
    // The related pages were sent, words and all, and their titles named to the analysis.
    expect(model.textOf("generate")).toContain(PAGE_WORDS);
    expect(model.textOf("analyze")).toContain("Analytical Engine");
    expect(model.textOf("same_subject")).toContain('Page B: "Analytical Engine"');
    expectNoBookkeeping(model.sent);
    const related = model.sent.find((s) => s.step === "generate" && s.text.includes("Existing wiki pages related to the note:"))?.text ?? "";
    const blocks = related.split("Existing wiki pages related to the note:\n\n")[1]?.split(/\n\n(?=### \[\[)/) ?? [];
    expectNoHollowBlock(blocks, "the related pages");
  });

  it("query: the question's passages and messages hold none, and a cited page's text as shown holds none", async () => {
    const { vault, index } = await offlineWiki();
    const model = new RecordingModel([], "She wrote the first program [[Ada Lovelace]].");
    const report = await askWiki({ vault, provider: model, retriever: index, settings: settings(), now: NOW }, { question: "What did Ada Lovelace write?" });
    expect(report.error).toBeNull();
    expect(model.steps()).toEqual(["chat"]);
    const context = model.sent[0]?.text ?? "";
    // "Ada Lovelace" is also the label of the attribution line that opens the Analytical Engine
    // page's section from her note: the page is found by what it says of her, not by that line.
    const wiki = report.passages.filter((p) => p.kind === "wiki");
    expect(wiki.map((p) => p.path)).toContain("wiki/sources/Ada Lovelace.md");
    expect(wiki.find((p) => p.path === "wiki/entities/Analytical Engine.md")?.text).toContain("Ada Lovelace wrote the first program");
    expectNoBookkeeping(model.sent);
    expectNoHollowBlock(context.split(/\n\n(?=\[\d+\] \[\[)/), "the question's passages");
    // What the view shows of each source comes from these passages.
    expect(report.passages.length).toBeGreaterThan(0);
    expectNoBookkeeping(report.passages.map((p) => ({ step: `passage ${p.path}`, text: p.text })));
    expect(report.citations).toEqual([expect.objectContaining({ page: "Ada Lovelace", verified: true })]);
  });

  it("query: a page an agent read itself is shown without bookkeeping", async () => {
    const { vault, index } = await offlineWiki();
    const read = "wiki/sources/Ada Lovelace.md";
    const raw = await vault.read(read);
    expect(raw).toMatch(MARKER);
    // Asked of the notes, so the page is no passage: an agentic backend reads the raw file itself
    // and says so through the run (as the bridge does).
    const model = new RecordingModel([], "See [[Ada Lovelace]].", (run) => {
      run.consulted?.([{ path: read, text: raw }]);
      return Promise.resolve();
    });
    const report = await askWiki({ vault, provider: model, retriever: index, settings: settings(), now: NOW }, { question: "What did the mill of the Analytical Engine do?", scope: "notes" });
    expect(report.error).toBeNull();
    const consulted = report.consulted.find((p) => p.path === read);
    expect(report.passages.map((p) => p.kind)).not.toContain("wiki");
    expect(consulted?.text).toContain("Ada Lovelace wrote the first program");
    expect(report.citations).toEqual([expect.objectContaining({ page: "Ada Lovelace", path: read, verified: true })]);
    expectNoBookkeeping([{ step: "the consulted page as shown", text: consulted?.text ?? "" }]);
  });

  it("lint: every pair check's page texts hold none", async () => {
    const { vault, store, write } = await offlineWiki();
    const model = new RecordingModel();
    const report = await runLint({ vault, store, write, provider: model, settings: settings(), now: NOW }, { modelChecks: true });
    expect(report.error).toBeNull();
    expect(model.steps()).toEqual(["pair_verdict"]);
    expect(model.textOf("pair_verdict")).toContain(PAGE_WORDS);
    expectNoBookkeeping(model.sent);
    for (const { text } of model.sent.filter((s) => s.text.startsWith("Page A: "))) {
      const pages = text.split(/\n\n---\n\n(?=Page B: )/);
      expect(pages).toHaveLength(2);
      expectNoHollowBlock(pages, "a pair check's pages");
    }
  });

  it("embedding: the embedding model is never handed a marker, and a chunk of nothing else is not embedded", async () => {
    const { embedder } = await offlineWiki();
    expect(embedder.texts.join("\n")).toContain(PAGE_WORDS);
    expectNoBookkeeping(embedder.texts.map((text) => ({ step: "embed", text })));
    expect(embedder.texts.filter((text) => text.trim() === "")).toEqual([]);
  });

  it("search: a hit's snippet, as the CLI and the MCP server show it, holds none", async () => {
    const { index } = await offlineWiki();
    const hits = await index.retrieve("Analytical Engine Ada Lovelace", { scope: { kind: "wiki" }, limit: 20 });
    expect(hits.length).toBeGreaterThan(1);
    // The chunks themselves carry the bookkeeping; the snippets made of them do not.
    expect(hits.some((h) => MARKER.test(h.text))).toBe(true);
    expectNoBookkeeping(hits.map((h) => ({ step: `snippet of ${h.path}`, text: h.snippet })));
  });
});
