/**
 * The Offline provider: the zero-setup default. It is extraction, not AI, and says so on every page
 * it writes. Deterministic, local, and held to the same validator as every model.
 */
import { defineCapabilities, type ProviderCapabilities } from "../../core/capabilities";
import { SynapseError } from "../../core/errors";
import type { InferenceProvider } from "../../core/provider";
import { throwIfStopped, type RunContext } from "../../core/run-context";
import type { Analysis, Message, WikiPage } from "../../core/schemas";
import { extract, isProperName } from "./extract";
import { offlinePages } from "./offline-pages";

const CAPABILITIES = defineCapabilities({
  name: "offline",
  mode: "offline",
  model: null,
  isLocal: true,
  structuredOutput: "none",
  streaming: true,
});

export class OfflineProvider implements InferenceProvider {
  capabilities(): ProviderCapabilities {
    return CAPABILITIES;
  }

  analyze(sourceText: string, _vaultContext: string, run: RunContext): Promise<Analysis> {
    throwIfStopped(run);
    const path = run.source?.path ?? "note.md";
    const found = extract(path, sourceText);
    return Promise.resolve({
      title: found.title,
      language: found.language,
      summary: found.lead,
      topics: [...found.headings.filter((h) => h.level <= 2).map((h) => h.text), ...found.tags].slice(0, 12),
      entities: [...found.links.filter((t) => isProperName(t.name)), ...found.namedPhrases].map((t) => ({
        name: t.name,
        kind: "named",
        description: t.context,
      })),
      concepts: found.links.filter((t) => !isProperName(t.name)).map((t) => ({ name: t.name, description: t.context })),
    });
  }

  generate(analysis: Analysis, _retrievalContext: string, run: RunContext): Promise<WikiPage[]> {
    throwIfStopped(run);
    const source = run.source;
    if (!source) throw new SynapseError("config", "The Offline provider needs the source note to generate pages.");
    // Extraction is cheap and deterministic, so generate re-reads the note rather than keeping state.
    const found = extract(source.path, source.text);
    return Promise.resolve(offlinePages(analysis, found, source.path));
  }

  async *chat(messages: Message[], retrievalContext: string, run: RunContext): AsyncIterable<string> {
    throwIfStopped(run);
    const question = [...messages].reverse().find((m) => m.role === "user")?.content ?? "";
    yield "Offline mode has no language model, so this is not an answer: these are the passages of your wiki that share the most words with your question.\n\n";
    const words = new Set(question.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 2));
    const passages = retrievalContext
      .split(/\n\s*\n/)
      .map((p) => ({ p: p.trim(), score: p.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => words.has(w)).length }))
      .filter((x) => x.score > 0 && x.p)
      .sort((a, b) => b.score - a.score)
      .slice(0, 3);
    if (passages.length === 0) {
      yield "Nothing in the wiki matches the question.";
      return;
    }
    for (const { p } of passages) yield `> ${p.replace(/\n/g, "\n> ")}\n\n`;
  }
}
