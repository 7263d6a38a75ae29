/**
 * A provider that remembers what it returned: the analysis and the pages of the last generation
 * (the one that converged, since the orchestrator stops at the first that validates). Proposing an
 * ingest keeps them, so accepting it later plans the same pages without calling a model again.
 */
import type { InferenceProvider } from "../core/provider";
import type { Analysis, WikiPage } from "../core/schemas";

export interface RecordedOutput {
  readonly analysis: Analysis | null;
  readonly pages: readonly WikiPage[] | null;
}

export function recordingProvider(provider: InferenceProvider): { provider: InferenceProvider; recorded: () => RecordedOutput } {
  let analysis: Analysis | null = null;
  let pages: WikiPage[] | null = null;
  const wrapped: InferenceProvider = {
    capabilities: () => provider.capabilities(),
    analyze: async (sourceText, vaultContext, run) => {
      analysis = await provider.analyze(sourceText, vaultContext, run);
      return analysis;
    },
    generate: async (input, run) => {
      pages = await provider.generate(input, run);
      return pages;
    },
    chat: (messages, retrievalContext, run) => provider.chat(messages, retrievalContext, run),
    ...(provider.ask ? { ask: provider.ask.bind(provider) } : {}),
  };
  return { provider: wrapped, recorded: () => ({ analysis, pages }) };
}
