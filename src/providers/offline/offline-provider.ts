/**
 * The Offline provider: the zero-setup default. It is extraction, not AI, and says so on every page
 * it writes. Deterministic, local, and held to the same validator as every model.
 */
import { defineCapabilities, type ProviderCapabilities } from "../../core/capabilities";
import { SynapseError } from "../../core/errors";
import { ANALYSIS_LIMITS } from "../../core/analysis-check";
import type { GenerationInput, InferenceProvider } from "../../core/provider";
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
    // Held to the analysis' bounds (analysis-check.ts): extraction copies the note, and a note's
    // heading or link may be as long as the note itself.
    const clip = (text: string, max: number) => {
      if (text.length <= max) return text;
      // Never half a surrogate pair.
      const cut = text.slice(0, max);
      return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
    };
    const items = ANALYSIS_LIMITS.listItems;
    return Promise.resolve({
      title: clip(found.title, ANALYSIS_LIMITS.title),
      language: found.language,
      summary: clip(found.lead, ANALYSIS_LIMITS.summary),
      topics: [...found.headings.filter((h) => h.level <= 2).map((h) => h.text), ...found.tags].slice(0, 12).map((t) => clip(t, ANALYSIS_LIMITS.name)),
      entities: [...found.links.filter((t) => isProperName(t.name)), ...found.namedPhrases].slice(0, items).map((t) => ({
        name: clip(t.name, ANALYSIS_LIMITS.name),
        kind: "named",
        description: clip(t.context, ANALYSIS_LIMITS.description),
      })),
      concepts: found.links
        .filter((t) => !isProperName(t.name))
        .slice(0, items)
        .map((t) => ({ name: clip(t.name, ANALYSIS_LIMITS.name), description: clip(t.context, ANALYSIS_LIMITS.description) })),
    });
  }

  /** Extractive and windowless: it reads the whole note from `run.source`, not the packed `input.note`. */
  generate({ analysis }: GenerationInput, run: RunContext): Promise<WikiPage[]> {
    throwIfStopped(run);
    const source = run.source;
    if (!source) throw new SynapseError("config", "The Offline provider needs the source note to generate pages.");
    // Extraction is cheap and deterministic, so generate re-reads the note rather than keeping state.
    const found = extract(source.path, source.text);
    // A wiki language the user fixed sets the fixed words; the extracted text stays the note's.
    return Promise.resolve(offlinePages(analysis, found, source.path, run.wikiLanguage ?? analysis.language));
  }

  async *chat(messages: Message[], retrievalContext: string, run: RunContext): AsyncIterable<string> {
    throwIfStopped(run);
    const question = [...messages].reverse().find((m) => m.role === "user")?.content ?? "";
    const passages = bestPassages(question, retrievalContext);
    if (passages.length === 0) {
      yield "Nothing in the wiki matches the question.";
      return;
    }
    yield "Offline mode has no language model, so this is not an answer: these are the passages of your wiki that share the most words with your question.\n\n";
    for (const { title, text } of passages) yield `> ${text.replace(/\n/g, "\n> ")}\n\n— [[${title}]]\n\n`;
  }

}

/**
 * The context's passages ("[n] [[Title]] (…)" then the text) that share the most words with the
 * question, best first, each with the page it came from so the quote can be cited.
 */
function bestPassages(question: string, context: string): { title: string; text: string }[] {
  const words = new Set(question.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 2));
  return context
    .split(/\n\s*\n(?=\[\d+\] \[\[)/)
    .map((block) => {
      const header = /^\[\d+\] \[\[([^\]\n]+)\]\][^\n]*\n?/.exec(block);
      // Quoted as text: Synapse's hidden markers go, and links inside a quote are not citations.
      const text = (header ? block.slice(header[0].length) : block)
        .replace(/%%[\s\S]*?%%/g, "")
        .replace(/\[\[(?:[^\]|\n]*\|)?([^\]\n]*)\]\]/g, "$1")
        .replace(/\n{3,}/g, "\n\n")
        .trim();
      const score = text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => words.has(w)).length;
      return { title: header?.[1] ?? "", text: text.length > 600 ? `${text.slice(0, 600)}…` : text, score };
    })
    .filter((x) => x.score > 0 && x.text && x.title)
    .sort((a, b) => b.score - a.score)
    .slice(0, 3);
}
