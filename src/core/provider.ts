/**
 * The provider contract. Backends are configuration, not code paths: the orchestrator only ever
 * sees this interface and reads `capabilities()`.
 */
import type { ProviderCapabilities } from "./capabilities";
import type { RunContext } from "./run-context";
import type { Analysis, Message, WikiPage } from "./schemas";

export interface InferenceProvider {
  /** Reads the source once and says what it is about. Called exactly once per ingest. */
  analyze(sourceText: string, vaultContext: string, run: RunContext): Promise<Analysis>;
  /**
   * Writes wiki pages for an analysed source. `retrievalContext` holds related wiki pages and, on
   * a retry, the validation errors of the previous attempt. An agentic provider runs its whole
   * agent loop here (the source is `run.source`).
   */
  generate(analysis: Analysis, retrievalContext: string, run: RunContext): Promise<WikiPage[]>;
  /** Streams an answer, content only. */
  chat(messages: Message[], retrievalContext: string, run: RunContext): AsyncIterable<string>;
  /** A pure, synchronous descriptor. */
  capabilities(): ProviderCapabilities;
}
