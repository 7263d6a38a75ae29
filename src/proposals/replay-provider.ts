/**
 * The provider an accepted ingest proposal runs with: it answers with the analysis and pages the
 * model gave when the agent proposed the ingest, so the write path plans them against the vault as
 * it is now (the user's edits since are merged, never overwritten) and nothing leaves the machine.
 */
import { defineCapabilities } from "../core/capabilities";
import { SynapseError } from "../core/errors";
import type { InferenceProvider } from "../core/provider";
import { throwIfStopped } from "../core/run-context";
import type { Analysis, WikiPage } from "../core/schemas";

export interface ReplayInput {
  readonly analysis: Analysis | null;
  readonly pages: readonly WikiPage[];
  readonly provider: { readonly name: string; readonly model: string | null; readonly agentic: boolean };
}

export function replayProvider(input: ReplayInput): InferenceProvider {
  const capabilities = defineCapabilities({
    // log.md names the backend that wrote the pages.
    name: input.provider.name,
    model: input.provider.model,
    mode: "offline",
    // Replaying sends nothing anywhere.
    isLocal: true,
    // An agent's run returns only the pages it wrote; the plan must treat them the same way again.
    supportsAgenticLoop: input.provider.agentic,
    streaming: false,
  });
  return {
    capabilities: () => capabilities,
    analyze: (_text, _context, run) => {
      throwIfStopped(run);
      if (!input.analysis) throw new SynapseError("input", "The proposal holds no analysis of the note; refuse it and propose the ingest again.");
      return Promise.resolve(input.analysis);
    },
    generate: (_input, run) => {
      throwIfStopped(run);
      return Promise.resolve(input.pages.map((p) => structuredClone(p)));
    },
    // eslint-disable-next-line require-yield -- a replay has no conversation to hold
    chat: async function* () {
      throw new SynapseError("capability", "A replayed proposal answers no questions.");
    },
  };
}
