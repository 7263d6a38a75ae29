/**
 * The provider contract. Backends are configuration, not code paths: the orchestrator only ever
 * sees this interface and reads `capabilities()`.
 */
import type * as z from "zod";
import type { ProviderCapabilities } from "./capabilities";
import type { RunContext } from "./run-context";
import type { Analysis, Message, WikiPage } from "./schemas";

/**
 * A one-off structured request (lint's pair checks): exactly one system message and one user
 * message, a reply the server is asked to hold to `schema` where it can (Ollama `format`, OpenAI
 * `response_format`, Anthropic's forced tool), and that is parsed strictly: a reply missing a
 * field is a `schema` failure, never an answer.
 */
export interface StructuredAsk<T> {
  readonly system: string;
  readonly user: string;
  readonly schema: z.ZodType<T>;
  /** The schema's name where a protocol wants one ("pair_verdict"). */
  readonly name: string;
  /** What the reply holds, for messages ("the pair verdict"). */
  readonly what: string;
}

/**
 * What the page-writing step works from: the analysis, the note itself (whole, or its best parts
 * when it does not fit the window: note-excerpt.ts), and what the wiki already holds.
 */
export interface GenerationInput {
  readonly analysis: Analysis;
  /** The note's text, packed by the orchestrator within the window the backend declares. */
  readonly note: string;
  /** Related wiki pages: what the wiki holds, the same for every attempt (and for notes that share the pages). */
  readonly related: string;
  /** On a retry, the validation errors of the previous attempt; absent on the first. */
  readonly feedback?: string;
}

export interface InferenceProvider {
  /** Reads the source once and says what it is about. Called exactly once per ingest. */
  analyze(sourceText: string, vaultContext: string, run: RunContext): Promise<Analysis>;
  /**
   * Writes wiki pages for an analysed source. An agentic provider runs its whole agent loop here
   * (it reads the whole source itself: `run.source`).
   */
  generate(input: GenerationInput, run: RunContext): Promise<WikiPage[]>;
  /** Streams an answer, content only. */
  chat(messages: Message[], retrievalContext: string, run: RunContext): AsyncIterable<string>;
  /**
   * A structured one-off request, with no question-answering prompt around it; the output limit is
   * the run's `maxOutputTokens`. Absent on backends that cannot hold a reply to a schema (the
   * agentic CLI): callers then fall back to `chat` and read the reply as strictly.
   */
  ask?<T>(request: StructuredAsk<T>, run: RunContext): Promise<T>;
  /**
   * How many tokens this backend's server was seen to count per token of the window measure
   * (core/window-tokens.ts), ≥ 1: what the adapter sizes its windows by, so a question packs its
   * passages by the same measure. Absent: 1 (the backend plans no window by it).
   */
  promptTokenRatio?(): number;
  /** A pure, synchronous descriptor. */
  capabilities(): ProviderCapabilities;
}
