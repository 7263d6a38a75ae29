/** Builders for test objects, so each test states only what matters to it. */
import { defineCapabilities, type ProviderCapabilities } from "../src/core/capabilities";
import type { GenerationInput, InferenceProvider } from "../src/core/provider";
import type { RunContext } from "../src/core/run-context";
import type { Analysis, Message, WikiPage } from "../src/core/schemas";

export const SOURCE_PATH = "notes/Source note.md";

export class PageBuilder {
  private page: WikiPage = {
    type: "concept",
    title: "Example concept",
    frontmatter: { sources: [SOURCE_PATH], lang: "en", tags: [] },
    content: "An example concept, linked to [[Source note]].",
  };
  ofType(type: string): this {
    this.page = { ...this.page, type };
    return this;
  }
  titled(title: string): this {
    this.page = { ...this.page, title };
    return this;
  }
  withSources(...sources: string[]): this {
    this.page = { ...this.page, frontmatter: { ...this.page.frontmatter, sources } };
    return this;
  }
  inLanguage(lang: string): this {
    this.page = { ...this.page, frontmatter: { ...this.page.frontmatter, lang } };
    return this;
  }
  withContent(content: string): this {
    this.page = { ...this.page, content };
    return this;
  }
  build(): WikiPage {
    return structuredClone(this.page);
  }
}

export const aPage = () => new PageBuilder();

export const anAnalysis = (overrides: Partial<Analysis> = {}): Analysis => ({
  title: "Source note",
  language: "en",
  summary: "A note about examples.",
  topics: ["examples"],
  entities: [],
  concepts: [{ name: "Example concept", description: "What examples are." }],
  ...overrides,
});

type Step = WikiPage[] | Error | ((run: RunContext) => Promise<WikiPage[]>);

/**
 * A scripted provider for orchestrator tests: each generate() call plays the next step (the last
 * step repeats). It records what it was called with, and reports usage like a real model would.
 */
export class ScriptedProvider implements InferenceProvider {
  readonly analyzeCalls: { sourceText: string; vaultContext: string }[] = [];
  /** `feedback`: a retry's validation errors, "" on a first attempt. */
  readonly generateCalls: { analysis: Analysis; retrievalContext: string; note: string; feedback: string }[] = [];
  private readonly caps: ProviderCapabilities;

  constructor(
    private readonly steps: Step[],
    capabilities: Partial<ProviderCapabilities> = {},
    private readonly tokensPerCall = 0,
  ) {
    this.caps = defineCapabilities({ name: "scripted", mode: "local", isLocal: true, ...capabilities });
  }

  capabilities(): ProviderCapabilities {
    return this.caps;
  }

  analyze(sourceText: string, vaultContext: string, run: RunContext): Promise<Analysis> {
    this.analyzeCalls.push({ sourceText, vaultContext });
    this.charge(run, "analyze");
    return Promise.resolve(anAnalysis());
  }

  async generate({ analysis, related: retrievalContext, note, feedback }: GenerationInput, run: RunContext): Promise<WikiPage[]> {
    this.generateCalls.push({ analysis, retrievalContext, note, feedback: feedback ?? "" });
    const step = this.steps[Math.min(this.generateCalls.length - 1, this.steps.length - 1)];
    this.charge(run, "generate");
    if (step instanceof Error) throw step;
    if (typeof step === "function") return step(run);
    return structuredClone(step ?? []);
  }

  // eslint-disable-next-line require-yield -- never called by ingest tests
  async *chat(_messages: Message[], _context: string, _run: RunContext): AsyncIterable<string> {
    throw new Error("not used");
  }

  private charge(run: RunContext, operation: "analyze" | "generate"): void {
    if (this.tokensPerCall > 0) {
      run.usage.record({ provider: "scripted", model: "scripted-1", operation, inputTokens: this.tokensPerCall, outputTokens: 0 });
    }
  }
}
